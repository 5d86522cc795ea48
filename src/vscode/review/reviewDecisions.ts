import { reviewLines, type EditorLines } from '../../core/domain/lineTracking';
import { type ReviewTarget, soleRegion } from '../../core/domain/target';
import type { AgentResult, ReviewSummary } from '../../core/domain/result';
import type { AgentErrorCode } from '../../shared/reviewCodes';

/**
 * What the review controller decides, apart from how it asks and says it: when a whole file is confirmed first,
 * which budgets a review would pass, which reviews a closed panel cancels, how a Re-run finds its target again,
 * and which failure of a finished review is told. Plain TypeScript (no `vscode` at run time), unit-tested without
 * VS Code; the controller, the budget guard and the notices turn each answer into a question or a notification.
 */

/** Whether a review of a whole file of `lines` lines asks first (`quorum.review.confirmWholeFileOverLines`; 0: never). */
export function asksBeforeWholeFile(lines: number, limit: number): boolean {
  return limit > 0 && lines > limit;
}

/** A budget a review would take past its limit: the spend now, after the review (at its ceiling), and the limit. */
export interface BudgetPassed {
  budget: 'session' | 'monthly';
  spentUsd: number;
  afterUsd: number;
  limitUsd: number;
}

/**
 * The budgets (session first, then the month) that a review costing up to `estimateUsd` would take past their
 * limit; a limit of 0 is no budget. The ceiling is checked, not the likely cost: the safe figure.
 */
export function budgetsPassed(limits: { sessionUsd: number; monthlyUsd: number }, spent: { sessionUsd: number; monthlyUsd: number }, estimateUsd: number): BudgetPassed[] {
  const check = (budget: BudgetPassed['budget'], limitUsd: number, spentUsd: number): BudgetPassed[] =>
    limitUsd > 0 && spentUsd + estimateUsd > limitUsd ? [{ budget, spentUsd, afterUsd: spentUsd + estimateUsd, limitUsd }] : [];
  return [...check('session', limits.sessionUsd, spent.sessionUsd), ...check('monthly', limits.monthlyUsd, spent.monthlyUsd)];
}

/** The reviews a closed panel of `targetKey` cancels: the running ones of that target not cancelled already. */
export function cancelledByClose<S extends { readonly targetKey: string; readonly cancelled: boolean }>(running: readonly S[], targetKey: string): S[] {
  return running.filter((s) => s.targetKey === targetKey && !s.cancelled);
}

/**
 * How a Re-run finds its target again: changes are read again as they are now (a session of changes, or a key
 * that names changes); lines are those of the last session of the key (a selection, a whole file), or, for a
 * restored panel with no session, the lines its key names.
 */
type RerunRoute<U> = { kind: 'changes' } | { kind: 'lines'; uri: U; startLine: number; endLine: number } | { kind: 'key' };

export function rerunRoute<U>(last: { readonly uri: U; readonly fullTarget: ReviewTarget } | undefined, targetKey: string, isChangesKey: (key: string) => boolean): RerunRoute<U> {
  if (last?.fullTarget.kind === 'changes' || isChangesKey(targetKey)) return { kind: 'changes' };
  const region = last ? soleRegion(last.fullTarget) : undefined;
  return last && region ? { kind: 'lines', uri: last.uri, startLine: region.startLine, endLine: region.endLine } : { kind: 'key' };
}

/**
 * The lines "Review Again" reviews: where the coding agent's proposal is anchored now (edits move it; the
 * anchor's range is 0-based), or undefined to review the session's own target again.
 */
export function linesNow(anchor: { range: EditorLines } | undefined): { startLine: number; endLine: number } | undefined {
  const lines = anchor && reviewLines(anchor.range);
  return lines ? { startLine: lines.start, endLine: lines.end } : undefined;
}

/** Whether a finished review tells its failures: not when cancelled, nor when a newer review of its target replaced it. */
export function tellsFailures(summary: Pick<ReviewSummary, 'cancelled'>, isLatest: boolean): boolean {
  return !summary.cancelled && isLatest;
}

/** Failures worth telling about, most actionable first (the pipeline's own codes come last). */
const ERROR_PRIORITY: readonly AgentErrorCode[] = ['auth', 'quota', 'forbidden', 'model-not-found', 'too-large', 'rate-limited', 'timeout', 'network', 'server', 'bad-response'];

/**
 * The failure a finished review tells (one notification): the most actionable agent failure, and how many agents
 * failed. An agent skipped because everything it builds on failed did not fail on its own: not counted.
 */
export function worstFailure(summary: Pick<ReviewSummary, 'agents'>): { agent: AgentResult; error: NonNullable<AgentResult['error']>; failed: number } | undefined {
  const failed = summary.agents.flatMap((a) => (a.status === 'error' && a.error && a.error.code !== 'inputs-failed' ? [{ agent: a, error: a.error }] : []));
  const rank = (code: AgentErrorCode) => {
    const i = ERROR_PRIORITY.indexOf(code);
    return i < 0 ? ERROR_PRIORITY.length : i;
  };
  const worst = [...failed].sort((a, b) => rank(a.error.code) - rank(b.error.code))[0];
  return worst ? { ...worst, failed: failed.length } : undefined;
}
