import type { RunFigures } from './score';
import { formatDollars, formatRatio } from './table';

/**
 * `quorum eval --verify`: each run's precision, recall and F1 without verification (every finding the agent
 * reported) and with it (the findings the verifier did not refute) side by side, with what the verifier cost.
 */

export interface VerifiedFigures {
  /** The runs scored on the findings the verifier did not refute, in the order of the runs. */
  runs: RunFigures[];
  /** What the verifier cost in each run. */
  verifierUsd: number[];
}

/** The side-by-side figures as data (the JSON document's `verification`). */
export function verificationJson(runs: readonly RunFigures[], verified: VerifiedFigures) {
  return runs.map((r, i) => {
    const v = verified.runs[i];
    return {
      agent: r.agent,
      model: r.model,
      without: { precision: r.precision, recall: r.recall, f1: r.f1, costUsd: r.costUsd },
      with: { precision: v?.precision ?? null, recall: v?.recall ?? null, f1: v?.f1 ?? null, costUsd: v?.costUsd ?? r.costUsd },
      verifierUsd: verified.verifierUsd[i] ?? 0,
    };
  });
}

/** The side-by-side table: `precision 0.50 → 1.00` and so on per run, and the verifier's cost. */
export function formatVerificationTable(runs: readonly RunFigures[], verified: VerifiedFigures): string {
  const head = ['agent', 'model', 'precision', 'recall', 'F1', 'verifier cost'];
  const arrow = (a: number | null, b: number | null) => `${formatRatio(a)} -> ${formatRatio(b)}`;
  const body = verificationJson(runs, verified).map((r) => [r.agent, r.model, arrow(r.without.precision, r.with.precision), arrow(r.without.recall, r.with.recall), arrow(r.without.f1, r.with.f1), formatDollars(r.verifierUsd)]);
  const w = head.map((_, i) => Math.max(...[head, ...body].map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(w[i] ?? 0) : c.padStart(w[i] ?? 0))).join('  ').trimEnd();
  return ['Without -> with verification:', line(head), w.map((n) => '-'.repeat(n)).join('  '), ...body.map(line)].join('\n') + '\n';
}
