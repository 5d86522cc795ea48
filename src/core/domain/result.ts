import type { Usage } from './usage';
import type { AgentRole } from '../../shared/builtinAgents';
import type { AgentErrorCode, CostSource, HiddenReason, VerifierNoticeCode } from '../../shared/reviewCodes';
import type { TargetInfo } from './target';
import type { Finding } from './finding';

/**
 * What a review found and spent: each agent's result, the review's summary, its totals, and the split the noise
 * controls make of its findings.
 */

/** A proposed replacement of lines startLine..endLine of a file (the coding agent's, per reviewed region). */
export interface CodeReplacement {
  file: string;
  startLine: number;
  endLine: number;
  code: string;
}

/** What a failed request or agent says of its failure besides its code: words for logs, and the facts a face needs. */
export interface ErrorFacts {
  /** An English, key-free description for logs and the CLI; UIs localise from the code and the data. */
  message: string;
  status?: number;
  model?: string;
  /** For `rate-limited`: how long the gateway asked to wait. */
  retryAfterMs?: number;
  /** For `rate-limited`: how long the request kept waiting on 429s before it gave up. */
  waitedMs?: number;
  /** For `model-not-found`: the closest ids from `/models`, best first. */
  suggestions?: string[];
  /** Text that arrived before a stream broke. */
  partialText?: string;
  requestId?: string;
  attempts?: number;
  /** The gateway's own words (untrusted: escape wherever shown). */
  detail?: string;
}

/** A failed agent's error: the gateway's facts (fields a code does not need are absent), any agent error code. */
export interface AgentError extends ErrorFacts {
  code: AgentErrorCode;
}

export type AgentStatus = 'queued' | 'running' | 'ok' | 'error' | 'cancelled';

export interface AgentResult {
  agent: string;
  title: string;
  /** What the agent did: reviewed, wrote code, or verified the others' findings (core/agents' table of roles). */
  role: AgentRole;
  model: string;
  status: AgentStatus;
  text: string;
  findings: Finding[];
  /** True when the answer could not be parsed into findings and is kept as text. */
  unparsed?: boolean;
  /** For `code` agents on a single region: the improved version of the reviewed range. */
  improvedCode?: string;
  /** For `code` agents: the improved version of each reviewed region it changed (one for a single region). */
  replacements?: CodeReplacement[];
  rationale?: string;
  usage: Usage;
  costUsd: number;
  costSource: CostSource;
  /**
   * The part of costUsd priced from locally counted tokens (the gateway reported no usage: a cancelled or broken
   * stream). Absent: all of it when costSource is `estimated`, else none.
   */
  estimatedUsd?: number;
  latencyMs: number;
  attempts: number;
  /** A review of changes: the requests the agent was sent, one per batch (absent: one). */
  requests?: number;
  cached: boolean;
  error?: AgentError;
  /** The verifier's note on its run: checked on the model that raised the findings, or not checked for want of another model. */
  notice?: VerifierNotice;
}

export interface VerifierNotice {
  code: VerifierNoticeCode;
  /** The model it concerns: the one that verified, or the gateway's only model. */
  model?: string;
}

/** A review's spending, as the ledger counts it. */
export interface ReviewTotals {
  costUsd: number;
  /** The part of costUsd computed from locally estimated usage. */
  estimatedUsd: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Requests (first attempts), not counting result-cache hits. */
  requests: number;
  /** Attempts after the first: retries and fallbacks. */
  retries: number;
}

export interface ReviewSummary {
  reviewId: string;
  target: TargetInfo;
  agents: AgentResult[];
  /** Merged across agents, most severe first. */
  findings: Finding[];
  totals: ReviewTotals;
  cancelled: boolean;
  elapsedMs: number;
  /** A re-review of changes: the last review's findings in files reviewed afresh that were not raised again. */
  resolved?: Finding[];
}

/** The results of the review's graph (reviewers and coder): the verifier's are apart. */
export const graphResults = <T extends Pick<AgentResult, 'role'>>(agents: readonly T[]): T[] => agents.filter((a) => a.role !== 'verifier');

/** Whether the review ran whole: not cancelled, every agent of its graph answered (what it found is all it would find). */
export const reviewComplete = (summary: Pick<ReviewSummary, 'cancelled' | 'agents'>): boolean => !summary.cancelled && graphResults(summary.agents).every((a) => a.status === 'ok');


/** The merged findings after the noise controls: those shown, and those hidden with the reason. */
export interface NoiseSplit {
  shown: Finding[];
  hidden: { finding: Finding; reason: HiddenReason }[];
}
