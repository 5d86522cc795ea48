import { isClean, type EvalCase } from './corpus';
import { kindsOf, matchCase, type ReportedFinding } from './match';

/**
 * Pooled figures of one agent on one model over a corpus (README "Evaluating models"):
 * precision = matched reported ÷ reported; recall = matched expected ÷ expected; F1 = 2PR/(P+R); false positives
 * per clean case = findings reported on clean cases ÷ clean cases; cost per true positive = cost ÷ matched
 * expected. A ratio with a zero denominator is null. A failed case counts its expected findings as missed.
 * Thresholds keep the findings with confidence ≥ t and match afresh. Latency percentiles are nearest-rank over
 * the cases that succeeded.
 */

const CONFIDENCE_THRESHOLDS = [0, 0.3, 0.5, 0.7, 0.9] as const;

/** What one case gave one agent on one model. */
export interface CaseOutcome {
  caseId: string;
  /** False when the request failed: nothing was reported and the case's expected findings are missed. */
  ok: boolean;
  findings: ReportedFinding[];
  /** Sending to the last byte, retries included, queueing not. Only meaningful when ok. */
  latencyMs: number;
  /** Every billed attempt of the case. */
  costUsd: number;
}

interface ThresholdFigures {
  minConfidence: number;
  precision: number | null;
  recall: number | null;
}

export interface RunFigures {
  agent: string;
  model: string;
  cases: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  falsePositivesPerCleanCase: number | null;
  costUsd: number;
  costPerTruePositiveUsd: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  failures: number;
  thresholds: ThresholdFigures[];
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

function f1Of(precision: number | null, recall: number | null): number | null {
  if (precision === null || recall === null) return null;
  return ratio(2 * precision * recall, precision + recall);
}

/** Nearest-rank percentile: the smallest value with at least p% of the values at or below it; null when none. */
export function nearestRank(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

interface Pooled {
  expected: number;
  matchedExpected: number;
  reported: number;
  truePositives: number;
}

function pool(cases: readonly EvalCase[], outcomes: ReadonlyMap<string, CaseOutcome>, agent: string, minConfidence: number): Pooled {
  const scope = kindsOf(agent);
  const total: Pooled = { expected: 0, matchedExpected: 0, reported: 0, truePositives: 0 };
  for (const c of cases) {
    const outcome = outcomes.get(c.id);
    const findings = outcome?.ok ? outcome.findings.filter((f) => f.confidence >= minConfidence) : [];
    const m = matchCase(c.expected, findings, scope);
    total.expected += m.expected;
    total.matchedExpected += m.matchedExpected;
    total.reported += m.reported;
    total.truePositives += m.truePositives;
  }
  return total;
}

/** The figures of one run. `outcomes` holds one entry per case id; a missing entry counts as a failure. */
export function scoreRun(agent: string, model: string, cases: readonly EvalCase[], outcomes: ReadonlyMap<string, CaseOutcome>): RunFigures {
  const all = pool(cases, outcomes, agent, 0);
  const precision = ratio(all.truePositives, all.reported);
  const recall = ratio(all.matchedExpected, all.expected);
  const clean = cases.filter(isClean);
  const onClean = clean.reduce((n, c) => {
    const o = outcomes.get(c.id);
    return n + (o?.ok ? o.findings.length : 0);
  }, 0);
  let costUsd = 0;
  const latencies: number[] = [];
  let failures = 0;
  for (const c of cases) {
    const o = outcomes.get(c.id);
    costUsd += o?.costUsd ?? 0;
    if (o?.ok) latencies.push(o.latencyMs);
    else failures++;
  }
  return {
    agent,
    model,
    cases: cases.length,
    precision,
    recall,
    f1: f1Of(precision, recall),
    falsePositivesPerCleanCase: ratio(onClean, clean.length),
    costUsd,
    costPerTruePositiveUsd: ratio(costUsd, all.matchedExpected),
    p50Ms: nearestRank(latencies, 50),
    p95Ms: nearestRank(latencies, 95),
    failures,
    thresholds: CONFIDENCE_THRESHOLDS.map((t) => {
      const p = t === 0 ? all : pool(cases, outcomes, agent, t);
      return { minConfidence: t, precision: ratio(p.truePositives, p.reported), recall: ratio(p.matchedExpected, p.expected) };
    }),
  };
}
