/**
 * The closed sets of codes that core reports and every face shows: one list each. Core types its errors and
 * events with them, the protocol and the CLI's schemas build their enums from them, and the page switches over
 * them without a `default:` (the compiler checks that every code is handled). Here, not in core, because the
 * page may import only `src/shared`.
 */

/** Why a gateway request failed, as the gateway client classifies it. */
export const GATEWAY_ERROR_CODES = [
  'auth',
  'forbidden',
  'model-not-found',
  'rate-limited',
  'quota',
  'too-large',
  'timeout',
  'network',
  'server',
  'bad-response',
  'cancelled',
] as const;
export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

/**
 * Every code an agent's error can carry: the gateway's, and the pipeline's own when the gateway did not say —
 * every agent it depends on failed (`inputs-failed`), the model answered nothing (`empty-answer`), or Quorum
 * itself failed (`internal`).
 */
export const AGENT_ERROR_CODES = [...GATEWAY_ERROR_CODES, 'inputs-failed', 'empty-answer', 'internal'] as const;
export type AgentErrorCode = (typeof AGENT_ERROR_CODES)[number];

/**
 * What the verifier says of its own run (issue 30): `same-model` — the findings were checked on the model that
 * raised them (quorum.review.verify is same-model, or the gateway answered with that model); `no-other-model` —
 * cross-model found no model on the gateway besides the ones that raised them, so those were not checked.
 */
export const VERIFIER_NOTICES = ['same-model', 'no-other-model'] as const;
export type VerifierNoticeCode = (typeof VERIFIER_NOTICES)[number];

/** How the gateway client tries again after a failed attempt: the same model (`retry`) or the fallback model. */
export const RETRY_KINDS = ['retry', 'fallback'] as const;
export type RetryKind = (typeof RETRY_KINDS)[number];

/** Why a changed file is not reviewed. */
export const SKIP_REASONS = ['deleted', 'binary', 'lockfile', 'minified', 'generated', 'too-large', 'excluded', 'symlink', 'unreadable'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Why the noise controls hide a finding: below quorum.review.minConfidence / minSeverity, dismissed in the
 * project, `refuted` by the verifier (its reason is the finding's `verification`), or `reported-by-tool`: the
 * project's compiler, linter or scanner already reports it (the finding's `reportedBy` names the tool and rule).
 */
export const HIDDEN_REASONS = ['confidence', 'severity', 'dismissed', 'refuted', 'reported-by-tool'] as const;
export type HiddenReason = (typeof HIDDEN_REASONS)[number];

/**
 * Where a cost figure comes from: `reported` — the gateway's own `usage.cost`; `usage` — Quorum's price table
 * applied to the token counts the gateway reported; `estimated` — the table applied to locally counted tokens;
 * `cached` — a result-cache hit that cost nothing; `none` — nothing was used or billed (a failed attempt
 * without usage).
 */
export const COST_SOURCES = ['reported', 'usage', 'estimated', 'cached', 'none'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

/** What the verifier says of a finding. */
export const VERDICTS = ['confirmed', 'refuted', 'uncertain'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What an agent answers with: findings (a reviewer) or improved code (the agent that writes code after the reviewers). */
export const AGENT_OUTPUTS = ['findings', 'code'] as const;
export type AgentOutputKind = (typeof AGENT_OUTPUTS)[number];

/** What a review covers: a selection, a whole file, or changes (regions across files). */
export const TARGET_KINDS = ['selection', 'file', 'changes'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
