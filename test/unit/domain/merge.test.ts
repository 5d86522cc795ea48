import { strict as assert } from 'node:assert';
import { mergeFindings, titleSimilarity } from '../../../src/core/domain/merge';
import type { Finding } from '../../../src/core/domain/finding';

let n = 0;
function finding(agent: string, over: Partial<Finding>): Finding {
  n += 1;
  return { id: `${agent}-${n}`, file: 'a.ts', agents: [agent], severity: 'medium', title: 't', explanation: 'e', startLine: 10, endLine: 10, confidence: 0.5, ...over };
}

describe('merging findings across agents', () => {
  it('shows the same issue from two agents once, naming both, with raised confidence and the higher severity', () => {
    const a = finding('analyst', { title: 'SQL injection in user lookup', severity: 'medium', confidence: 0.6, startLine: 12, endLine: 13 });
    const s = finding('security', { title: 'SQL injection in the user lookup query', severity: 'critical', confidence: 0.5, startLine: 13, endLine: 13, cwe: 'CWE-89', suggestion: 'fixed();' });
    const merged = mergeFindings([a, s]);
    assert.equal(merged.length, 1);
    const m = merged[0] as Finding;
    assert.deepEqual(new Set(m.agents), new Set(['analyst', 'security']));
    assert.equal(m.severity, 'critical');
    assert.equal(m.confidence, 0.8);
    assert.ok(m.confidence > Math.max(a.confidence, s.confidence));
    assert.equal(m.cwe, 'CWE-89');
    assert.equal(m.suggestion, 'fixed();');
    assert.equal(m.startLine, 13, 'the lines of the report whose suggestion is kept');
    // The summary says which report was folded into which, so no face has to guess.
    assert.equal(m.id, s.id);
    assert.deepEqual(m.mergedFrom, [a.id]);
  });

  it('keeps issues apart when the lines do not overlap or the titles differ', () => {
    const merged = mergeFindings([
      finding('analyst', { title: 'Null dereference of user', startLine: 5, endLine: 6 }),
      finding('security', { title: 'Null dereference of user', startLine: 20, endLine: 22 }),
      finding('architecture', { title: 'Function does too many things', startLine: 5, endLine: 22 }),
    ]);
    assert.equal(merged.length, 3);
  });

  it('merges on the same CWE even with different titles', () => {
    const merged = mergeFindings([
      finding('analyst', { title: 'Unsanitised path', cwe: 'CWE-22', startLine: 3, endLine: 4 }),
      finding('security', { title: 'Directory traversal via name', cwe: 'CWE-22', startLine: 4, endLine: 4 }),
    ]);
    assert.equal(merged.length, 1);
  });

  it('never merges two findings of the same agent', () => {
    const merged = mergeFindings([
      finding('analyst', { title: 'Missing await on save' }),
      finding('analyst', { title: 'Missing await on save()' }),
    ]);
    assert.equal(merged.length, 2);
  });

  it('does not carry a suggestion across different lines', () => {
    const merged = mergeFindings([
      finding('analyst', { title: 'Leaked file handle', severity: 'high', startLine: 8, endLine: 9 }),
      finding('architecture', { title: 'Leaked file handle', startLine: 9, endLine: 9, suggestion: 'close();' }),
    ]);
    assert.equal(merged.length, 1);
    assert.equal(merged[0]?.suggestion, undefined);
  });

  it('orders by severity, then confidence', () => {
    const merged = mergeFindings([
      finding('a', { title: 'one', severity: 'low', startLine: 1, endLine: 1 }),
      finding('b', { title: 'two', severity: 'critical', startLine: 2, endLine: 2 }),
      finding('c', { title: 'three', severity: 'low', confidence: 0.9, startLine: 3, endLine: 3 }),
    ]);
    assert.deepEqual(merged.map((f) => f.title), ['two', 'three', 'one']);
  });

  it('scores title similarity', () => {
    assert.equal(titleSimilarity('Same', 'same'), 1);
    assert.ok(titleSimilarity('Hard-coded API key', 'API key hard-coded in source') >= 0.6);
    assert.ok(titleSimilarity('Off-by-one in loop', 'Unvalidated redirect') < 0.4);
  });
});

describe('merging findings across files', () => {
  it('merges the same issue only within one file', () => {
    const merged = mergeFindings([
      finding('analyst', { file: 'src/a.ts', title: 'SQL injection in lookup', startLine: 5, endLine: 5 }),
      finding('security', { file: 'src/b.ts', title: 'SQL injection in lookup', startLine: 5, endLine: 5 }),
      finding('architecture', { file: 'src/a.ts', title: 'SQL injection in lookup', startLine: 4, endLine: 6 }),
    ]);
    assert.equal(merged.length, 2);
    assert.deepEqual(merged.map((f) => [f.file, [...f.agents].sort()]).sort(), [['src/a.ts', ['analyst', 'architecture']], ['src/b.ts', ['security']]]);
  });
});
