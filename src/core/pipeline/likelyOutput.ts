import type { AgentOutputKind } from '../../shared/reviewCodes';

/**
 * How long an agent's answer usually is, for the "likely" half of an estimate (the other half, the ceiling,
 * assumes every agent writes `maxOutputTokens`, which almost never happens: a review that cost $0.0075 had a
 * ceiling of $0.11).
 *
 * The heuristic, by the kind of answer:
 * - findings: a JSON list of a handful of findings, each about 80–120 tokens (severity, lines, title, a
 *   two- or three-sentence explanation, sometimes a suggestion), plus a closing sentence: 450 tokens.
 * - code: the improved version of the reviewed lines (about as long as they are, plus 10% for the changes)
 *   and a short rationale: 1.1 × the reviewed text's tokens + 200.
 * Either is capped by `maxOutputTokens` (an answer cannot be longer) and is at least 1.
 */
export const TYPICAL_FINDINGS_TOKENS = 450;
const CODE_RATIONALE_TOKENS = 200;
const CODE_GROWTH_PERCENT = 110;

export function likelyOutputTokens(output: AgentOutputKind, reviewedTokens: number, maxOutputTokens: number): number {
  const typical = output === 'code' ? Math.ceil((reviewedTokens * CODE_GROWTH_PERCENT) / 100) + CODE_RATIONALE_TOKENS : TYPICAL_FINDINGS_TOKENS;
  return Math.max(1, Math.min(maxOutputTokens, typical));
}
