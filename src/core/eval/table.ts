import type { RunFigures } from './score';

/** Plain-text renderings of eval figures, shared by the CLI's table and the HTML report. */

export function formatRatio(n: number | null): string {
  return n === null ? '-' : n.toFixed(3);
}

export function formatDollars(n: number | null): string {
  if (n === null) return '-';
  if (n === 0) return '$0';
  return n < 0.01 ? `$${n.toFixed(6).replace(/0+$/, '')}` : `$${n.toFixed(4)}`;
}

function formatMs(n: number | null): string {
  return n === null ? '-' : `${Math.round(n)}ms`;
}

export const TABLE_HEADERS = ['agent', 'model', 'precision', 'recall', 'F1', 'FP/clean', 'cost', '$/true', 'p50', 'p95', 'failures'] as const;

/** One row of cells per run, in TABLE_HEADERS order. */
export function tableRows(runs: readonly RunFigures[]): string[][] {
  return runs.map((r) => [
    r.agent,
    r.model,
    formatRatio(r.precision),
    formatRatio(r.recall),
    formatRatio(r.f1),
    r.falsePositivesPerCleanCase === null ? '-' : r.falsePositivesPerCleanCase.toFixed(2),
    formatDollars(r.costUsd),
    formatDollars(r.costPerTruePositiveUsd),
    formatMs(r.p50Ms),
    formatMs(r.p95Ms),
    `${r.failures}/${r.cases}`,
  ]);
}

/** The figures as an aligned text table, with the precision/recall at each confidence threshold below. */
export function formatEvalTable(runs: readonly RunFigures[]): string {
  const rows = [[...TABLE_HEADERS], ...tableRows(runs)];
  const widths = TABLE_HEADERS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  const out = [line(rows[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  if (runs.length > 0) {
    out.push('', 'Precision / recall at confidence >= t:');
    const ts = runs[0]?.thresholds.map((t) => t.minConfidence) ?? [];
    const head = ['agent', 'model', ...ts.map((t) => `t=${t}`)];
    const body = runs.map((r) => [r.agent, r.model, ...r.thresholds.map((t) => `${formatRatio(t.precision)}/${formatRatio(t.recall)}`)]);
    const w = head.map((_, i) => Math.max(...[head, ...body].map((r) => (r[i] ?? '').length)));
    for (const cells of [head, ...body]) out.push(cells.map((c, i) => (i < 2 ? c.padEnd(w[i] ?? 0) : c.padStart(w[i] ?? 0))).join('  ').trimEnd());
  }
  return out.join('\n') + '\n';
}

/** Rows of cells as aligned lines: the first two columns (agent, model) left-aligned, the figures right-aligned. */
export function alignedLines(head: readonly string[], body: readonly (readonly string[])[]): string[] {
  const w = head.map((_, i) => Math.max(...[head, ...body].map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(w[i] ?? 0) : c.padStart(w[i] ?? 0))).join('  ').trimEnd();
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...body.map(line)];
}
