import { SEVERITIES } from '../../shared/severity';
import type { OutcomeRecord, OutcomeStatus } from './record';

/**
 * What became of the findings, counted per agent, per model and per severity: `quorum stats`, the editor's Show
 * Review Outcomes and Compare Models read these figures. A finding told by two agents counts once under each
 * agent (and each of their models); its cost is split the way it was spent (each agent's share).
 */

export interface OutcomeCounts {
  raised: number;
  addressed: number;
  dismissed: number;
  open: number;
  gone: number;
  refuted: number;
  costUsd: number;
}

export interface OutcomeStats {
  findings: number;
  byAgent: Record<string, OutcomeCounts>;
  byModel: Record<string, OutcomeCounts>;
  bySeverity: Record<string, OutcomeCounts>;
}

const zero = (): OutcomeCounts => ({ raised: 0, addressed: 0, dismissed: 0, open: 0, gone: 0, refuted: 0, costUsd: 0 });
const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

function count(into: Record<string, OutcomeCounts>, key: string, r: OutcomeRecord, costUsd: number): void {
  const c = (into[key] ??= zero());
  c.raised++;
  c[r.status satisfies OutcomeStatus]++;
  if (r.verdict === 'refuted') c.refuted++;
  c.costUsd += costUsd;
}

/**
 * Findings with an outcome (addressed or dismissed) a model needs for this agent before Compare Models shows its
 * figures on the user's repository beside the corpus figures: fewer say more about chance than about the model.
 */
export const ENOUGH_OUTCOMES = 10;

/** The figures of the records raised at or after `since` (ms since the epoch); `agent`: only that agent's part of them. */
export function outcomeStats(records: readonly OutcomeRecord[], options: { since?: number; agent?: string } = {}): OutcomeStats {
  const kept = records
    .filter((r) => options.since === undefined || r.raisedAt >= options.since)
    .map((r) => (options.agent === undefined ? r : { ...r, agents: r.agents.filter((a) => a.agent === options.agent) }))
    .filter((r) => r.agents.length > 0);
  const stats: OutcomeStats = { findings: kept.length, byAgent: {}, byModel: {}, bySeverity: {} };
  for (const r of kept) {
    for (const a of r.agents) count(stats.byAgent, a.agent, r, a.costUsd);
    const models = new Map<string, number>();
    for (const a of r.agents) models.set(a.model, (models.get(a.model) ?? 0) + a.costUsd);
    for (const [model, usd] of models) count(stats.byModel, model, r, usd);
    count(stats.bySeverity, r.severity, r, r.agents.reduce((s, a) => s + a.costUsd, 0));
  }
  // Rounded once, at the end (rounding each share would drift: four findings of 2⁻⁶ would not sum to 2⁻⁶).
  for (const group of [stats.byAgent, stats.byModel, stats.bySeverity]) for (const c of Object.values(group)) c.costUsd = round(c.costUsd);
  const order = Object.fromEntries(SEVERITIES.filter((s) => stats.bySeverity[s]).map((s) => [s, stats.bySeverity[s] as OutcomeCounts]));
  return { ...stats, bySeverity: order };
}

/** Addressed of the findings raised; undefined: none raised. */
export function addressedRate(c: OutcomeCounts): number | undefined {
  return c.raised === 0 ? undefined : c.addressed / c.raised;
}

export function refutedRate(c: OutcomeCounts): number | undefined {
  return c.raised === 0 ? undefined : c.refuted / c.raised;
}

/** Dollars per addressed finding; undefined when none was addressed. */
export function usdPerAddressed(c: OutcomeCounts): number | undefined {
  return c.addressed === 0 ? undefined : c.costUsd / c.addressed;
}
