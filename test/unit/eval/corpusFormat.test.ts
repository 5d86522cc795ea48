import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CorpusError, loadCorpus, parseExpected } from '../../../src/core/eval/corpus';

function corpus(cases: Record<string, { expected: unknown; file?: string; text?: string } | undefined>): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-corpus-'));
  for (const [id, c] of Object.entries(cases)) {
    mkdirSync(join(dir, id));
    if (!c) continue;
    writeFileSync(join(dir, id, 'expected.json'), typeof c.expected === 'string' ? c.expected : JSON.stringify(c.expected));
    if (c.file) writeFileSync(join(dir, id, c.file), c.text ?? 'a = 1\nb = 2\nc = 3\n');
  }
  return dir;
}

async function rejects(dir: string, caseId: string | undefined, field: string | undefined): Promise<CorpusError> {
  try {
    await loadCorpus(dir);
  } catch (e) {
    assert.ok(e instanceof CorpusError, String(e));
    assert.equal(e.caseId, caseId);
    assert.equal(e.field, field);
    if (caseId) assert.match(e.message, new RegExp(`"${caseId}"`));
    return e;
  }
  assert.fail('the corpus loaded');
}

describe('eval corpus format', () => {
  it('loads cases sorted by id, ignoring files and folders that are not cases; extra fields are allowed', async () => {
    const dir = corpus({
      'b-case': { expected: { language: 'python', file: 'app.py', findings: [{ startLine: 1, endLine: 2, kind: 'bug', keywords: ['x'], note: 'extra' }], author: 'me' }, file: 'app.py' },
      'a-case': { expected: { language: 'go', file: 'main.go', findings: [] }, file: 'main.go' },
      'notes': undefined,
    });
    writeFileSync(join(dir, 'README.md'), '# my corpus');
    const c = await loadCorpus(dir);
    assert.deepEqual(c.cases.map((x) => x.id), ['a-case', 'b-case']);
    assert.deepEqual(c.cases[1]?.expected, [{ startLine: 1, endLine: 2, kind: 'bug', keywords: ['x'] }]);
    assert.equal(c.cases[1]?.lines, 3);
  });

  it('an empty corpus is an error', async () => {
    await rejects(corpus({ 'only-notes': undefined }), undefined, undefined);
  });

  it('names the case and the field of a malformed case', async () => {
    await rejects(corpus({ s: { expected: { language: 'py', file: 'a.py', findings: [{ startLine: 1, endLine: 1, kind: 'security' }] }, file: 'a.py' } }), 's', 'findings.0.cwe');
    await rejects(corpus({ k: { expected: { language: 'py', file: 'a.py', findings: [{ startLine: 1, endLine: 1, kind: 'design' }] }, file: 'a.py' } }), 'k', 'findings.0.keywords');
    await rejects(corpus({ l: { expected: { file: 'a.py', findings: [] }, file: 'a.py' } }), 'l', 'language');
    await rejects(corpus({ f: { expected: { language: 'py', findings: [] }, file: 'a.py' } }), 'f', 'file');
    await rejects(corpus({ n: { expected: { language: 'py', file: 'a.py' }, file: 'a.py' } }), 'n', 'findings');
    await rejects(corpus({ m: { expected: { language: 'py', file: 'missing.py', findings: [] } } }), 'm', 'file');
    await rejects(corpus({ kind: { expected: { language: 'py', file: 'a.py', findings: [{ startLine: 1, endLine: 1, kind: 'style', keywords: ['x'] }] }, file: 'a.py' } }), 'kind', 'findings.0.kind');
    await rejects(corpus({ past: { expected: { language: 'py', file: 'a.py', findings: [{ startLine: 2, endLine: 9, kind: 'bug', keywords: ['x'] }] }, file: 'a.py' } }), 'past', 'findings.0.endLine');
    await rejects(corpus({ json: { expected: '{not json', file: 'a.py' } }), 'json', 'expected.json');
    await rejects(corpus({ up: { expected: { language: 'py', file: '../a.py', findings: [] }, file: 'a.py' } }), 'up', 'file');
  });

  it('the first malformed case stops the load even when others are fine', () => {
    assert.throws(() => parseExpected('z', JSON.stringify({ language: 'py', file: 'a.py', findings: [{ startLine: 0, endLine: 1, kind: 'bug', keywords: ['x'] }] })), (e: unknown) => e instanceof CorpusError && e.field === 'findings.0.startLine');
  });
});
