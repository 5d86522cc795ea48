import { strict as assert } from 'node:assert';
import type { EvalCase, ExpectedFinding } from '../../../src/core/eval/corpus';
import type { ReportedFinding } from '../../../src/core/eval/match';
import { nearestRank, scoreRun, type CaseOutcome } from '../../../src/core/eval/score';

const c = (id: string, expected: ExpectedFinding[]): EvalCase => ({ id, language: 'python', file: 'a.py', text: 'x\n', lines: 40, expected });
const rep = (startLine: number, cwe: string, confidence: number): ReportedFinding => ({ startLine, endLine: startLine, title: 't', explanation: '', cwe, confidence });
const ok = (caseId: string, findings: ReportedFinding[], latencyMs: number, costUsd: number): CaseOutcome => ({ caseId, ok: true, findings, latencyMs, costUsd });

describe('eval scoring (pooled)', () => {
  it('nearest-rank percentiles', () => {
    assert.equal(nearestRank([], 50), null);
    assert.equal(nearestRank([7], 95), 7);
    assert.equal(nearestRank([40, 10, 30, 20], 50), 20);
    assert.equal(nearestRank([40, 10, 30, 20], 95), 40);
    assert.equal(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 95), 19);
  });

  it('exact figures on a small corpus with a failure, a clean twin and thresholds', () => {
    const cases = [
      c('a', [{ startLine: 10, endLine: 10, kind: 'security', cwe: 'CWE-89' }, { startLine: 20, endLine: 20, kind: 'security', cwe: 'CWE-79' }]),
      c('a-fixed', []),
      c('b', [{ startLine: 5, endLine: 6, kind: 'security', cwe: 'CWE-22' }]),
      c('c', [{ startLine: 3, endLine: 3, kind: 'security', cwe: 'CWE-78' }]),
    ];
    const outcomes = new Map<string, CaseOutcome>([
      // a: one true (0.9), one false (0.4) — the CWE-79 finding is missed
      ['a', ok('a', [rep(11, 'CWE-89', 0.9), rep(30, 'CWE-79', 0.4)], 100, 0.01)],
      // a-fixed: two reported on a clean case (0.6, 0.2)
      ['a-fixed', ok('a-fixed', [rep(10, 'CWE-89', 0.6), rep(12, 'CWE-89', 0.2)], 300, 0.01)],
      // b: one true at 0.5, off by two lines (8 vs 5-6)
      ['b', ok('b', [rep(8, 'CWE-23', 0.5)], 200, 0.02)],
      // c: failed (billed retries: 0.005)
      ['c', { caseId: 'c', ok: false, findings: [], latencyMs: 0, costUsd: 0.005 }],
    ]);
    const f = scoreRun('security', 'm', cases, outcomes);
    // reported 5, matched 2; expected 4, matched 2
    assert.equal(f.cases, 4);
    assert.equal(f.precision, 2 / 5);
    assert.equal(f.recall, 2 / 4);
    assert.equal(f.f1, (2 * 0.4 * 0.5) / 0.9);
    assert.equal(f.falsePositivesPerCleanCase, 2);
    assert.equal(f.costUsd, 0.045);
    assert.equal(f.costPerTruePositiveUsd, 0.045 / 2);
    assert.equal(f.p50Ms, 200);
    assert.equal(f.p95Ms, 300);
    assert.equal(f.failures, 1);
    assert.deepEqual(f.thresholds, [
      { minConfidence: 0, precision: 2 / 5, recall: 2 / 4 },
      { minConfidence: 0.3, precision: 2 / 4, recall: 2 / 4 },
      { minConfidence: 0.5, precision: 2 / 3, recall: 2 / 4 },
      { minConfidence: 0.7, precision: 1 / 1, recall: 1 / 4 },
      { minConfidence: 0.9, precision: 1 / 1, recall: 1 / 4 },
    ]);
  });

  it('zero denominators are null: nothing reported, nothing expected, no clean case, nothing matched', () => {
    const cases = [c('x', [{ startLine: 1, endLine: 1, kind: 'bug', keywords: ['leak'] }])];
    const none = scoreRun('security', 'm', cases, new Map([['x', ok('x', [], 50, 0)]]));
    assert.deepEqual(
      { p: none.precision, r: none.recall, f1: none.f1, fp: none.falsePositivesPerCleanCase, cpt: none.costPerTruePositiveUsd },
      { p: null, r: null, f1: null, fp: null, cpt: null },
    );
    const allFailed = scoreRun('analyst', 'm', cases, new Map());
    assert.deepEqual({ r: allFailed.recall, f: allFailed.failures, p50: allFailed.p50Ms, p95: allFailed.p95Ms }, { r: 0, f: 1, p50: null, p95: null });
  });

  it('a threshold re-matches: a low-confidence duplicate that was the true one gives way to the other', () => {
    const cases = [c('d', [{ startLine: 10, endLine: 10, kind: 'security', cwe: 'CWE-89' }])];
    const outcomes = new Map([['d', ok('d', [rep(10, 'CWE-89', 0.2), rep(10, 'CWE-89', 0.8)], 10, 0)]]);
    const f = scoreRun('security', 'm', cases, outcomes);
    assert.equal(f.precision, 1 / 2);
    assert.deepEqual(f.thresholds[2], { minConfidence: 0.5, precision: 1, recall: 1 });
  });
});
