import { escapeHtml } from '../../shared/webviewHtml';
import type { RunFigures } from './score';

/**
 * The cost-versus-F1 chart as a self-contained SVG string (no scripts, no external references): one point per
 * run, x = total cost, y = F1. Colours come from CSS custom properties with fallbacks, so a VS Code webview
 * shows it in the theme's colours and a standalone report in neutral ones.
 */

const W = 560;
const H = 320;
const PAD = { left: 56, right: 24, top: 20, bottom: 44 };

function niceMax(n: number): number {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (n <= m * p) return m * p;
  return 10 * p;
}

/** The chart's words, for a localised page; English by default. `{0}` in `noF1` is the run's label. */
interface ChartLabels {
  title: string;
  xAxis: string;
  yAxis: string;
  noF1: string;
}

const CHART_LABELS: ChartLabels = { title: 'Cost versus F1', xAxis: 'total cost (USD)', yAxis: 'F1', noF1: '{0}: no F1' };

export function costF1Chart(runs: readonly RunFigures[], labels: ChartLabels = CHART_LABELS): string {
  const title = labels.title;
  const maxCost = niceMax(Math.max(0, ...runs.map((r) => r.costUsd)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (cost: number) => PAD.left + (cost / maxCost) * plotW;
  const y = (f1: number) => PAD.top + (1 - f1) * plotH;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(title)}" class="cost-f1-chart">`);
  parts.push(`<title>${escapeHtml(title)}</title>`);
  const axis = 'stroke="var(--chart-axis, #888)" stroke-width="1"';
  const text = 'fill="var(--chart-text, currentColor)" font-size="11" font-family="var(--chart-font, sans-serif)"';
  parts.push(`<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${PAD.left + plotW}" y2="${PAD.top + plotH}" ${axis}/>`);
  parts.push(`<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}" ${axis}/>`);
  for (let i = 0; i <= 4; i++) {
    const f = i / 4;
    parts.push(`<line x1="${PAD.left - 4}" y1="${y(f)}" x2="${PAD.left}" y2="${y(f)}" ${axis}/><text x="${PAD.left - 8}" y="${y(f) + 4}" text-anchor="end" ${text}>${f.toFixed(2)}</text>`);
    const c = (maxCost * i) / 4;
    parts.push(`<line x1="${x(c)}" y1="${PAD.top + plotH}" x2="${x(c)}" y2="${PAD.top + plotH + 4}" ${axis}/><text x="${x(c)}" y="${PAD.top + plotH + 16}" text-anchor="middle" ${text}>$${Number(c.toPrecision(3))}</text>`);
  }
  parts.push(`<text x="${PAD.left + plotW / 2}" y="${H - 6}" text-anchor="middle" ${text}>${escapeHtml(labels.xAxis)}</text>`);
  parts.push(`<text x="14" y="${PAD.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 14 ${PAD.top + plotH / 2})" ${text}>${escapeHtml(labels.yAxis)}</text>`);
  let withoutF1 = 0;
  /** Labels grow away from the nearer edge, so that none is cut off by the chart's border. */
  const anchor = (at: number) => (at < PAD.left + plotW / 3 ? 'start' : at > PAD.left + (2 * plotW) / 3 ? 'end' : 'middle');
  runs.forEach((r, i) => {
    const label = escapeHtml(`${r.agent} · ${r.model}`);
    if (r.f1 === null) {
      // Stacked, so that several runs without an F1 at the same cost stay readable.
      parts.push(`<text x="${x(r.costUsd)}" y="${PAD.top + plotH - 6 - 14 * (withoutF1++ % 8)}" text-anchor="${anchor(x(r.costUsd))}" ${text} class="no-f1">${escapeHtml(labels.noF1.replace('{0}', `${r.agent} · ${r.model}`))}</text>`);
      return;
    }
    const cx = x(r.costUsd);
    const cy = y(r.f1);
    parts.push(
      `<g class="point" data-run="${i}"><circle cx="${cx}" cy="${cy}" r="5" fill="var(--chart-point, #3b82f6)"><title>${label}: F1 ${r.f1.toFixed(3)}, $${r.costUsd.toFixed(4)}</title></circle>` +
        (cx > PAD.left + plotW / 2 ? `<text x="${cx - 8}" y="${cy - 6}" text-anchor="end" ${text}>${label}</text></g>` : `<text x="${cx + 8}" y="${cy - 6}" ${text}>${label}</text></g>`),
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
