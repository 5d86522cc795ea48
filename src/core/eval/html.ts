import { escapeHtml, pageHtml } from '../../shared/webviewHtml';
import { costF1Chart } from './chart';
import type { RunFigures } from './score';
import { formatRatio, TABLE_HEADERS, tableRows } from './table';

/**
 * `quorum eval --format html`: one self-contained page (inline CSS and SVG, no script, no external resource;
 * its CSP forbids loading anything) with the figures table, the thresholds and the cost-versus-F1 chart.
 */
/** The figures table (`#figures`): one row per run; `extra` adds a last column (its cells are HTML the caller built and escaped). */
export function figuresTableHtml(
  runs: readonly RunFigures[],
  options: { headers?: readonly string[]; extra?: { header: string; cell: (run: RunFigures, index: number) => string } } = {},
): string {
  const headers = options.headers ?? TABLE_HEADERS;
  const extra = options.extra;
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('') + (extra ? `<th>${escapeHtml(extra.header)}</th>` : '');
  const body = tableRows(runs)
    .map((cells, row) => {
      const run = runs[row];
      const tail = extra && run ? `<td>${extra.cell(run, row)}</td>` : '';
      return `<tr${run && run.failures > 0 ? ' class="has-failures"' : ''}>${cells.map((c, i) => `<td${i >= 2 ? ' class="num"' : ''}>${escapeHtml(c)}</td>`).join('')}${tail}</tr>`;
    })
    .join('\n');
  return `<table id="figures">
<thead><tr>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>`;
}

/** Precision / recall at each confidence threshold (`#thresholds`). `t` labels a threshold column (`t = {0}`). */
export function thresholdsTableHtml(runs: readonly RunFigures[], labels: { agent: string; model: string; t: string } = { agent: 'agent', model: 'model', t: 't = {0}' }): string {
  const ts = runs[0]?.thresholds.map((t) => t.minConfidence) ?? [];
  const rows = runs
    .map((r) => `<tr><td>${escapeHtml(r.agent)}</td><td>${escapeHtml(r.model)}</td>${r.thresholds.map((t) => `<td class="num">${formatRatio(t.precision)} / ${formatRatio(t.recall)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table id="thresholds">
<thead><tr><th>${escapeHtml(labels.agent)}</th><th>${escapeHtml(labels.model)}</th>${ts.map((t) => `<th>${escapeHtml(labels.t.replace('{0}', String(t)))}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

export function evalHtmlReport(runs: readonly RunFigures[], meta: { corpus: string; generatedAt: string }): string {
  return pageHtml({
    lang: 'en',
    title: 'Quorum eval report',
    csp: "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    head: `<style>
  body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2328; background: #fff; }
  table { border-collapse: collapse; margin: 1rem 0; }
  th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  .meta { color: #59636e; }
  svg { --chart-axis: #8c959f; --chart-point: #0969da; --chart-text: #1f2328; max-width: 100%; height: auto; }
</style>`,
    body: `<h1>Quorum eval report</h1>
<p class="meta">Corpus: ${escapeHtml(meta.corpus)} · ${runs[0]?.cases ?? 0} cases · generated ${escapeHtml(meta.generatedAt)}</p>
${figuresTableHtml(runs)}
<h2>Cost versus F1</h2>
${costF1Chart(runs)}
<h2>Precision / recall at confidence &ge; t</h2>
${thresholdsTableHtml(runs)}
<p class="meta">Precision = matched reported ÷ reported; recall = matched expected ÷ expected; F1 = 2PR/(P+R); "-" where a denominator is zero. Cost counts every billed attempt; latency runs from sending to the last byte, nearest-rank percentiles over the cases that succeeded.</p>`,
  });
}
