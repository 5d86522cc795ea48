import type { CostTotals } from '../cost/totals';
import type { GatewayErrorData, Usage } from '../gateway/types';
import type { AgentErrorCode, AgentOutputKind, CostSource, GatewayErrorCode, RetryKind, SkipReason, TargetKind, VerifierNoticeCode } from '../../shared/reviewCodes';
import type { ContextInfo, ContextSnippet, CutContext } from '../context/types';
import type { PromptShape } from '../prompt/shape';
import type { Finding } from './finding';
import type { ToolResult } from '../toolResults/types';

/** A range of lines, 1-based and inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/** Lines of the OLD file that a change removed, shown to the agents (marked as removed) after NEW line `after`. */
export interface RemovedLines {
  /** The NEW file's line they were removed after; `startLine - 1` when they went before the region's first line. */
  after: number;
  lines: string[];
}

/** One reviewed stretch of one file. Lines are 1-based and inclusive, in the (new) FILE's numbering. */
export interface Region {
  /** A path or URI string, shown to users and used in prompts (repository-relative, forward slashes, for changes). */
  file: string;
  /** A VS Code language id or a file extension's language (e.g. `typescript`, `python`). */
  language: string;
  /** The text of lines startLine..endLine. */
  text: string;
  startLine: number;
  endLine: number;
  /** For changes: the lines added or modified (the rest of the region is context). Absent: every line counts. */
  changedLines?: LineRange[];
  /** For changes: what went away, for the agents to see. */
  removed?: RemovedLines[];
}

export interface SkippedFile {
  file: string;
  reason: SkipReason;
}

/** What is reviewed: a set of regions across files. A selection (or a whole file) is a set of one. */
export interface ReviewTarget {
  kind: TargetKind;
  /** Says what was reviewed, for headers and logs (e.g. `src/a.ts:10-40`, `Uncommitted changes`). */
  label: string;
  regions: Region[];
  /** Files of the changes that are not reviewed, and why. */
  skipped?: SkippedFile[];
  /** Code around the regions, sent read-only beside them (never reviewed): definitions, callers, enclosing signatures. */
  context?: ContextSnippet[];
  /** Context chosen but left out for the token budget (`quorum.context.maxTokens`). */
  contextCut?: CutContext[];
  /** What the project's tools already report on the regions, sent read-only (core/toolResults): files named as the regions name theirs. */
  toolResults?: ToolResult[];
}

/** A region as results describe it: without its text; `reused` when a re-review carried its findings over instead of sending it. */
export type RegionInfo = Pick<Region, 'file' | 'language' | 'startLine' | 'endLine'> & { reused?: boolean };

/** A target as results describe it. */
export interface TargetInfo {
  kind: TargetKind;
  label: string;
  regions: RegionInfo[];
  skipped?: SkippedFile[];
  /** The context sent beside the regions, and its tokens. */
  context?: ContextInfo[];
  contextTokens?: number;
  /** The tool results sent with the review (redacted), for the reports. */
  toolResults?: ToolResult[];
}

/** A proposed replacement of lines startLine..endLine of a file (the coding agent's, per reviewed region). */
export interface CodeReplacement {
  file: string;
  startLine: number;
  endLine: number;
  code: string;
}

export type { Severity } from '../../shared/severity';

export type { Finding } from './finding';

/** A failed agent's error: the gateway's error data (fields a code does not need are absent), any code above. */
export interface AgentError extends Omit<GatewayErrorData, 'code'> {
  code: AgentErrorCode;
}

export type AgentStatus = 'queued' | 'running' | 'ok' | 'error' | 'cancelled';

export interface AgentResult {
  agent: string;
  title: string;
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

/** A review's spending, as the ledger counts it (`estimatedUsd`: the part of costUsd from tokens counted locally). */
export type ReviewTotals = Pick<CostTotals, 'costUsd' | 'estimatedUsd' | 'promptTokens' | 'completionTokens' | 'cachedTokens' | 'requests' | 'retries'>;

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

/**
 * A review's cost before it runs, two ways: `costUsd` is the ceiling (every agent writes `maxOutputTokens`;
 * budgets are checked against it, being safe), `likelyUsd` the likely figure (each agent writes a typical
 * answer, see `likelyOutput.ts`).
 */
export interface CostEstimate {
  perAgent: Record<string, { model: string; promptTokens: number; maxCompletionTokens: number; costUsd: number; likelyCompletionTokens: number; likelyUsd: number }>;
  costUsd: number;
  likelyUsd: number;
}

export type ReviewEvent =
  | { type: 'queued'; reviewId: string; agent: string; title: string; model: string; output: AgentOutputKind }
  | { type: 'started'; reviewId: string; agent: string; model: string }
  | { type: 'delta'; reviewId: string; agent: string; text: string }
  /** The gateway client is trying the agent's request again (or its fallback model) after a failed attempt. */
  | { type: 'retrying'; reviewId: string; agent: string; attempt: number; model: string; code: GatewayErrorCode; reason: RetryKind; waitMs?: number }
  | { type: 'finding'; reviewId: string; agent: string; finding: Finding }
  | { type: 'done'; reviewId: string; agent: string; result: AgentResult }
  | { type: 'failed'; reviewId: string; agent: string; result: AgentResult }
  | { type: 'cancelled'; reviewId: string; agent: string; result: AgentResult }
  | { type: 'review-done'; reviewId: string; summary: ReviewSummary };

/** How one review is run. */
export interface ReviewOptions {
  /** Given by the caller to correlate events; a random id otherwise. */
  reviewId?: string;
  /** Run only these agents (dependencies on agents not listed are dropped). All enabled agents when absent. */
  agents?: string[];
  /** Bypass the cache (results are still stored for later reviews). */
  noCache?: boolean;
  /** Cancels every agent of the review. */
  signal?: AbortSignal;
  /** Resolved output language: `en`, `ko`, …. Callers resolve `auto` (VS Code's display language, or LANG). */
  language: string;
  /** agent id → model id, for this review only. */
  modelOverrides?: Record<string, string>;
  /** In a review of changes: keep findings that touch no changed line, marked `outsideChanges` (dropped otherwise). */
  keepOutsideChanges?: boolean;
  /**
   * The repository's rules and agents and whether secrets were redacted, from `shapeReview` (core/prompt).
   * Without it, `run` redacts the target's secrets itself (when the setting is on) and uses no rules.
   */
  prompt?: PromptShape;
}

/** One agent's share of an estimate, with the prompt-size check against the model's context window. */
export interface AgentEstimate {
  model: string;
  promptTokens: number;
  maxCompletionTokens: number;
  /** The ceiling: the prompt plus `maxCompletionTokens`. */
  costUsd: number;
  /** A typical answer's length for this agent's kind of output, capped by `maxCompletionTokens`. */
  likelyCompletionTokens: number;
  /** The likely cost: the prompt plus `likelyCompletionTokens`. */
  likelyUsd: number;
  contextWindow: number;
  /** Set when the prompt and the answer's reserve do not fit the model's context window. */
  tooLarge?: { limit: number; size: number };
}

export interface ReviewEstimate extends CostEstimate {
  perAgent: Record<string, AgentEstimate>;
  /** Agent ids, in run order. */
  order: string[];
}
