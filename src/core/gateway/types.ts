/**
 * The contract of the one shared gateway client. Every agent of every review goes through a single
 * `Gateway` per extension host (and per CLI run).
 */

import type { ModelPrice } from '../cost/prices';
import type { ChatMessage, RequestTag } from '../domain/chat';
import type { Usage } from '../domain/usage';
import type { ErrorFacts } from '../domain/result';
import type { CostSource, GatewayErrorCode, RetryKind } from '../../shared/reviewCodes';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** The prompt tokens of `messages` when the caller has counted them already (the review's plan has); the
   *  client counts them otherwise. Reserved against the tokens-per-minute window, and the estimate billed when
   *  the gateway reports no usage. */
  promptTokens?: number;
  /** Upper bound on completion tokens; also reserved against the tokens-per-minute window. */
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object answer (`response_format`); dropped when the gateway rejects it. */
  responseFormat?: 'json_object';
  /** Tried once after the primary model's retries are spent (never for auth, quota or cancellation). */
  fallbackModel?: string;
  tag?: RequestTag;
}

export type FinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls' | 'error' | 'unknown';

export interface StreamResult {
  text: string;
  usage: Usage;
  /** `reported` when the gateway sent usage; `estimated` when we counted tokens ourselves. */
  usageSource: 'reported' | 'estimated';
  costUsd: number;
  costSource: CostSource;
  finishReason: FinishReason;
  /** The model that answered (the fallback when one was used). */
  model: string;
  /** HTTP attempts made, including retries and the fallback. */
  attempts: number;
  requestId?: string;
  latencyMs: number;
  /** Where the gateway put the usage (`usage`, Groq's `x_groq.usage`, llama.cpp's `timings`) and in how many chunks. */
  usageVia?: { field: string; chunks: number };
}


export interface GatewayErrorData extends ErrorFacts {
  code: GatewayErrorCode;
}

export class GatewayError extends Error implements GatewayErrorData {
  readonly code: GatewayErrorCode;
  readonly status?: number;
  readonly model?: string;
  readonly retryAfterMs?: number;
  readonly waitedMs?: number;
  readonly suggestions?: string[];
  readonly partialText?: string;
  readonly requestId?: string;
  readonly detail?: string;
  attempts?: number;

  constructor(data: GatewayErrorData) {
    super(data.message);
    this.name = 'GatewayError';
    this.code = data.code;
    this.status = data.status;
    this.model = data.model;
    this.retryAfterMs = data.retryAfterMs;
    this.waitedMs = data.waitedMs;
    this.suggestions = data.suggestions;
    this.partialText = data.partialText;
    this.requestId = data.requestId;
    this.attempts = data.attempts;
    this.detail = data.detail;
  }

  toJSON(): GatewayErrorData {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      model: this.model,
      retryAfterMs: this.retryAfterMs,
      waitedMs: this.waitedMs,
      suggestions: this.suggestions,
      partialText: this.partialText,
      requestId: this.requestId,
      attempts: this.attempts,
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
    };
  }
}

export interface ModelInfo {
  id: string;
  ownedBy?: string;
  contextWindow?: number;
  /** The price the gateway lists for the model, $ per million tokens (only when it makes sense). */
  price?: ModelPrice;
}

/** A failed attempt that the client is about to try again (same model), or a switch to the fallback model. */
export interface RetryInfo {
  /** The attempt about to be made (2 for the first retry). */
  attempt: number;
  /** The model of that attempt. */
  model: string;
  /** Why the previous attempt failed. */
  code: GatewayErrorCode;
  reason: RetryKind;
  /** For a retry: how long the client waits before it (the gateway's stated wait, or the backoff), ms. */
  waitMs?: number;
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** Told before each retry and before a fallback, so that a UI can say why nothing streams yet. */
  onRetry?: (info: RetryInfo) => void;
  /** Told each time an attempt's HTTP request is sent (after any queueing for a slot or the rate window). */
  onSent?: () => void;
}

export interface Gateway {
  /**
   * Streams one chat completion: yields text deltas (never reasoning), returns the final result.
   * Throws `GatewayError` — with `partialText` when content had arrived before a failure.
   */
  stream(request: ChatRequest, options?: StreamOptions): AsyncGenerator<string, StreamResult, void>;
  /** The gateway's `/models`, or a `GatewayError`. */
  listModels(options?: StreamOptions): Promise<ModelInfo[]>;
}
