import { strict as assert } from 'node:assert';
import { AnswerProgress } from '../../../src/shared/answerProgress';

const ANSWER = [
  'Here is my review.\n\n```json\n',
  '{"findings": [\n  {"severity": "high", "startLine": 12, "title": "SQL built from \\"user\\" input", "explanation": "The {query} is [concatenated], see CWE-89.", "cwe": "CWE-89"},\n',
  '  {"title": "Token compared with ==", "severity": "Medium", "lines": {"start": 20, "end": 21}},\n',
  '  {"title": "Unbounded cache", "severity": "low"}\n]}\n```\n\nThat is all: the summary is above.',
].join('');

describe('answer progress (findings so far in a streamed JSON answer)', () => {
  it('reads the complete titles and severities, whatever the split into deltas', () => {
    for (let cut = 1; cut < ANSWER.length; cut += 7) {
      const p = new AnswerProgress();
      for (let i = 0; i < ANSWER.length; i += cut) p.update(ANSWER.slice(0, i + cut));
      assert.equal(p.json, true);
      assert.equal(p.count, 3, `cut ${cut}`);
      assert.deepEqual(p.findings, [
        { title: 'SQL built from "user" input', severity: 'high' },
        { title: 'Token compared with ==', severity: 'medium' },
        { title: 'Unbounded cache', severity: 'low' },
      ]);
    }
  });

  it('counts only titles that are complete, and objects in a list (not the answer\'s own summary)', () => {
    const p = new AnswerProgress();
    p.update('{"summary": "Two problems", "findings": [{"severity": "high", "title": "SQL built');
    assert.equal(p.json, true);
    assert.equal(p.count, 0);
    p.update('{"summary": "Two problems", "findings": [{"severity": "high", "title": "SQL built from input"}, {"title": "x');
    assert.equal(p.count, 1);
    assert.deepEqual(p.findings, [{ title: 'SQL built from input', severity: 'high' }]);
  });

  it('prose without JSON is not JSON; JSON after prose is found at a line start', () => {
    const p = new AnswerProgress();
    p.update('## Summary\n\nThe handler uses {braces} and [brackets] in prose.\n');
    assert.equal(p.json, false);
    p.update('## Summary\n\nThe handler uses {braces} and [brackets] in prose.\n[{"title": "A"}]');
    assert.equal(p.json, true);
    assert.deepEqual(p.findings, [{ title: 'A' }]);
  });

  it('a Markdown link or braces at a line start are prose; an opening brace alone waits for what follows', () => {
    const p = new AnswerProgress();
    p.update('[the docs](https://example.com) say so.\n{braces} too.\n');
    assert.equal(p.json, false);
    p.update('[the docs](https://example.com) say so.\n{braces} too.\n{');
    assert.equal(p.json, false);
    p.update('[the docs](https://example.com) say so.\n{braces} too.\n{\n  "findings": [{"title": "A"}]');
    assert.equal(p.json, true);
    assert.equal(p.count, 1);
  });

  it('counts the lines of an improved-code answer as they arrive', () => {
    const p = new AnswerProgress();
    p.update('{"rationale": "Use a parameterized query.", "improvedCode": "def f(x):\\n    return db.execute(');
    assert.equal(p.codeLines, 2);
    p.update('{"rationale": "Use a parameterized query.", "improvedCode": "def f(x):\\n    return db.execute(q, (x,))\\n"}');
    assert.equal(p.codeLines, 3);
    assert.equal(p.count, 0);
  });

  it('starts again when the text is replaced rather than extended', () => {
    const p = new AnswerProgress();
    p.update('[{"title": "A"}, {"title": "B"}]');
    assert.equal(p.count, 2);
    p.update('[{"title": "C"}]');
    assert.deepEqual(p.findings, [{ title: 'C' }]);
  });
});
