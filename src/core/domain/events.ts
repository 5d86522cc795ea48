import type { AgentOutputKind, GatewayErrorCode, RetryKind } from '../../shared/reviewCodes';
import type { Finding } from './finding';
import type { AgentResult, NoiseSplit, ReviewSummary } from './result';

/** What a running review tells whoever listens: each agent queued, started, streaming, retrying, each finding, each end, and the review's end. */
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
  /** The review's end, after every step that follows the run: its summary, and what the noise controls hid of it (none: nothing ran them). */
  | { type: 'review-done'; reviewId: string; summary: ReviewSummary; noise?: NoiseSplit };
