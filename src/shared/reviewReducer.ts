import type { PanelStringKey } from './panelStrings';
import { compareFindings } from './severity';
import { type AgentOutcome, type AgentView, type FindingView, type ReviewView, type ReviewViewEvent } from './protocol';
import type { HiddenReason } from './reviewCodes';

/**
 * The one reducer over `ReviewView`, run by the host (to build snapshots) and by the page (to render).
 * It mutates the view in place — a streamed delta must cost O(delta), not O(answer) — and reports what it
 * touched so the page re-renders only that.
 */

export interface ViewChanges {
  header: boolean;
  findings: boolean;
  /** Agents whose card changed. */
  agents: Set<string>;
  /** Agents whose card must be created or reordered. */
  layout: boolean;
}

export function noChanges(): ViewChanges {
  return { header: false, findings: false, agents: new Set(), layout: false };
}

function ensureAgent(view: ReviewView, agent: string, changes: ViewChanges): AgentView {
  let a = view.agents.find((x) => x.agent === agent);
  if (!a) {
    a = { agent, title: agent, model: '', state: 'queued', text: '', chunks: 0 };
    view.agents.push(a);
    changes.layout = true;
  }
  return a;
}

type ViewEventOf<K extends ReviewViewEvent['kind']> = Extract<ReviewViewEvent, { kind: K }>;
type AgentEvent = ViewEventOf<'queued' | 'started' | 'delta' | 'retrying' | 'ended'>;
type ReviewLevelEvent = Exclude<ReviewViewEvent, AgentEvent>;

/** Applies one event; returns what it changed. Events for agents never queued create their card. */
export function applyViewEvent(view: ReviewView, event: ReviewViewEvent, changes: ViewChanges = noChanges()): ViewChanges {
  switch (event.kind) {
    case 'queued':
    case 'started':
    case 'delta':
    case 'retrying':
    case 'ended':
      applyAgentEvent(view, event, changes);
      break;
    default:
      applyReviewEvent(view, event, changes);
  }
  return changes;
}

/** An agent's card through its life: queued, started, streaming, retrying, ended. */
function applyAgentEvent(view: ReviewView, event: AgentEvent, changes: ViewChanges): void {
  const a = ensureAgent(view, event.agent, changes);
  changes.agents.add(a.agent);
  switch (event.kind) {
    case 'queued':
      a.title = event.title;
      a.model = event.model;
      a.state = 'queued';
      a.text = '';
      a.chunks = 0;
      delete a.outcome;
      if (event.estimateUsd !== undefined) a.estimateUsd = event.estimateUsd;
      if (event.likelyUsd !== undefined) a.likelyUsd = event.likelyUsd;
      if (event.output !== undefined) a.output = event.output;
      changes.header = true;
      break;
    case 'started':
      a.model = event.model;
      a.state = 'running';
      changes.header = true;
      break;
    case 'delta':
      startRunning(a, changes);
      a.text += event.text;
      a.chunks += 1;
      if (a.retry) a.retry = undefined;
      break;
    case 'retrying':
      startRunning(a, changes);
      a.retry = { attempt: event.attempt, model: event.model, code: event.code, reason: event.reason };
      break;
    case 'ended':
      a.title = event.title;
      a.model = event.outcome.model;
      a.state = event.outcome.state;
      // The final text is authoritative, but keep the streamed one when the end carries none (a failure
      // after partial output) so the user still sees what arrived.
      if (event.outcome.text.length > 0 || event.outcome.state === 'done') a.text = event.outcome.text;
      a.outcome = event.outcome;
      changes.header = true;
      break;
  }
}

/** Text or a retry from a queued agent: it is running (the header's count changes). */
function startRunning(a: AgentView, changes: ViewChanges): void {
  if (a.state !== 'queued') return;
  a.state = 'running';
  changes.header = true;
}

/** The review's own events: findings, the end of the review, what the user dismissed or applied, what is hidden. */
function applyReviewEvent(view: ReviewView, event: ReviewLevelEvent, changes: ViewChanges): void {
  switch (event.kind) {
    case 'finding': {
      if (!view.findings.some((f) => f.id === event.finding.id)) {
        view.findings.push(event.finding);
        changes.findings = true;
        changes.agents.add(event.agent);
      }
      break;
    }
    case 'review-done': {
      view.status = event.status;
      view.elapsedMs = event.elapsedMs;
      view.totals = event.totals;
      view.findings = event.findings.slice();
      if (event.resolved !== undefined) view.resolved = event.resolved;
      for (const a of view.agents) {
        if (a.state === 'queued' || a.state === 'running') {
          a.state = event.status === 'cancelled' ? 'cancelled' : 'failed';
          changes.agents.add(a.agent);
        }
      }
      changes.header = true;
      changes.findings = true;
      break;
    }
    case 'dismissed': {
      if (!view.dismissed.includes(event.findingId)) {
        view.dismissed.push(event.findingId);
        changes.findings = true;
      }
      break;
    }
    case 'applied': {
      const applied = (view.applied ??= []);
      if (!applied.includes(event.findingId)) {
        applied.push(event.findingId);
        changes.findings = true;
      }
      break;
    }
    case 'hidden': {
      view.hidden = event.findings.slice();
      changes.findings = true;
      // The header counts the findings the tool results made redundant.
      if (view.tools) changes.header = true;
      for (const a of view.agents) if (a.state === 'done') changes.agents.add(a.agent);
      break;
    }
  }
}

/** A review before its first event: the target, the estimate and what shaped the prompts (rules, redactions, the context sent). */
export function emptyReview(init: Pick<ReviewView, 'sessionId' | 'targetKey' | 'target' | 'startedAt'> & Partial<Pick<ReviewView, 'changes' | 'estimateUsd' | 'likelyUsd' | 'uri' | 'privacy' | 'context' | 'tools'>>): ReviewView {
  return {
    ...init,
    status: 'running',
    agents: [],
    findings: [],
    dismissed: [],
    applied: [],
    live: true,
  };
}

/** In the one order of findings (the merge's): most severe first, then more confident, then by file, line and title; the input is not modified. */
export function sortFindings(findings: readonly FindingView[]): FindingView[] {
  return findings.slice().sort(compareFindings);
}

export interface FindingFilter {
  /** Agent id, or '' for all. */
  agent: string;
  /** Severities shown; empty means all. */
  severities: readonly string[];
  /** List the findings the noise controls hide too. */
  showHidden?: boolean;
}

/** The ids of the findings the noise controls hide, with why (dismissed ones are gone, not hidden). */
export function hiddenFindings(view: ReviewView): Map<string, HiddenReason> {
  const dismissed = new Set(view.dismissed);
  const present = new Set(view.findings.map((f) => f.id));
  return new Map((view.hidden ?? []).filter((h) => present.has(h.id) && !dismissed.has(h.id)).map((h) => [h.id, h.reason]));
}

export function filterFindings(view: ReviewView, filter: FindingFilter): FindingView[] {
  const dismissed = new Set(view.dismissed);
  const hidden = filter.showHidden ? new Map() : hiddenFindings(view);
  return sortFindings(view.findings).filter((f) =>
    !dismissed.has(f.id)
    && !hidden.has(f.id)
    && (filter.agent === '' || f.agents.includes(filter.agent))
    && (filter.severities.length === 0 || filter.severities.includes(f.severity)));
}

/**
 * An agent whose answer is arriving: the text (and its token count) is then its own progress indicator, and
 * the panel stops its spinners, which would restyle and repaint the page on the main thread 20 times a
 * second, as often as the stream itself updates.
 */
export function streamsText(a: AgentView): boolean {
  return a.state === 'running' && a.text.length > 0;
}

/** Spent so far: the ended agents' costs, or the review's total once it is done. */
export function spentUsd(view: ReviewView): number {
  if (view.totals) return view.totals.costUsd;
  return view.agents.reduce((sum, a) => sum + (a.outcome?.costUsd ?? 0), 0);
}

/** The part of spentUsd priced from locally counted tokens (an estimate, not the gateway's figure). */
export function estimatedSpentUsd(view: ReviewView): number {
  if (view.totals) return view.totals.estimatedUsd ?? 0;
  return view.agents.reduce((sum, a) => sum + (a.outcome?.costSource === 'estimated' ? a.outcome.costUsd : 0), 0);
}

/** The agent whose output is improved code (the first with one), if any. */
export function improvedCodeAgent(view: ReviewView): AgentView | undefined {
  return view.agents.find((a) => a.outcome?.improvedCode !== undefined && a.outcome.improvedCode.length > 0);
}

/**
 * Where an agent's cost figure comes from, as a panel string. A request that never got an answer (refused
 * key, unreachable gateway, not run) was billed nothing: "reported by the gateway" or "estimated" would
 * claim a figure nobody gave.
 */
export function costSourceKey(o: AgentOutcome): PanelStringKey {
  if (o.costSource === 'cached') return 'costSourceCached';
  const billed = o.costUsd > 0 || o.usage.promptTokens > 0 || o.usage.completionTokens > 0;
  if (!billed || o.costSource === 'none') return 'costSourceNone';
  if (o.costSource === 'reported') return 'costSourceReported';
  return o.costSource === 'usage' ? 'costSourceUsage' : 'costSourceEstimated';
}
