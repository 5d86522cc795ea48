import type { QuorumSettings, VerifyMode } from '../settings/schema';
import { atLeast } from '../../shared/severity';
import type { AgentResult } from '../domain/result';
import type { Finding } from '../domain/finding';
import type { Verdict } from '../../shared/reviewCodes';
import { verifierChoice } from './verifierModel';

/**
 * The verdict rules of verification (quorum.review.verify): which findings are checked, on which model, and what
 * a verdict does to a finding. `confirmed` raises its confidence as a second opinion does (1 - (1 - c)(1 - w));
 * `uncertain` keeps it as it is, marked; `refuted` keeps it too, and the noise filter hides it with the reason
 * `refuted`. A finding the verifier was asked about and gave no verdict for is marked `unverified`.
 */

/** How much a confirmation counts as a second opinion, in the agreement formula of the merge. */
const CONFIRMATION_WEIGHT = 0.5;

/** Whether `f` is sent to the verifier: at or above quorum.review.verifyMinSeverity, and not verified before (a carried finding keeps its verdict). */
export function needsVerification(f: Finding, settings: QuorumSettings): boolean {
  return f.verification === undefined && atLeast(f.severity, settings.review.verifyMinSeverity);
}

/**
 * The model that checks `f` (core/verification/verifierModel.ts: verifierChoice). `same-model`: the configured verifier
 * model, else the model of the first agent that raised it. `cross-model`: the configured model unless it raised
 * `f`; else, among the gateway's `listed` models when known (the reviewers' models and the built-in defaults when
 * not), one that reviewed nothing, then one that raised none of the review's `checked` findings, then one that did
 * not raise `f`; never a model on which an agent failed. Undefined when there is none (it is then not checked).
 */
export function verifierModelFor(f: Finding, checked: readonly Finding[], agents: readonly Pick<AgentResult, 'agent' | 'model'>[], mode: Exclude<VerifyMode, 'off'>, configured: string, listed?: readonly string[]): string | undefined {
  const choice = verifierChoice(f, checked, agents, mode, configured, listed);
  return 'model' in choice ? choice.model : undefined;
}

/** `f` after the verifier's verdict, by `model`; without a verdict, marked unverified. */
export function applyVerdict(f: Finding, verdict: { verdict: Verdict; reason: string } | undefined, model: string): Finding {
  const { unverified: _u, ...rest } = f;
  if (!verdict) return { ...rest, unverified: true };
  const confidence = verdict.verdict === 'confirmed' ? Math.round((1 - (1 - f.confidence) * (1 - CONFIRMATION_WEIGHT)) * 1000) / 1000 : f.confidence;
  return { ...rest, confidence, verification: { verdict: verdict.verdict, by: model, reason: verdict.reason } };
}
