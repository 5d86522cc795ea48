import type { QuorumSettings, VerifyMode } from '../settings/schema';
import { BUILTIN_AGENTS } from '../../shared/builtinAgents';
import { atLeast } from '../../shared/severity';
import type { AgentResult, Finding } from './types';
import type { Verdict } from '../../shared/reviewCodes';

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

/** The models whose agents raised `f`, as the review's results name them. */
function modelsThatRaised(f: Pick<Finding, 'agents'>, agents: readonly Pick<AgentResult, 'agent' | 'model'>[]): string[] {
  return [...new Set(f.agents.flatMap((id) => agents.filter((a) => a.agent === id).map((a) => a.model)))];
}

/**
 * The model that checks `f`. `same-model`: the configured verifier model, else the model of the first agent that
 * raised it. `cross-model`: the configured model unless it raised `f`; else the first model that raised none of
 * the review's `checked` findings (the reviewers' models, then the built-in defaults); else any model that did
 * not raise `f`. Undefined when every model known raised it (it is then not checked).
 */
export function verifierModelFor(f: Finding, checked: readonly Finding[], agents: readonly Pick<AgentResult, 'agent' | 'model'>[], mode: Exclude<VerifyMode, 'off'>, configured: string): string | undefined {
  const raised = modelsThatRaised(f, agents);
  if (mode === 'same-model') return configured || raised[0] || agents[0]?.model;
  const norm = (m: string) => m.toLowerCase();
  const raisedThis = new Set(raised.map(norm));
  if (configured && !raisedThis.has(norm(configured))) return configured;
  const raisedAny = new Set(checked.flatMap((c) => modelsThatRaised(c, agents)).map(norm));
  const candidates = [...new Set([...agents.map((a) => a.model), ...Object.values(BUILTIN_AGENTS).map((a) => a.defaultModel)])];
  return candidates.find((m) => !raisedAny.has(norm(m))) ?? candidates.find((m) => !raisedThis.has(norm(m)));
}

/** `f` after the verifier's verdict, by `model`; without a verdict, marked unverified. */
export function applyVerdict(f: Finding, verdict: { verdict: Verdict; reason: string } | undefined, model: string): Finding {
  const { unverified: _u, ...rest } = f;
  void _u;
  if (!verdict) return { ...rest, unverified: true };
  const confidence = verdict.verdict === 'confirmed' ? Math.round((1 - (1 - f.confidence) * (1 - CONFIRMATION_WEIGHT)) * 1000) / 1000 : f.confidence;
  return { ...rest, confidence, verification: { verdict: verdict.verdict, by: model, reason: verdict.reason } };
}
