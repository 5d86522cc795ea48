import { formatString } from '../../shared/panelStrings';
import type { CompareStrings } from '../../shared/compareProtocol';
import { escapeHtml, renderWebviewHtml } from '../../shared/webviewHtml';
import { costF1Chart } from './chart';
import { figuresTableHtml, thresholdsTableHtml } from './html';
import type { RunFigures } from './score';
import { formatDollars } from './table';
import { addressedRate, refutedRate, usdPerAddressed, type OutcomeCounts } from '../outcomes/stats';

/**
 * The Compare Models webview's page: the eval report's table, chart and thresholds (the same functions as
 * `quorum eval --format html`), localised, under the review panel's Content-Security-Policy (default-src 'none',
 * a nonce for the one script, nothing from the network), coloured by the theme through CSS variables. Every
 * model id and agent name is escaped; the "Use for" buttons carry them in data attributes for the page script.
 */

export interface ComparePageInput {
  /** `webview.cspSource`, a fresh base64 nonce, and URIs already passed through `asWebviewUri`. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUris: readonly string[];
  lang: string;
  strings: CompareStrings;
  agent: { id: string; title: string };
  /** The agent's model now: its row says "current" instead of offering "Use for". */
  currentModel: string;
  corpus: { label: string; cases: number; clean: number };
  runs: readonly RunFigures[];
  /** Per run: failed cases by error code. */
  failureCodes: readonly Record<string, number>[];
  /** The comparison was cancelled after `measured` of `total` cases (all runs together). */
  stopped?: { measured: number; total: number };
  /** What became of this agent's findings on the user's repository, per model (core/outcomes), and how many decided ones are enough. */
  outcomes?: { byModel: Readonly<Record<string, OutcomeCounts>>; minimum: number };
}

/** The outcomes beside the corpus figures: a row per compared model, its figures once enough findings have an outcome. */
function outcomesHtml(input: ComparePageInput, t: (text: string, ...args: (string | number)[]) => string): string {
  const o = input.outcomes;
  if (!o) return '';
  const s = input.strings;
  const pct = (r: number | undefined) => (r === undefined ? '-' : `${Math.round(r * 100)}%`);
  const rows = [...new Set(input.runs.map((r) => r.model))].map((model) => {
    const c = o.byModel[model];
    const decided = c ? c.addressed + c.dismissed : 0;
    if (!c || decided < o.minimum) return `<tr><td>${escapeHtml(model)}</td><td>${decided}</td><td colspan="7">${t(s.outcomesNotEnough, decided, o.minimum)}</td></tr>`;
    const per = usdPerAddressed(c);
    const cells = [decided, c.raised, c.addressed, c.dismissed, c.open, pct(addressedRate(c)), pct(refutedRate(c)), per === undefined ? '-' : formatDollars(per)];
    return `<tr><td>${escapeHtml(model)}</td>${cells.map((v) => `<td>${escapeHtml(String(v))}</td>`).join('')}</tr>`;
  });
  const head = [s.model, s.outcomesDecided, s.raised, s.addressed, s.dismissed, s.stillOpen, s.addressedRate, s.refutedRate, s.usdPerAddressed].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  return `<h2>${t(s.outcomesHeading)}</h2>
<table id="outcomes">
<thead><tr>${head}</tr></thead>
<tbody>${rows.join('')}</tbody>
</table>
<p class="meta">${t(s.outcomesNote, o.minimum)}</p>`;
}

const attr = escapeHtml;

export function comparePageHtml(input: ComparePageInput): string {
  const s = input.strings;
  const t = (text: string, ...args: (string | number)[]) => escapeHtml(formatString(text, args));
  const headers = [s.agent, s.model, s.precision, s.recall, s.f1, s.fpPerClean, s.cost, s.costPerTrue, s.p50, s.p95, s.failures];
  const useCell = (run: RunFigures) =>
    run.agent === input.agent.id && run.model === input.currentModel
      ? `<span class="current">${t(s.current)}</span>`
      : `<button type="button" class="btn" data-action="useModel" data-agent="${attr(run.agent)}" data-model="${attr(run.model)}">${t(s.useFor, input.agent.title)}</button>`;
  const failures = input.runs
    .map((r, i) => {
      if (r.failures === 0) return '';
      const codes = Object.entries(input.failureCodes[i] ?? {}).sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ×${n}`).join(', ');
      return `<li>${t(s.failureLine, r.model, r.failures, r.cases, codes || '-')}</li>`;
    })
    .filter(Boolean);
  const spent = formatDollars(input.runs.reduce((sum, r) => sum + r.costUsd, 0));
  const { cspSource, nonce, scriptUri, styleUris, lang } = input;
  return renderWebviewHtml({ cspSource, nonce, scriptUri, styleUris, lang, title: formatString(s.pageTitle, []), body: `<main id="compare">
<h1>${t(s.heading, input.agent.title)}</h1>
<p class="meta">${t(s.meta, input.corpus.label, input.corpus.cases, input.corpus.clean, spent)}</p>
${input.stopped ? `<p class="notice" role="status">${t(s.statusCancelled, input.stopped.measured, input.stopped.total)}</p>` : ''}
${figuresTableHtml(input.runs, { headers, extra: { header: s.use, cell: useCell } })}
${outcomesHtml(input, t)}
${failures.length > 0 ? `<h2>${t(s.failuresHeading)}</h2>\n<ul class="failures">${failures.join('')}</ul>` : ''}
<h2>${t(s.chartHeading)}</h2>
${costF1Chart(input.runs, { title: s.chartTitle, xAxis: s.chartX, yAxis: s.chartY, noF1: s.chartNoF1 })}
<h2>${t(s.thresholdsHeading)}</h2>
${thresholdsTableHtml(input.runs, { agent: s.agent, model: s.model, t: s.thresholdColumn })}
<p class="meta">${t(s.definitions)}</p>
</main>` });
}
