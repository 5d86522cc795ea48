import type { CostLedger } from '../cost/ledger';
import type { ListedPrices } from '../cost/listedPrices';
import type { QuorumSettings } from '../settings/schema';
import type { RequestShapes } from './shape';

/** What the gateway client is built from, what it can be tuned with, and what it counts. */

export interface GatewayLogger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface GatewayStats {
  /** HTTP requests sent (chat attempts and `/models`). */
  httpRequests: number;
  /** Attempts after the first of a request (retries and fallbacks). */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
  /** Requests holding a concurrency slot. */
  inFlight: number;
  /** Requests waiting for a slot. */
  queued: number;
  /** Epoch ms until which the whole client holds back after a 429 (0 when never). */
  coolDownUntil: number;
  completed: number;
  failed: number;
  fallbacks: number;
}

/** Knobs for tests and benchmarks; production uses the defaults. */
export interface GatewayTuning {
  /** First retry backoff, ms (doubles per retry, randomised ×1–2). */
  backoffBaseMs: number;
  /** Cap of one backoff, ms. */
  backoffMaxMs: number;
  /** Ceiling of the full-jitter backoff after a 429 that states no wait, ms (doubles with each such 429 of a
   *  request, up to `rateLimitMaxWaitMs`). */
  rateLimitDefaultWaitMs: number;
  /** Cap of that ceiling, ms: a fleet of processes that cannot share a cool-down keeps asking often enough
   *  to use the capacity that comes back (each process's learnt pacing still spaces its sends). */
  rateLimitMaxWaitMs: number;
  /** Send spacing a 429 without budget headers or a stated wait teaches the client's pacing, ms. */
  rateLimitPaceMs: number;
  /** Widest send spacing 429s may teach the client's pacing, ms. */
  paceMaxGapMs: number;
  /** Largest jitter added to each waiter's end of a cool-down, ms. */
  coolDownJitterMs: number;
  /** How long a `/models` answer is reused for model-name suggestions, ms. */
  modelsCacheMs: number;
  /** Length of the requests/tokens-per-minute windows, ms (60 000; shorter in tests). */
  rateWindowMs: number;
  /** Source of randomness for jitter (0 ≤ x < 1). */
  random: () => number;
  /** The HTTP client (the platform's `fetch`; an in-process gateway for tests on a fake clock). */
  fetch?: typeof fetch;
}

export interface GatewayOptions {
  /** Read on every request, so that changed settings apply without a reload. */
  settings: () => QuorumSettings;
  apiKey: () => Promise<string | undefined> | string | undefined;
  ledger?: CostLedger;
  /** Learns the prices listed in every `/models` answer the client reads. */
  listedPrices?: ListedPrices;
  logger?: GatewayLogger;
  tuning?: Partial<GatewayTuning>;
  /** A loopback base URL (Ollama, LM Studio, llama.cpp, vLLM on this machine) works without a key: no
   *  Authorization header is sent then. The CLI, the MCP server and the editor turn it on. */
  keyOptionalOnLoopback?: boolean;
  /** The request shapes learned (the CLI's come from its cache folder); a fresh memory for the session otherwise. */
  shapes?: RequestShapes;
}

export const DEFAULT_TUNING: GatewayTuning = {
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  rateLimitDefaultWaitMs: 500,
  rateLimitMaxWaitMs: 2_000,
  rateLimitPaceMs: 250,
  paceMaxGapMs: 500,
  coolDownJitterMs: 500,
  modelsCacheMs: 5 * 60_000,
  rateWindowMs: 60_000,
  random: Math.random,
};

export function emptyStats(): GatewayStats {
  return { httpRequests: 0, retries: 0, rateLimited: 0, inFlight: 0, queued: 0, coolDownUntil: 0, completed: 0, failed: 0, fallbacks: 0 };
}
