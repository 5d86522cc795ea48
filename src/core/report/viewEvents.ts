import { filesOf, type ReviewTarget, type TargetInfo } from '../domain/target';
import type { AgentResult, ReviewSummary } from '../domain/result';
import type { Finding } from '../domain/finding';
import type { ReviewEvent } from '../domain/events';
import { revealBidi } from '../../shared/bidi';
import { lineSpan } from '../../shared/lineLabel';
import type { AgentErrorView, AgentOutcome, ContextView, FindingView, ReviewView, ReviewViewEvent, ToolsView } from '../../shared/protocol';
import { toolsOf } from '../domain/toolResult';
import { contextInfo } from '../domain/context';

/**
 * Turns the pipeline's events into the panel's view events. Pure, so it is unit-tested in plain
 * Node. Only what the page needs crosses over: no prompts, no request ids, nothing key-like. Model
 * text crosses with its bidi control characters shown as visible `<U+202E>` tokens (Trojan Source).
 */

export function toFindingView(f: Finding): FindingView {
  const v: FindingView = {
    id: f.id,
    file: f.file,
    agents: f.agents.slice(),
    severity: f.severity,
    title: revealBidi(f.title),
    explanation: revealBidi(f.explanation),
    startLine: f.startLine,
    endLine: f.endLine,
    confidence: Number.isFinite(f.confidence) ? Math.min(1, Math.max(0, f.confidence)) : 0,
  };
  if (f.suggestion !== undefined) v.suggestion = revealBidi(f.suggestion);
  if (f.advice !== undefined) v.advice = revealBidi(f.advice);
  if (f.cwe !== undefined) v.cwe = f.cwe;
  if (f.clamped) v.clamped = true;
  if (f.outsideChanges) v.outsideChanges = true;
  if (f.verification) v.verification = { verdict: f.verification.verdict, by: f.verification.by, reason: revealBidi(f.verification.reason) };
  if (f.unverified) v.unverified = true;
  if (f.carried) v.carried = true;
  if (f.reportedBy) v.reportedBy = { tool: revealBidi(f.reportedBy.tool).slice(0, 200), rule: revealBidi(f.reportedBy.rule).slice(0, 200) };
  if (f.learning !== undefined) v.learning = revealBidi(f.learning).slice(0, 200);
  return v;
}

/** Lines added and removed, when the host counted them (a changes review). */
export interface ChangeCounts {
  added: number;
  removed: number;
}

/**
 * The panel's view of a target: its only region for a selection or a file; for several regions the first one,
 * plus what the header says of the whole (label, files, lines added and removed, skipped files).
 */
export function toTargetView(info: TargetInfo, counts?: ChangeCounts): Pick<ReviewView, 'target'> & Partial<Pick<ReviewView, 'changes'>> {
  const first = info.regions[0];
  const target = first
    ? { file: first.file, language: first.language, startLine: first.startLine, endLine: first.endLine }
    : { file: info.label, language: 'plaintext', startLine: 1, endLine: 1 };
  if (info.kind !== 'changes' && info.regions.length <= 1) return { target };
  return {
    target,
    changes: {
      kind: info.kind,
      label: info.label,
      files: filesOf(info),
      added: count(counts?.added ?? 0),
      removed: count(counts?.removed ?? 0),
      skipped: (info.skipped ?? []).map((k) => ({ file: k.file, reason: k.reason })),
    },
  };
}

/** The view's limits (protocol.ts): more snippets than a view lists are counted in the tokens, not listed. */
const MAX_CONTEXT_ITEMS = 5_000;
const shortSymbol = (symbol: string) => revealBidi(symbol).slice(0, 500);

/**
 * The panel's view of the context a shaped target carries: each snippet (file, lines, symbol, kind; not its text),
 * its tokens and what the budget cut. `root`: the URI the snippets' paths are relative to; `enabled: false` says
 * context was off.
 */
export function toContextView(target: Pick<ReviewTarget, 'context' | 'contextCut' | 'contextStatus'>, options: { enabled: boolean; root?: string }): ContextView {
  const status = target.contextStatus;
  const snippets = options.enabled ? (target.context ?? []) : [];
  return {
    enabled: options.enabled,
    ...(options.root !== undefined ? { root: options.root } : {}),
    // Symbols are the repository's text: their bidi controls are shown, as in model text.
    items: snippets.slice(0, MAX_CONTEXT_ITEMS).map((c) => ({ ...contextInfo(c), symbol: shortSymbol(c.symbol) })),
    tokens: count(snippets.reduce((n, s) => n + s.tokens, 0)),
    cut: options.enabled ? (target.contextCut ?? []).slice(0, MAX_CONTEXT_ITEMS).map(({ file, symbol, kind }) => ({ file, symbol: shortSymbol(symbol), kind })) : [],
    ...(options.enabled && status?.stopped ? { stopped: { chosen: count(status.chosen), regions: count(status.regions) } } : {}),
  };
}

function toErrorView(error: AgentResult['error']): AgentErrorView | undefined {
  if (!error) return undefined;
  const v: AgentErrorView = { code: error.code, message: revealBidi(error.message) };
  if (error.status !== undefined) v.status = error.status;
  if (error.model !== undefined) v.model = error.model;
  if (error.retryAfterMs !== undefined && error.retryAfterMs >= 0) v.retryAfterMs = error.retryAfterMs;
  if (error.suggestions !== undefined) v.suggestions = error.suggestions.slice(0, 20);
  return v;
}

const nonNegative = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
const count = (n: number) => Math.round(nonNegative(n));

export function toOutcome(result: AgentResult, state: AgentOutcome['state']): AgentOutcome {
  const o: AgentOutcome = {
    state,
    model: result.model,
    text: revealBidi(result.text),
    cached: result.cached,
    usage: {
      promptTokens: count(result.usage.promptTokens),
      completionTokens: count(result.usage.completionTokens),
      cachedTokens: count(result.usage.cachedTokens),
      reasoningTokens: count(result.usage.reasoningTokens),
    },
    costUsd: nonNegative(result.costUsd),
    costSource: result.costSource,
    latencyMs: nonNegative(result.latencyMs),
    attempts: count(result.attempts),
    findingCount: result.findings.length,
  };
  if (result.requests !== undefined && result.requests > 1) o.requests = count(result.requests);
  if (result.unparsed) o.unparsed = true;
  if (result.improvedCode !== undefined) o.improvedCode = revealBidi(result.improvedCode);
  // A review of changes: the proposal for each region, headed by its file and lines (previewed and applied across files).
  else if (result.replacements && result.replacements.length > 0) o.improvedCode = revealBidi(result.replacements.map((r) => `@@ ${r.file}:${lineSpan(r.startLine, r.endLine)} @@\n${r.code}`).join('\n\n'));
  if (result.replacements?.length) o.replacements = result.replacements.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine, code: revealBidi(r.code) }));
  if (result.rationale !== undefined) o.rationale = revealBidi(result.rationale);
  const error = toErrorView(result.error);
  if (error) o.error = error;
  if (result.notice) o.notice = { code: result.notice.code, ...(result.notice.model ? { model: result.notice.model.slice(0, 200) } : {}) };
  return o;
}

export function reviewStatus(summary: ReviewSummary): 'done' | 'failed' | 'cancelled' {
  if (summary.cancelled) return 'cancelled';
  if (summary.agents.length > 0 && summary.agents.every((a) => a.status === 'error')) return 'failed';
  return 'done';
}

function totalsView(summary: ReviewSummary): NonNullable<ReviewView['totals']> {
  const t = summary.totals;
  return {
    costUsd: nonNegative(t.costUsd),
    estimatedUsd: nonNegative(t.estimatedUsd),
    promptTokens: count(t.promptTokens),
    completionTokens: count(t.completionTokens),
    cachedTokens: count(t.cachedTokens),
    requests: count(t.requests),
    retries: count(t.retries),
  };
}

export function toViewEvent(event: ReviewEvent, estimates?: Record<string, { costUsd: number; likelyUsd: number }>): ReviewViewEvent {
  switch (event.type) {
    case 'queued': {
      const estimate = estimates?.[event.agent];
      return {
        kind: 'queued', agent: event.agent, title: event.title, model: event.model, output: event.output,
        ...(estimate !== undefined ? { estimateUsd: nonNegative(estimate.costUsd), likelyUsd: nonNegative(estimate.likelyUsd) } : {}),
      };
    }
    case 'started':
      return { kind: 'started', agent: event.agent, model: event.model };
    case 'delta':
      return { kind: 'delta', agent: event.agent, text: revealBidi(event.text) };
    case 'retrying':
      return { kind: 'retrying', agent: event.agent, attempt: count(event.attempt), model: event.model, code: event.code, reason: event.reason };
    case 'finding':
      return { kind: 'finding', agent: event.agent, finding: toFindingView(event.finding) };
    case 'done':
      return { kind: 'ended', agent: event.agent, title: event.result.title, outcome: toOutcome(event.result, 'done') };
    case 'failed':
      return { kind: 'ended', agent: event.agent, title: event.result.title, outcome: toOutcome(event.result, 'failed') };
    case 'cancelled':
      return { kind: 'ended', agent: event.agent, title: event.result.title, outcome: toOutcome(event.result, 'cancelled') };
    case 'review-done':
      return {
        kind: 'review-done',
        status: reviewStatus(event.summary),
        elapsedMs: nonNegative(event.summary.elapsedMs),
        totals: totalsView(event.summary),
        findings: event.summary.findings.map(toFindingView),
        ...(event.summary.resolved ? { resolved: event.summary.resolved.length } : {}),
      };
  }
}

const SETTLED_STATE: Record<AgentResult['status'], AgentOutcome['state']> = { ok: 'done', error: 'failed', cancelled: 'cancelled', queued: 'cancelled', running: 'cancelled' };

/** A finished review as the panel's view holds it, for renderers outside the panel (the CLI's Markdown). */
export function summaryView(summary: ReviewSummary): ReviewView {
  return {
    sessionId: summary.reviewId,
    targetKey: summary.reviewId,
    ...toTargetView(summary.target),
    status: reviewStatus(summary),
    startedAt: 0,
    elapsedMs: nonNegative(summary.elapsedMs),
    totals: totalsView(summary),
    agents: summary.agents.map((a) => {
      const state = SETTLED_STATE[a.status];
      return { agent: a.agent, title: a.title, model: a.model, state, text: '', chunks: 0, outcome: toOutcome(a, state) };
    }),
    findings: summary.findings.map(toFindingView),
    dismissed: [],
    live: false,
    ...(summary.resolved ? { resolved: summary.resolved.length } : {}),
  };
}

/** The panel's view of the tool results a target was sent with; undefined when none were. */
export function toToolsView(target: Pick<ReviewTarget, 'toolResults'>): ToolsView | undefined {
  const results = target.toolResults ?? [];
  return results.length > 0 ? { results: results.length, tools: toolsOf(results).map((t) => revealBidi(t).slice(0, 200)) } : undefined;
}
