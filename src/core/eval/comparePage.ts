import { formatString } from '../../shared/panelStrings';
import type { CompareStrings } from '../../shared/compareProtocol';
import { escapeHtml, renderWebviewHtml } from '../../shared/webviewHtml';
import { costF1Chart } from './chart';
import { figuresTableHtml, thresholdsTableHtml } from './html';
import type { RunFigures } from './score';
import { formatDollars } from './table';

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
${failures.length > 0 ? `<h2>${t(s.failuresHeading)}</h2>\n<ul class="failures">${failures.join('')}</ul>` : ''}
<h2>${t(s.chartHeading)}</h2>
${costF1Chart(input.runs, { title: s.chartTitle, xAxis: s.chartX, yAxis: s.chartY, noF1: s.chartNoF1 })}
<h2>${t(s.thresholdsHeading)}</h2>
${thresholdsTableHtml(input.runs, { agent: s.agent, model: s.model, t: s.thresholdColumn })}
<p class="meta">${t(s.definitions)}</p>
</main>` });
}
