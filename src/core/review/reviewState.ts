import { mergeFindings } from './merge';
import { totalsOf } from './totals';
import type { AgentResult, AgentStatus, Finding, ReviewEvent, ReviewSummary, ReviewTotals } from './types';

/** One agent as a UI sees it while a review runs. */
export interface AgentState {
  agent: string;
  title: string;
  model: string;
  status: AgentStatus;
  /** The streamed text so far (the whole answer once done). */
  text: string;
  findings: Finding[];
  /** Set once the agent has finished, in whatever state. */
  result?: AgentResult;
}

/** A review as a UI sees it: what the panel and the CLI's progress both render. */
export interface ReviewState {
  reviewId: string | undefined;
  /** Agent ids in the order they were queued. */
  order: string[];
  agents: Record<string, AgentState>;
  /** Merged across the agents that have finished, most severe first. */
  findings: Finding[];
  totals: ReviewTotals;
  done: boolean;
  cancelled: boolean;
  summary?: ReviewSummary;
}

export function emptyReviewState(): ReviewState {
  return { reviewId: undefined, order: [], agents: {}, findings: [], totals: totalsOf([]), done: false, cancelled: false };
}

function agentOf(state: ReviewState, id: string): AgentState {
  let a = state.agents[id];
  if (!a) {
    a = { agent: id, title: id, model: '', status: 'queued', text: '', findings: [] };
    state.agents[id] = a;
    state.order.push(id);
  }
  return a;
}

function refresh(state: ReviewState): void {
  const agents = state.order.map((id) => state.agents[id] as AgentState);
  state.findings = mergeFindings(agents.flatMap((a) => a.findings));
  state.totals = totalsOf(agents.flatMap((a) => (a.result ? [a.result] : [])));
}

/**
 * Applies one event to a state, in place, and returns it. Events of another review than the first one seen are
 * ignored; a `review-done` replaces everything with its summary.
 */
export function applyReviewEvent(state: ReviewState, e: ReviewEvent): ReviewState {
  if (state.reviewId === undefined) state.reviewId = e.reviewId;
  else if (state.reviewId !== e.reviewId) return state;
  switch (e.type) {
    case 'queued': {
      const a = agentOf(state, e.agent);
      a.title = e.title;
      a.model = e.model;
      a.status = 'queued';
      break;
    }
    case 'started': {
      const a = agentOf(state, e.agent);
      a.model = e.model;
      a.status = 'running';
      a.text = '';
      a.findings = [];
      break;
    }
    case 'delta':
      agentOf(state, e.agent).text += e.text;
      break;
    case 'finding': {
      const a = agentOf(state, e.agent);
      // Listed with the agent at once; merged across agents when the agent finishes (merging is quadratic,
      // and an agent's findings arrive in one burst just before its `done`).
      if (!a.findings.some((f) => f.id === e.finding.id)) a.findings.push(e.finding);
      break;
    }
    case 'done':
    case 'failed':
    case 'cancelled': {
      const a = agentOf(state, e.agent);
      a.result = e.result;
      a.status = e.result.status;
      a.model = e.result.model;
      a.text = e.result.text;
      a.findings = [...e.result.findings];
      if (e.type === 'cancelled') state.cancelled = true;
      refresh(state);
      break;
    }
    case 'review-done': {
      state.summary = e.summary;
      state.done = true;
      state.cancelled = e.summary.cancelled;
      for (const r of e.summary.agents) {
        const a = agentOf(state, r.agent);
        a.result = r;
        a.status = r.status;
        a.model = r.model;
        a.title = r.title;
        a.text = r.text;
        a.findings = [...r.findings];
      }
      state.findings = e.summary.findings;
      state.totals = e.summary.totals;
      break;
    }
  }
  return state;
}

/** The state after a list of events (for snapshots: a panel that opens late replays them). */
export function reduceReviewEvents(events: Iterable<ReviewEvent>): ReviewState {
  const state = emptyReviewState();
  for (const e of events) applyReviewEvent(state, e);
  return state;
}
