import { formatCount, formatMs, formatUsd } from './format';
import { AGENT_STATE_LABEL, REVIEW_STATE_LABEL, SEVERITY_LABEL, findingMarks, hiddenWhy, lineWords } from './labels';
import { lineLabel } from './lineLabel';
import { actualCostLabel, contextLabel, estimateLabel, formatString, translator, type PanelStringKey, type PanelStrings, type Translate } from './panelStrings';
import type { AgentView, FindingView, ReviewView } from './protocol';
import { HIDDEN_REASONS, type HiddenReason } from './reviewCodes';
import { costSourceKey, filterFindings, hiddenFindings, sortFindings } from './reviewReducer';
import { escapeInline, fence } from './untrustedText';

/**
 * The one Markdown renderer of a review, for the panel's Export and the CLI's `--format markdown`: target,
 * status and cost, the agents, findings most severe first (with advice and suggested code) — the findings the
 * noise controls hide left out or listed apart, and counted either way — the improved code per region and answers
 * kept as text. Model text is untrusted: inline text is escaped so it cannot become HTML
 * or links, and code goes into fences longer than any backtick run inside it (`untrustedText.ts`).
 */

interface ReviewMarkdownOptions {
  /** The title line, as Markdown (built with `escapeInline`/`codeSpan`); the export's own heading when absent. */
  title?: string;
  /** When the document was made, said under the title. */
  exportedAt?: Date;
  /** The fences' language for a file's code; when absent, the target's language for its file and none for others. */
  languageOf?: (file: string | undefined) => string;
  /**
   * List the findings the noise controls hide (`view.hidden`) in their own section, each with why; otherwise
   * they are left out. Either way the document says how many were hidden and why, and how many were dismissed.
   */
  showHidden?: boolean;
}

interface Context {
  view: ReviewView;
  t: Translate;
  strings: PanelStrings;
  languageOf: (file: string | undefined) => string;
  /** Several files: findings and code name their file. */
  multiFile: boolean;
  showHidden: boolean;
}

/** The panel's Export: the review as a standalone document, dated; hidden findings listed apart when the panel shows them. */
export function reviewToMarkdown(view: ReviewView, strings: PanelStrings, exportedAt: Date, showHidden = false): string {
  return reviewMarkdown(view, strings, { exportedAt, showHidden });
}

export function reviewMarkdown(view: ReviewView, strings: PanelStrings, options: ReviewMarkdownOptions = {}): string {
  const t = translator(strings);
  const ctx: Context = { view, t, strings, languageOf: options.languageOf ?? ((file) => (file === undefined || file === view.target.file ? view.target.language : '')), multiFile: view.changes !== undefined, showHidden: options.showHidden === true };
  const target = `${view.target.file} (${lineLabel(view.target.startLine, view.target.endLine, lineWords(t, true))})`;
  const out: string[] = [options.title ?? `# ${escapeInline(t('exportHeading', target))}`, ''];
  out.push(statusLine(ctx), '');
  if (options.exportedAt) out.push(`_${escapeInline(t('exportGenerated', options.exportedAt.toISOString()))}_`, '');
  for (const k of view.changes?.skipped ?? []) out.push(`- ${escapeInline(t('exportSkipped', k.file, k.reason))}`);
  if ((view.changes?.skipped.length ?? 0) > 0) out.push('');
  // The context sent with the review, as the panel's header says it (the CLI names its own in one line).
  const context = view.context ? contextLabel(t, view.context) : '';
  if (context) out.push(escapeInline(context), '');
  out.push(...agentsSection(ctx), ...findingsSection(ctx), ...codeSection(ctx));
  return out.join('\n');
}

function statusLine({ view, t }: Context): string {
  const cost = view.totals ? actualCostLabel(t, formatUsd, view.totals.costUsd, view.totals.estimatedUsd ?? 0)
    : view.estimateUsd !== undefined ? estimateLabel(t, formatUsd, view.estimateUsd, view.likelyUsd) : '';
  return [
    `**${escapeInline(t('exportStatus'))}:** ${escapeInline(t(REVIEW_STATE_LABEL[view.status]))}`,
    view.elapsedMs !== undefined ? escapeInline(t('elapsed', formatMs(view.elapsedMs))) : '',
    escapeInline(cost),
    escapeInline(view.changes ? view.changes.label : view.target.language),
  ].filter(Boolean).join(' · ');
}

/** The agents' table, the total, and each failure's code and message. */
function agentsSection({ view, t }: Context): string[] {
  const out = [`## ${escapeInline(t('agents'))}`, ''];
  out.push(`| ${[t('exportAgent'), t('exportModel'), t('exportStatus'), t('latency'), t('tokens'), t('cost')].map(escapeInline).join(' | ')} |`);
  out.push('| --- | --- | --- | ---: | ---: | ---: |');
  for (const a of view.agents) {
    const o = a.outcome;
    const state = o?.cached ? `${t(AGENT_STATE_LABEL[a.state])} (${t('stateCached')})` : t(AGENT_STATE_LABEL[a.state]);
    const tokens = o ? t('tokensValue', formatCount(o.usage.promptTokens), formatCount(o.usage.completionTokens)) : '';
    const costCell = o ? `${formatUsd(o.costUsd)} (${t(costSourceKey(o))})` : '';
    out.push(`| ${[a.title, o?.model ?? a.model, state, o ? formatMs(o.latencyMs) : '', tokens, costCell].map(escapeInline).join(' | ')} |`);
  }
  if (view.totals) {
    const tt = view.totals;
    out.push(`| **${escapeInline(t('exportTotal'))}** |  |  |  | ${escapeInline(t('tokensValue', formatCount(tt.promptTokens), formatCount(tt.completionTokens)))} | **${escapeInline(formatUsd(tt.costUsd))}** |`);
  }
  out.push('');
  const failures = view.agents.flatMap((a) => (a.outcome?.error ? [{ a, err: a.outcome.error }] : []));
  for (const { a, err } of failures) out.push(`- ${escapeInline(a.title)}: ${escapeInline(`${err.code}${err.message ? ` — ${err.message}` : ''}`)}`);
  if (failures.length > 0) out.push('');
  return out;
}

const HIDDEN_REASON_KEY: Record<HiddenReason, PanelStringKey> = { confidence: 'exportHiddenConfidence', severity: 'exportHiddenSeverity', dismissed: 'exportHiddenDismissed', refuted: 'exportHiddenRefuted', 'reported-by-tool': 'exportHiddenReportedByTool', learned: 'exportHiddenLearned' };

/**
 * The findings shown, most severe first: not dismissed in this review and not hidden by the noise controls.
 * Then a line that says how many were hidden (by reason) and dismissed, and, when asked, the hidden ones apart.
 */
function findingsSection(ctx: Context): string[] {
  const { view, t } = ctx;
  const hidden = hiddenFindings(view);
  const findings = filterFindings(view, { agent: '', severities: [] });
  const dismissed = view.findings.filter((f) => view.dismissed.includes(f.id)).length;
  const out = [`## ${escapeInline(t('findings'))} (${findings.length})`, ''];
  if (findings.length === 0) out.push(escapeInline(t('noFindings')), '');
  for (const f of findings) out.push(...findingBlock(ctx, f));
  const note = notShownNote(ctx, hidden, dismissed);
  if (note) out.push(`_${escapeInline(note)}_`, '');
  if (ctx.showHidden && hidden.size > 0) {
    out.push(`## ${escapeInline(t('exportHiddenHeading'))} (${hidden.size})`, '');
    for (const f of sortFindings(view.findings).filter((x) => hidden.has(x.id))) {
      const reason = hidden.get(f.id);
      out.push(...findingBlock(ctx, f, reason ? hiddenWhy(t, f, reason) : ''));
    }
  }
  return out;
}

/**
 * `1 below quorum.review.minConfidence, 2 dismissed in this project`: hidden findings counted by reason, in the
 * words of `strings` (the command line's name its flags).
 */
export function hiddenByReason(strings: PanelStrings, reasons: readonly HiddenReason[]): string {
  return HIDDEN_REASONS
    .map((r) => [r, reasons.filter((x) => x === r).length] as const)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => formatString(strings[HIDDEN_REASON_KEY[r]], [n]))
    .join(', ');
}

/** `2 hidden (1 below the minimum confidence, 1 dismissed in this project) — not listed · 1 dismissed`, or '' when nothing was left out. */
function notShownNote({ t, strings, showHidden }: Context, hidden: ReadonlyMap<string, HiddenReason>, dismissed: number): string {
  const parts: string[] = [];
  if (hidden.size > 0) parts.push(t(showHidden ? 'exportHiddenListed' : 'exportHiddenLeftOut', hidden.size, hiddenByReason(strings, [...hidden.values()])));
  if (dismissed > 0) parts.push(t('dismissedCount', dismissed));
  return parts.join(' · ');
}

function findingBlock({ t, languageOf, multiFile }: Context, f: FindingView, why = ''): string[] {
  const lines = lineLabel(f.startLine, f.endLine, lineWords(t));
  const where = multiFile && f.file ? `${f.file} · ${lines}` : lines;
  const out = [`### ${escapeInline(`${t(SEVERITY_LABEL[f.severity]).toLocaleUpperCase()}: ${f.title}`)}`, ''];
  const meta = [where, f.agents.join(', '), f.cwe ?? '', t('confidence', Math.round(f.confidence * 100)), ...findingMarks(t, f), why];
  out.push(`_${meta.filter(Boolean).map(escapeInline).join(' · ')}_`, '');
  if (f.explanation) out.push(escapeInline(f.explanation), '');
  if (f.advice) out.push(`**${escapeInline(t('exportAdvice'))}:** ${escapeInline(f.advice)}`, '');
  if (f.suggestion !== undefined) out.push(`${escapeInline(t('exportSuggestion'))}:`, '', fence(f.suggestion, languageOf(f.file)), '');
  return out;
}

/** The improved code: per region when the agent gave regions, else the whole; answers that were kept as text. */
function codeSection(ctx: Context): string[] {
  const out: string[] = [];
  for (const a of ctx.view.agents) out.push(...improvedCode(ctx, a), ...answerAsText(a, ctx.t));
  return out;
}

function improvedCode({ t, languageOf, multiFile, view }: Context, a: AgentView): string[] {
  const o = a.outcome;
  if (!o || (o.improvedCode === undefined && !o.replacements?.length)) return [];
  const out = [`## ${escapeInline(t('improvedCode'))} (${escapeInline(a.title)})`, ''];
  if (o.rationale) out.push(`**${escapeInline(t('exportRationale'))}:** ${escapeInline(o.rationale)}`, '');
  const regions = o.replacements?.length ? o.replacements : [{ file: view.target.file, startLine: view.target.startLine, endLine: view.target.endLine, code: o.improvedCode ?? '' }];
  for (const r of regions) {
    const lines = lineLabel(r.startLine, r.endLine, lineWords(t));
    out.push(`### ${escapeInline(multiFile ? `${r.file} · ${lines}` : lines)}`, '', fence(r.code, languageOf(r.file)), '');
  }
  return out;
}

function answerAsText(a: AgentView, t: Translate): string[] {
  const o = a.outcome;
  if (o?.state !== 'done' || !o.unparsed || !o.text.trim()) return [];
  return [`## ${escapeInline(t('exportAnswerAsText', a.title))}`, '', fence(o.text.trim()), ''];
}
