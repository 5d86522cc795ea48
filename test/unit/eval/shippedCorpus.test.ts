import { strict as assert } from 'node:assert';
import { join, resolve } from 'node:path';
import { isClean, loadCorpus, type Corpus } from '../../../src/core/eval/corpus';

const dir = resolve(__dirname, '..', '..', '..', 'eval', 'corpus');

describe('the shipped eval corpus', () => {
  let corpus: Corpus;
  before(async () => {
    corpus = await loadCorpus(dir);
  });

  it('loads: at least 40 cases in at least 5 languages, each file 10-40 lines', () => {
    assert.ok(corpus.cases.length >= 40, `${corpus.cases.length} cases`);
    const languages = new Set(corpus.cases.map((c) => c.language));
    assert.ok(languages.size >= 5, [...languages].join(', '));
    for (const l of ['python', 'typescript', 'java', 'go']) assert.ok(languages.has(l), l);
    assert.ok(languages.has('csharp') || languages.has('php'));
    for (const c of corpus.cases) assert.ok(c.lines >= 10 && c.lines <= 40, `${c.id}: ${c.lines} lines`);
  });

  it('every flawed case has a clean fixed twin in the same language, and every clean case is a twin', () => {
    const byId = new Map(corpus.cases.map((c) => [c.id, c]));
    for (const c of corpus.cases) {
      if (isClean(c)) {
        assert.match(c.id, /-fixed$/, `${c.id} is clean but not a twin`);
        continue;
      }
      const twin = byId.get(`${c.id}-fixed`);
      assert.ok(twin, `${c.id} has no -fixed twin`);
      assert.ok(isClean(twin), `${twin.id} is not clean`);
      assert.equal(twin.language, c.language);
      assert.notEqual(twin.text, c.text);
    }
  });

  it('covers the required CWEs, the common bugs and a few design smells', () => {
    const findings = corpus.cases.flatMap((c) => c.expected.map((f) => ({ ...f, id: c.id })));
    const cwes = new Set(findings.flatMap((f) => (f.cwe ? [f.cwe] : [])));
    for (const n of [79, 89, 22, 78, 502, 798, 327, 918, 611, 352]) assert.ok(cwes.has(`CWE-${n}`), `CWE-${n} missing`);
    const bugIds = findings.filter((f) => f.kind === 'bug').map((f) => f.id).join(' ');
    for (const topic of ['off-by-one', 'resource-leak', 'race', 'null', 'error']) assert.match(bugIds, new RegExp(topic), `no ${topic} bug`);
    assert.ok(findings.filter((f) => f.kind === 'design').length >= 3, 'fewer than 3 design smells');
  });

  it('ignores entries that are not cases (the README beside them)', () => {
    assert.ok(!corpus.cases.some((c) => c.id === 'README.md'));
    assert.equal(corpus.dir, join(dir));
  });
});
