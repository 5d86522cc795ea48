import { strict as assert } from 'node:assert';
import { parseCodeAnswer } from '../../../src/core/agents/codeAnswer';
import { parseFindings } from '../../../src/core/agents/findings';
import { buildMessages } from '../../../src/core/agents/messages';
import { matchFile, type ReviewTarget, singleTarget, targetInfo, touchesChange } from '../../../src/core/domain/target';

const changes: ReviewTarget = {
  kind: 'changes',
  label: 'Uncommitted changes',
  regions: [
    { file: 'src/db/users.ts', language: 'typescript', startLine: 10, endLine: 13, text: 'a\nb\nc\nd', changedLines: [{ start: 11, end: 12 }], removed: [{ after: 11, lines: ['old()'] }] },
    { file: 'src/db/users.ts', language: 'typescript', startLine: 40, endLine: 41, text: 'e\nf', changedLines: [{ start: 41, end: 41 }] },
    { file: 'lib/util.py', language: 'python', startLine: 1, endLine: 3, text: 'x\ny\nz', changedLines: [{ start: 1, end: 3 }] },
  ],
  skipped: [{ file: 'package-lock.json', reason: 'lockfile' }],
};

describe('review targets: regions across files', () => {
  it('describes a selection as a target of one region', () => {
    const t = singleTarget({ file: 'a.ts', language: 'typescript', text: 'x', startLine: 3, endLine: 3 });
    assert.deepEqual(targetInfo(t), { kind: 'selection', label: 'a.ts:3-3', regions: [{ file: 'a.ts', language: 'typescript', startLine: 3, endLine: 3 }] });
    assert.deepEqual(targetInfo(changes).skipped, [{ file: 'package-lock.json', reason: 'lockfile' }]);
  });

  it('matches the file a model names: exactly, by case, by path suffix, with backslashes and ./', () => {
    const files = ['src/db/users.ts', 'lib/util.py', 'test/util.py'];
    assert.equal(matchFile(files, 'src/db/users.ts'), 'src/db/users.ts');
    assert.equal(matchFile(files, './SRC/db/Users.ts'), 'src/db/users.ts');
    assert.equal(matchFile(files, 'src\\db\\users.ts'), 'src/db/users.ts');
    assert.equal(matchFile(files, 'db/users.ts'), 'src/db/users.ts');
    assert.equal(matchFile(files, 'util.py'), undefined, 'ambiguous');
    assert.equal(matchFile(files, 'other.ts'), undefined);
  });

  it('knows which findings touch a changed line', () => {
    assert.equal(touchesChange(changes.regions, { file: 'src/db/users.ts', startLine: 10, endLine: 10 }), false);
    assert.equal(touchesChange(changes.regions, { file: 'src/db/users.ts', startLine: 10, endLine: 11 }), true);
    assert.equal(touchesChange(changes.regions, { file: 'lib/util.py', startLine: 12, endLine: 12 }), false);
  });

  it('shows the agents each region with its file, NEW line numbers, changed lines and removed lines', () => {
    const [system, user] = buildMessages({ agent: { systemPrompt: 'x', output: 'findings' }, target: changes, language: 'en' });
    const text = user?.content ?? '';
    assert.match(text, /Reviewed: Uncommitted changes \(3 regions in 2 files\)/);
    assert.match(text, /File: src\/db\/users\.ts\nLanguage: typescript\nReviewed lines: 10-13\nChanged lines: 11-12\n/);
    assert.match(text, /\n {2}10 \| a\n\+ 11 \| b\n- {4}\| old\(\)\n\+ 12 \| c\n {2}13 \| d\n/);
    assert.match(text, /File: lib\/util\.py/);
    assert.match(system?.content ?? '', /"file":"…"/);
    const [codeSystem] = buildMessages({ agent: { systemPrompt: 'x', output: 'code' }, target: changes, language: 'en' });
    assert.match(codeSystem?.content ?? '', /"replacements":\[\{"file":"…","startLine":0,"endLine":0,"code":"…"\}\]/);
  });

  it('reads findings per file; without a file, the file whose region holds the line', () => {
    const answer = JSON.stringify({ findings: [
      { file: 'users.ts', severity: 'high', title: 'A', startLine: 41, endLine: 41 },
      { severity: 'low', title: 'B', startLine: 2 },
      { file: 'lib/util.py', severity: 'low', title: 'C', startLine: 90 },
    ] });
    const parsed = parseFindings(answer, 'analyst', changes);
    assert.deepEqual(parsed.findings.map((f) => [f.file, f.startLine, f.endLine, f.clamped ?? false]), [
      ['src/db/users.ts', 41, 41, false],
      ['lib/util.py', 2, 2, false],
      ['lib/util.py', 3, 3, true],
    ]);
  });

  it('drops a finding on a file the review did not send, instead of pinning it on one it did (one file of changes too)', () => {
    const answer = JSON.stringify({ findings: [
      { file: 'src/other-not-changed.ts', severity: 'critical', title: 'Elsewhere', startLine: 2, endLine: 2, confidence: 0.9 },
      { file: 'package-lock.json', severity: 'high', title: 'Skipped file', startLine: 1, confidence: 0.9 },
      { file: 'lib/util.py', severity: 'low', title: 'Here', startLine: 2 },
    ] });
    assert.deepEqual(parseFindings(answer, 'analyst', changes).findings.map((f) => f.title), ['Here']);
    const oneFile: ReviewTarget = { ...changes, regions: changes.regions.filter((r) => r.file === 'lib/util.py') };
    assert.deepEqual(parseFindings(answer, 'analyst', oneFile).findings.map((f) => [f.file, f.title]), [['lib/util.py', 'Here']]);
    // A selection's only file takes whatever name the model gives it.
    const selection = singleTarget({ file: 'a.ts', language: 'typescript', text: 'x\ny', startLine: 1, endLine: 2 });
    assert.deepEqual(parseFindings(JSON.stringify({ findings: [{ file: 'snippet.ts', severity: 'low', title: 'T', startLine: 2 }] }), 'analyst', selection).findings.map((f) => f.file), ['a.ts']);
  });

  it('reads the coding agent\'s replacements per region, keeping only those inside a reviewed region', () => {
    const answer = JSON.stringify({ rationale: 'r', replacements: [
      { file: 'src/db/users.ts', startLine: 10, endLine: 13, code: '  10 | A\n  11 | B' },
      { file: 'lib/util.py', startLine: 2, endLine: 9, code: 'nope' },
      { file: 'nowhere.ts', startLine: 1, endLine: 1, code: 'nope' },
    ] });
    const parsed = parseCodeAnswer(answer, changes);
    assert.equal(parsed.parsed, true);
    assert.deepEqual(parsed.replacements, [{ file: 'src/db/users.ts', startLine: 10, endLine: 13, code: 'A\nB' }]);
    assert.equal(parsed.rationale, 'r');
  });

  it('keeps a replacement written as advice out of the replacements (Apply would paste it over code), in the rationale; a Markdown file takes words', () => {
    const withNotes: ReviewTarget = { ...changes, regions: [...changes.regions, { file: 'docs/guide.md', language: 'markdown', startLine: 1, endLine: 1, text: 'old words', changedLines: [{ start: 1, end: 1 }] }] };
    const answer = JSON.stringify({ rationale: 'r', replacements: [
      { file: 'lib/util.py', startLine: 2, endLine: 2, code: 'Use a parameterized query instead: cur.execute(...) — see the docs' },
      { file: 'src/db/users.ts', startLine: 11, endLine: 11, code: 'b2' },
      { file: 'docs/guide.md', startLine: 1, endLine: 1, code: 'Use the new words instead of the old ones.' },
    ] });
    const parsed = parseCodeAnswer(answer, withNotes);
    assert.deepEqual(parsed.replacements?.map((r) => r.file), ['src/db/users.ts', 'docs/guide.md']);
    assert.equal(parsed.rationale, 'r\n\nlib/util.py:2-2: Use a parameterized query instead: cur.execute(...) — see the docs');
  });

  it('a selection\'s improved code written as advice is not offered as code (no improvedCode, no replacement), it joins the rationale; a Markdown selection takes words', () => {
    const selection = { regions: [{ file: 'app.py', language: 'python', startLine: 10, endLine: 11 }] };
    const advice = JSON.stringify({ rationale: 'SQL built by concatenation.', improvedCode: 'Use a parameterized query: cur.execute("SELECT * FROM t WHERE id = %s", (uid,))' });
    const parsed = parseCodeAnswer(advice, selection);
    assert.equal(parsed.parsed, true);
    assert.equal(parsed.improvedCode, undefined);
    assert.equal(parsed.replacements, undefined);
    assert.equal(parsed.rationale, 'SQL built by concatenation.\n\nUse a parameterized query: cur.execute("SELECT * FROM t WHERE id = %s", (uid,))');
    const code = parseCodeAnswer(JSON.stringify({ rationale: 'r', improvedCode: 'cur.execute("SELECT * FROM t WHERE id = %s", (uid,))\nrows = cur.fetchall()' }), selection);
    assert.equal(code.improvedCode, 'cur.execute("SELECT * FROM t WHERE id = %s", (uid,))\nrows = cur.fetchall()');
    const words = parseCodeAnswer(JSON.stringify({ improvedCode: 'Use the new words instead of the old ones.' }), { regions: [{ file: 'README.md', language: 'markdown', startLine: 1, endLine: 1 }] });
    assert.equal(words.improvedCode, 'Use the new words instead of the old ones.');
  });
});
