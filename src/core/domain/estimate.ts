/** A review's cost before it runs: per agent and in all, the likely figure and the ceiling. */

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
