import OpenAI from 'openai';
import pRetry from 'p-retry';
import type { CostLedger } from '../cost/ledger';
import { estimateCost } from '../cost/prices';
import type { QuorumSettings } from '../settings/schema';
import { countChatTokens, countTokens } from '../tokens/count';
import { Admission, type Reservation } from './admission';
import { readAnswer, StreamErrorSignal, type Attempted } from './answer';
import { Channel } from './channel';
import { parseUsage, toFinishReason } from './chunks';
import { classifyStreamError, redact, redactError, type Failure } from './errors';
import { abortError, AbortReason, failureFromSdk } from './failures';
import { parseModels } from './models';
import { rateLimitState, type HeaderSource } from './rateHeaders';
import { Slots } from './slots';
import { untilAborted } from '../util/abort';
import { closestModels } from './suggest';
import {
  GatewayError,
  type ChatRequest,
  type FinishReason,
  type Gateway,
  type ModelInfo,
  type RetryInfo,
  type StreamOptions,
  type StreamResult,
  type Usage,
} from './types';

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
  /** Wait after a 429 that does not say how long, ms (doubles per consecutive 429, up to backoffMaxMs × 4). */
  rateLimitDefaultWaitMs: number;
  /** Largest jitter added to each waiter's end of a cool-down, ms. */
  coolDownJitterMs: number;
  /** How long a `/models` answer is reused for model-name suggestions, ms. */
  modelsCacheMs: number;
  /** Length of the requests/tokens-per-minute windows, ms (60 000; shorter in tests). */
  rateWindowMs: number;
  /** Source of randomness for jitter (0 ≤ x < 1). */
  random: () => number;
}

export interface GatewayOptions {
  /** Read on every request, so that changed settings apply without a reload. */
  settings: () => QuorumSettings;
  apiKey: () => Promise<string | undefined> | string | undefined;
  ledger?: CostLedger;
  logger?: GatewayLogger;
  tuning?: Partial<GatewayTuning>;
}

export interface GatewayClient extends Gateway {
  stats(): GatewayStats;
  /** Cancels everything in flight and refuses new requests. Calling it twice is harmless. */
  dispose(): void;
}

const DEFAULT_TUNING: GatewayTuning = {
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  rateLimitDefaultWaitMs: 1_000,
  coolDownJitterMs: 500,
  modelsCacheMs: 5 * 60_000,
  rateWindowMs: 60_000,
  random: Math.random,
};

/** Carries a classified failure through p-retry. */
class AttemptError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error.message);
  }
}

const NO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

export function createGateway(options: GatewayOptions): GatewayClient {
  const tuning: GatewayTuning = { ...DEFAULT_TUNING, ...(options.tuning ?? {}) };
  const logger = options.logger;
  const admission = new Admission({ now: () => Date.now(), random: () => tuning.random() }, tuning.coolDownJitterMs, tuning.rateWindowMs);
  const slots = new Slots(options.settings().limits.maxConcurrent);
  const disposeController = new AbortController();
  /** Models whose gateway refused `response_format` this session. */
  const noResponseFormat = new Set<string>();
  let consecutive429 = 0;
  let modelsCache: { at: number; baseUrl: string; ids: string[] } | undefined;
  let sdk: { key: string; client: OpenAI } | undefined;
  /** The key most recently read, to scrub from anything a gateway echoes back into errors and logs. */
  let lastKey: string | undefined;
  const stats: GatewayStats = { httpRequests: 0, retries: 0, rateLimited: 0, inFlight: 0, queued: 0, coolDownUntil: 0, completed: 0, failed: 0, fallbacks: 0 };

  const log = (level: keyof GatewayLogger, message: string, data: Record<string, unknown>, key?: string) => {
    if (!logger) return;
    try {
      const clean: Record<string, unknown> = {};
      const secret = key ?? lastKey;
      for (const [k, v] of Object.entries(data)) clean[k] = typeof v === 'string' ? redact(v, secret) : v;
      logger[level](redact(message, secret), clean);
    } catch {
      // Logging must never break a request.
    }
  };

  async function readKey(): Promise<string> {
    let key: string | undefined;
    try {
      key = await options.apiKey();
    } catch {
      key = undefined;
    }
    if (!key || key.trim() === '') {
      throw new GatewayError({ code: 'auth', message: 'No API key is set for the gateway. Set one with "Quorum: Set Gateway API Key" (or QUORUM_API_KEY for the CLI).' });
    }
    lastKey = key.trim();
    return lastKey;
  }

  function sdkFor(settings: QuorumSettings, key: string): OpenAI {
    const baseURL = settings.gateway.baseUrl.replace(/\/+$/, '');
    const headers = settings.gateway.extraHeaders;
    const id = JSON.stringify([baseURL, key, headers]);
    if (sdk?.key !== id) {
      sdk = {
        key: id,
        client: new OpenAI({
          apiKey: key,
          baseURL,
          maxRetries: 0,
          timeout: settings.limits.deadlineSeconds * 1000,
          defaultHeaders: headers,
          organization: null,
          project: null,
          logLevel: 'off',
        }),
      };
    }
    return sdk.client;
  }

  interface AttemptContext {
    request: ChatRequest;
    model: string;
    /** Attempt number across the whole request (retries and fallback included). */
    attempt: number;
    settings: QuorumSettings;
    signal: AbortSignal;
    onText: (t: string) => void;
    promptEstimate: number;
    started: number;
  }

  async function attempt(ctx: AttemptContext): Promise<StreamResult> {
    const { request, model, settings } = ctx;
    const release = await slots.acquire(ctx.signal, options.settings().limits.maxConcurrent);
    const into: Attempted = { text: '', reasoning: '' };
    let reservation: Reservation | undefined;
    let key: string | undefined;
    let reached = false;
    let sent = false;
    let sentFormat = false;
    const tag = request.tag;
    try {
      key = await untilAborted(readKey(), ctx.signal);
      reservation = await admission.admit({
        tokens: ctx.promptEstimate + (request.maxTokens ?? 0),
        requestsPerMinute: settings.limits.requestsPerMinute,
        tokensPerMinute: settings.limits.tokensPerMinute,
        signal: ctx.signal,
      });
      const client = sdkFor(settings, key);
      const useFormat = request.responseFormat === 'json_object' && settings.gateway.useResponseFormat && !noResponseFormat.has(model);
      const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
        model,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        stream: true,
        stream_options: { include_usage: true },
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(useFormat ? { response_format: { type: 'json_object' as const } } : {}),
      };

      // One controller per attempt: the caller's cancellation, the deadline, and the idle watchdog end it.
      const controller = new AbortController();
      const forward = () => controller.abort(ctx.signal.reason);
      if (ctx.signal.aborted) forward();
      ctx.signal.addEventListener('abort', forward, { once: true });
      const idleMs = settings.limits.idleTimeoutSeconds * 1000;
      let idle: ReturnType<typeof setTimeout> | undefined;
      const kick = () => {
        if (idle) clearTimeout(idle);
        // Once the answer has finished (and its usage came), a gateway that neither sends [DONE] nor closes
        // the response is not waited for a whole idle period.
        const window = into.finish === undefined || into.finish === 'error' ? idleMs : into.usage ? Math.min(idleMs, 1000) : Math.min(idleMs, 5000);
        const armed = ++dataSeen;
        idle = setTimeout(() => {
          // After a busy event loop, timers run before pending I/O: look once more after that I/O (setImmediate
          // runs after the poll phase) so that data already waiting in the socket is not mistaken for a stall.
          setImmediate(() => {
            if (dataSeen === armed && !controller.signal.aborted) controller.abort(new AbortReason('idle'));
          });
        }, window);
      };
      let dataSeen = 0;
      const t0 = Date.now();
      stats.httpRequests++;
      sent = true;
      sentFormat = useFormat;
      kick();
      let response: Response;
      try {
        try {
          const remaining = Math.max(1000, settings.limits.deadlineSeconds * 1000 - (Date.now() - ctx.started) + 1000);
          response = await client.chat.completions.create(body, { signal: controller.signal, timeout: remaining, maxRetries: 0 }).asResponse();
        } catch (e) {
          const failure = failureFromSdk(e, model, controller.signal, settings);
          const limits = e instanceof OpenAI.APIError && e.headers ? rateLimitState(e.headers as HeaderSource) : {};
          admission.observe(limits, reservation.seq);
          // An error answer that reports usage says the model ran: that usage is billed like any other.
          const errorUsage = e instanceof OpenAI.APIError ? parseUsage((e.error as { usage?: unknown } | undefined)?.usage) : undefined;
          if (errorUsage) {
            into.usage = errorUsage;
            reached = true;
          }
          if (failure.rateLimited) {
            stats.rateLimited++;
            consecutive429++;
            const wait = failure.waitMs ?? Math.min(tuning.rateLimitDefaultWaitMs * 2 ** (consecutive429 - 1), tuning.backoffMaxMs * 4);
            admission.coolDown(wait);
            if (limits.remainingRequests === undefined) admission.slowDown(wait, reservation.decidedAt);
            log('warn', `${model}: 429 from the gateway; the client waits ${wait} ms`, { model, agent: tag?.agent, waitMs: wait, requestId: failure.error.requestId, attempt: ctx.attempt }, key);
          } else if (failure.retryable && failure.waitMs !== undefined) {
            admission.coolDown(failure.waitMs);
            log('warn', `${model}: HTTP ${failure.error.status} asks to wait ${failure.waitMs} ms`, { model, agent: tag?.agent, waitMs: failure.waitMs, requestId: failure.error.requestId }, key);
          }
          if (failure.error.code === 'model-not-found' && failure.error.status === 404) {
            failure.error = await withSuggestions(failure.error, model, settings, key);
          }
          throw new AttemptError(failure);
        }
        reached = true;
        kick(); // the headers are data from the gateway too
        admission.succeeded();
        into.requestId = response.headers.get('x-request-id') ?? response.headers.get('request-id') ?? undefined;
        admission.observe(rateLimitState(response.headers), reservation.seq);
        let ended: 'done' | 'eof';
        const finishedThenIdle = () =>
          controller.signal.reason instanceof AbortReason && controller.signal.reason.kind === 'idle' && into.finish !== undefined && into.finish !== 'error';
        try {
          ended = await readAnswer(response, into, kick, (t) => ctx.onText(t), controller.signal);
        } catch (e) {
          // A gateway that sent its finish_reason but then neither [DONE] nor the end of the response: the answer is complete.
          if (!finishedThenIdle()) throw new AttemptError(streamFailure(e, into, model, controller.signal, settings));
          ended = 'eof';
        }
        if (controller.signal.aborted && !finishedThenIdle()) throw new AttemptError(streamFailure(undefined, into, model, controller.signal, settings));
        const finish: FinishReason = toFinishReason(into.finish);
        if (into.finish === 'error') {
          throw new AttemptError(partialAware(new GatewayError({ code: 'server', message: `${model}: the model stopped with an error${into.text ? ' (the answer is partial)' : ''}`, model }), into, true));
        }
        if (ended === 'eof' && into.finish === undefined) {
          throw new AttemptError(
            partialAware(new GatewayError({ code: 'network', message: `${model}: the stream ended before the answer was complete${into.text ? ' (the answer is partial)' : ''}`, model }), into, true),
          );
        }
        consecutive429 = 0;
        const { usage, usageSource } = settleUsage(into, ctx.promptEstimate);
        reservation.settle(usage.promptTokens + usage.completionTokens);
        const entry = options.ledger?.record({
          model,
          tag,
          attempt: ctx.attempt,
          usage,
          usageSource,
          reportedCostUsd: into.usage?.costUsd,
          outcome: 'ok',
          requestId: into.requestId,
        });
        const cost = entry ?? fallbackCost(model, usage, usageSource, into.usage?.costUsd, settings);
        const result: StreamResult = {
          text: into.text,
          usage,
          usageSource,
          costUsd: cost.costUsd,
          costSource: cost.costSource,
          finishReason: finish,
          model: into.model && into.model.length < 200 ? into.model : model,
          attempts: ctx.attempt,
          requestId: into.requestId,
          latencyMs: Date.now() - ctx.started,
        };
        log('info', `${model}: answered`, {
          model,
          agent: tag?.agent,
          latencyMs: Date.now() - t0,
          totalMs: result.latencyMs,
          attempts: ctx.attempt,
          requestId: into.requestId,
          finishReason: finish,
          promptTokens: usage.promptTokens,
          completionTokens: usage.completionTokens,
          cachedTokens: usage.cachedTokens,
          usageSource,
          costUsd: result.costUsd,
        }, key);
        return result;
      } finally {
        if (idle) clearTimeout(idle);
        ctx.signal.removeEventListener('abort', forward);
        controller.abort(new AbortReason('cancelled')); // frees the connection if still open
      }
    } catch (e) {
      const failure = e instanceof AttemptError ? e.failure : failureFromSdk(e, model, ctx.signal, settings);
      if (failure.responseFormatRejected && !sentFormat) failure.responseFormatRejected = false;
      // Every attempt is priced once: one that reached the model at its (reported or estimated) usage, the others free.
      const hasOutput = into.text.length > 0 || into.reasoning.length > 0 || into.usage !== undefined;
      const billable = reached && hasOutput;
      const { usage, usageSource } = billable ? settleUsage(into, ctx.promptEstimate) : { usage: NO_USAGE, usageSource: 'reported' as const };
      reservation?.settle(usage.promptTokens + usage.completionTokens);
      if (sent) {
        options.ledger?.record({ model, tag, attempt: ctx.attempt, usage, usageSource, reportedCostUsd: billable ? into.usage?.costUsd : undefined, outcome: 'failed', requestId: into.requestId ?? failure.error.requestId });
      }
      if (!failure.error.requestId && into.requestId) failure.error = copyError(failure.error, { requestId: into.requestId });
      throw new AttemptError(failure);
    } finally {
      release();
    }
  }

  function settleUsage(into: Attempted, promptEstimate: number): { usage: Usage; usageSource: 'reported' | 'estimated' } {
    if (into.usage) {
      const { costUsd: _ignored, ...usage } = into.usage;
      void _ignored;
      return { usage, usageSource: 'reported' };
    }
    const reasoningTokens = countTokens(into.reasoning);
    return {
      usage: { promptTokens: promptEstimate, completionTokens: countTokens(into.text) + reasoningTokens, cachedTokens: 0, reasoningTokens },
      usageSource: 'estimated',
    };
  }

  function fallbackCost(model: string, usage: Usage, source: 'reported' | 'estimated', reported: number | undefined, settings: QuorumSettings) {
    if (reported !== undefined) return { costUsd: reported, costSource: 'reported' as const };
    return { costUsd: estimateCost(model, usage, settings.prices).costUsd, costSource: source };
  }

  function partialAware(error: GatewayError, into: Attempted, reachedModel: boolean): Failure {
    const partial = into.text.length > 0;
    const e = partial ? copyError(error, { partialText: into.text }) : error;
    return { error: e, retryable: !partial, reachedModel, fallbackAllowed: !partial };
  }

  function streamFailure(e: unknown, into: Attempted, model: string, signal: AbortSignal, settings: QuorumSettings): Failure {
    if (signal.aborted) {
      const kind = signal.reason instanceof AbortReason ? signal.reason.kind : 'cancelled';
      const error = abortError(kind, model, into.text || undefined, settings);
      const retryable = kind === 'idle' && !into.text;
      return { error, retryable, reachedModel: true, fallbackAllowed: retryable };
    }
    if (e instanceof StreamErrorSignal) {
      const f = classifyStreamError(e.error, model, into.requestId);
      if (into.text) {
        return { ...f, error: copyError(f.error, { partialText: into.text, message: `${f.error.message} (the answer is partial)` }), retryable: false, rateLimited: false, fallbackAllowed: false };
      }
      return f;
    }
    if (e instanceof SyntaxError) {
      return partialAware(new GatewayError({ code: 'bad-response', message: `${model}: the gateway sent an unreadable answer (${e.message.slice(0, 200)})${into.text ? ' (the answer is partial)' : ''}`, model }), into, true);
    }
    const cause = e instanceof Error ? e.message : String(e);
    return partialAware(new GatewayError({ code: 'network', message: `${model}: the connection broke during the answer (${cause.slice(0, 200)})${into.text ? ' (the answer is partial)' : ''}`, model }), into, true);
  }

  async function withSuggestions(error: GatewayError, model: string, settings: QuorumSettings, key: string): Promise<GatewayError> {
    try {
      const ids = await knownModels(settings, key);
      const suggestions = closestModels(model, ids);
      const hint = suggestions.length > 0 ? `; did you mean ${suggestions.slice(0, 3).join(', ')}?` : '';
      return copyError(error, { suggestions, message: `${error.message}${hint}` });
    } catch {
      return error;
    }
  }

  async function knownModels(settings: QuorumSettings, key: string, signal?: AbortSignal): Promise<string[]> {
    const base = settings.gateway.baseUrl;
    if (modelsCache && modelsCache.baseUrl === base && Date.now() - modelsCache.at < tuning.modelsCacheMs) return modelsCache.ids;
    const models = await fetchModels(settings, key, signal ?? AbortSignal.timeout(Math.min(10_000, settings.limits.idleTimeoutSeconds * 1000)));
    return models.map((m) => m.id);
  }

  async function fetchModels(settings: QuorumSettings, key: string, signal: AbortSignal): Promise<ModelInfo[]> {
    const client = sdkFor(settings, key);
    stats.httpRequests++;
    const timeout = Math.min(30_000, settings.limits.deadlineSeconds * 1000);
    let json: unknown;
    try {
      const response = await client.models.list({ signal, timeout, maxRetries: 0 }).asResponse();
      const text = await response.text();
      json = JSON.parse(text);
    } catch (e) {
      if (e instanceof SyntaxError) throw new GatewayError({ code: 'bad-response', message: 'The gateway answered /models with something that is not JSON' });
      const f = failureFromSdk(e, '/models', signal, settings);
      if (f.error.status === 404 || f.error.status === 405) {
        throw new GatewayError({ code: 'bad-response', message: `The gateway does not offer /models (HTTP ${f.error.status}); type the model id instead`, status: f.error.status });
      }
      throw f.error;
    }
    const out = parseModels(json);
    if (!out) throw new GatewayError({ code: 'bad-response', message: 'The gateway answered /models without a list of models' });
    modelsCache = { at: Date.now(), baseUrl: settings.gateway.baseUrl, ids: out.map((m) => m.id) };
    return out;
  }

  /** Runs one request on one model with retries. */
  /** Tells the caller about a retry or fallback; a throwing listener must not break the request. */
  function notifyRetry(onRetry: ((info: RetryInfo) => void) | undefined, info: RetryInfo): void {
    try {
      onRetry?.(info);
    } catch {
      // The caller's problem, not the request's.
    }
  }

  async function runModel(request: ChatRequest, model: string, firstAttempt: number, signal: AbortSignal, onText: (t: string) => void, started: number, counter: { attempts: number }, onRetry?: (info: RetryInfo) => void): Promise<StreamResult> {
    const settings0 = options.settings();
    const maxRetries = settings0.limits.maxRetries;
    let rateLimitRetries = 0;
    let formatDropped = false;
    let retryWithoutFormat = false;
    const promptEstimate = countChatTokens(request.messages);
    // p-retry rejects with the abort reason once the signal fires; the attempt's own error (which carries the
    // partial text) is kept to be rethrown instead.
    let abortedAttempt: AttemptError | undefined;
    return pRetry(
      async () => {
        const settings = options.settings();
        counter.attempts++;
        const n = firstAttempt + counter.attempts - 1;
        if (n > 1) stats.retries++;
        try {
          return await attempt({ request, model, attempt: n, settings, signal, onText, promptEstimate, started });
        } catch (e) {
          if (signal.aborted && e instanceof AttemptError) abortedAttempt = e;
          throw e;
        }
      },
      {
        retries: maxRetries,
        factor: 2,
        minTimeout: tuning.backoffBaseMs,
        maxTimeout: tuning.backoffMaxMs,
        randomize: true,
        signal,
        // A 429's wait is the shared cool-down (awaited before the next send), not a backoff on top of it; a
        // response_format refusal is retried once, at once, without the field.
        shouldConsumeRetry: ({ error }) => {
          if (!(error instanceof AttemptError)) return true;
          const f = error.failure;
          if (f.responseFormatRejected) return formatDropped;
          return !f.rateLimited;
        },
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          const f = error instanceof AttemptError ? error.failure : undefined;
          if (!f) return;
          if (f.responseFormatRejected && !formatDropped) {
            formatDropped = true;
            retryWithoutFormat = true;
            noResponseFormat.add(model);
            log('warn', `${model}: the gateway refused response_format; retrying without it for this session`, { model }, undefined);
            return;
          }
          if (f.rateLimited) rateLimitRetries++;
          if (f.retryable) {
            log('warn', `${model}: attempt ${attemptNumber} failed (${f.error.code}); ${retriesLeft} retries left`, { model, agent: request.tag?.agent, code: f.error.code, status: f.error.status, requestId: f.error.requestId }, undefined);
            const willRetry = f.rateLimited ? rateLimitRetries <= maxRetries : retriesLeft > 0;
            if (willRetry && !signal.aborted) notifyRetry(onRetry, { attempt: firstAttempt + attemptNumber, model, code: f.error.code, reason: 'retry' });
          }
        },
        shouldRetry: ({ error }) => {
          if (!(error instanceof AttemptError)) return false;
          const f = error.failure;
          if (f.responseFormatRejected) {
            const again = retryWithoutFormat;
            retryWithoutFormat = false;
            return again;
          }
          if (!f.retryable) return false;
          if (f.rateLimited) return rateLimitRetries <= maxRetries;
          return true;
        },
      },
    ).catch((e: unknown) => {
      throw abortedAttempt ?? e;
    });
  }

  async function run(request: ChatRequest, signal: AbortSignal, onText: (t: string) => void, onRetry?: (info: RetryInfo) => void): Promise<StreamResult> {
    const started = Date.now();
    const settings = options.settings();
    const models = [request.model];
    if (request.fallbackModel && request.fallbackModel !== request.model) models.push(request.fallbackModel);
    let attemptsSoFar = 0;
    for (let i = 0; i < models.length; i++) {
      const model = models[i] as string;
      const counter = { attempts: 0 };
      try {
        const result = await runModel(request, model, attemptsSoFar + 1, signal, onText, started, counter, onRetry);
        stats.completed++;
        if (i > 0) result.model = result.model || model;
        return result;
      } catch (e) {
        attemptsSoFar += counter.attempts;
        const error = toGatewayError(e, model, signal, settings);
        error.attempts = attemptsSoFar;
        const failure = e instanceof AttemptError ? e.failure : undefined;
        const canFallBack = i + 1 < models.length && failure !== undefined && failure.fallbackAllowed && !error.partialText && !signal.aborted;
        if (canFallBack) {
          stats.fallbacks++;
          stats.retries++;
          log('warn', `${model}: failed (${error.code}) after ${counter.attempts} attempts; trying the fallback model ${models[i + 1]}`, { model, fallback: models[i + 1], agent: request.tag?.agent, code: error.code }, undefined);
          notifyRetry(onRetry, { attempt: attemptsSoFar + 1, model: models[i + 1] as string, code: error.code, reason: 'fallback' });
          continue;
        }
        stats.failed++;
        log(error.code === 'cancelled' ? 'info' : 'error', error.message, { model, agent: request.tag?.agent, code: error.code, status: error.status, attempts: attemptsSoFar, requestId: error.requestId, retryAfterMs: error.retryAfterMs }, undefined);
        throw error;
      }
    }
    throw new GatewayError({ code: 'bad-response', message: 'no model to try' });
  }

  function toGatewayError(e: unknown, model: string, signal: AbortSignal, settings: QuorumSettings): GatewayError {
    if (e instanceof AttemptError) return e.failure.error;
    if (e instanceof GatewayError) return e;
    if (signal.aborted) {
      const kind = signal.reason instanceof AbortReason ? signal.reason.kind : 'cancelled';
      return abortError(kind, model, undefined, settings);
    }
    return new GatewayError({ code: 'network', message: `${model}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500), model });
  }

  async function* stream(request: ChatRequest, streamOptions: StreamOptions = {}): AsyncGenerator<string, StreamResult, void> {
    const settings = options.settings();
    const controller = new AbortController();
    const onCancel = () => controller.abort(new AbortReason('cancelled'));
    const onDispose = () => controller.abort(new AbortReason('disposed'));
    const callerSignal = streamOptions.signal;
    if (callerSignal?.aborted) onCancel();
    callerSignal?.addEventListener('abort', onCancel, { once: true });
    if (disposeController.signal.aborted) onDispose();
    disposeController.signal.addEventListener('abort', onDispose, { once: true });
    const deadline = setTimeout(() => controller.abort(new AbortReason('deadline')), settings.limits.deadlineSeconds * 1000);
    const channel = new Channel<string>();
    let settled = false;
    const result = run(request, controller.signal, (t) => channel.push(t), streamOptions.onRetry).finally(() => {
      settled = true;
      channel.close();
    });
    result.catch(() => undefined); // rethrown below; this only keeps an early return from leaving it unhandled
    try {
      for await (const delta of channel) yield delta;
      return await result;
    } catch (e) {
      throw e instanceof GatewayError ? redactError(e, lastKey) : e;
    } finally {
      clearTimeout(deadline);
      callerSignal?.removeEventListener('abort', onCancel);
      disposeController.signal.removeEventListener('abort', onDispose);
      if (!settled) {
        // The consumer stopped early: cancel the request and wait for its slot to be released.
        controller.abort(new AbortReason('cancelled'));
        await result.catch(() => undefined);
      }
    }
  }

  async function listModels(listOptions: StreamOptions = {}): Promise<ModelInfo[]> {
    const settings = options.settings();
    const key = await readKey();
    const signals = [disposeController.signal, AbortSignal.timeout(Math.min(30_000, settings.limits.deadlineSeconds * 1000))];
    if (listOptions.signal) signals.push(listOptions.signal);
    const signal = AbortSignal.any(signals);
    const t0 = Date.now();
    try {
      const models = await fetchModels(settings, key, signal);
      log('info', `/models: ${models.length} models`, { latencyMs: Date.now() - t0 }, key);
      return models;
    } catch (e) {
      const error = e instanceof GatewayError ? e : new GatewayError({ code: 'network', message: `/models: ${e instanceof Error ? e.message : String(e)}` });
      const out = signal.aborted && error.code !== 'cancelled' && listOptions.signal?.aborted ? new GatewayError({ code: 'cancelled', message: '/models: cancelled' }) : error;
      log('warn', out.message, { code: out.code, status: out.status }, key);
      throw redactError(out, key);
    }
  }

  return {
    stream,
    listModels,
    stats: () => ({ ...stats, queued: slots.queued, inFlight: slots.inFlight, coolDownUntil: admission.coolDownUntil }),
    dispose: () => {
      if (!disposeController.signal.aborted) disposeController.abort(new AbortReason('disposed'));
      slots.clear();
    },
  };
}


function copyError(e: GatewayError, patch: Partial<ConstructorParameters<typeof GatewayError>[0]>): GatewayError {
  return new GatewayError({ ...e.toJSON(), ...patch });
}

