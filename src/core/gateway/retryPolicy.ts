import pRetry from 'p-retry';
import { countChatTokens } from '../tokens/count';
import { runAttempt, type AttemptEnv } from './attempt';
import { AttemptError, toGatewayError } from './attemptFailure';
import { GatewayError, type ChatRequest, type RetryInfo, type StreamResult } from './types';

/**
 * WHERE RETRIES HAPPEN. One request: its model tried with retries (p-retry, backoff with jitter, only what
 * the failure's classification allows), then the fallback model once the primary's retries are spent.
 *  - A 429 waits out the client's shared cool-down (set by the attempt) and does not consume a retry.
 *  - A `response_format` refusal is retried once, at once, without the field.
 *  - Anything else retryable (5xx, resets, time-outs) consumes one of `quorum.limits.maxRetries`.
 */

export interface RequestRun {
  request: ChatRequest;
  signal: AbortSignal;
  onText: (t: string) => void;
  onRetry?: (info: RetryInfo) => void;
  onSent?: () => void;
  /** When the request started, epoch ms. */
  started: number;
}

/** Runs the request on its model, then on the fallback model where the failure allows it. */
export async function runRequest(env: AttemptEnv, run: RequestRun): Promise<StreamResult> {
  const { request, signal } = run;
  const models = [request.model];
  if (request.fallbackModel && request.fallbackModel !== request.model) models.push(request.fallbackModel);
  let attemptsSoFar = 0;
  for (let i = 0; i < models.length; i++) {
    const model = models[i] as string;
    const counter = { attempts: 0 };
    try {
      const result = await runModel(env, run, model, attemptsSoFar + 1, counter);
      env.stats.completed++;
      if (i > 0) result.model = result.model || model;
      return result;
    } catch (e) {
      attemptsSoFar += counter.attempts;
      const error = toGatewayError(e, model, signal, env.options.settings());
      error.attempts = attemptsSoFar;
      const failure = e instanceof AttemptError ? e.failure : undefined;
      const next = models[i + 1];
      if (next !== undefined && failure?.fallbackAllowed && !error.partialText && !signal.aborted) {
        env.stats.fallbacks++;
        env.stats.retries++;
        env.connection.log('warn', `${model}: failed (${error.code}) after ${counter.attempts} attempts; trying the fallback model ${next}`, { model, fallback: next, agent: request.tag?.agent, code: error.code });
        notifyRetry(run.onRetry, { attempt: attemptsSoFar + 1, model: next, code: error.code, reason: 'fallback' });
        continue;
      }
      env.stats.failed++;
      const data = { model, agent: request.tag?.agent, code: error.code, status: error.status, attempts: attemptsSoFar, requestId: error.requestId, retryAfterMs: error.retryAfterMs };
      env.connection.log(error.code === 'cancelled' ? 'info' : 'error', error.message, data);
      throw error;
    }
  }
  throw new GatewayError({ code: 'bad-response', message: 'no model to try' });
}

/** Tells the caller about a retry or fallback; a throwing listener must not break the request. */
function notifyRetry(onRetry: ((info: RetryInfo) => void) | undefined, info: RetryInfo): void {
  try {
    onRetry?.(info);
  } catch {
    // The caller's problem, not the request's.
  }
}

/** Runs one request on one model with retries; `counter` counts its attempts even when it throws. */
async function runModel(env: AttemptEnv, run: RequestRun, model: string, firstAttempt: number, counter: { attempts: number }): Promise<StreamResult> {
  const { request, signal } = run;
  const maxRetries = env.options.settings().limits.maxRetries;
  const promptEstimate = countChatTokens(request.messages);
  const state = { rateLimitRetries: 0, formatDropped: false, retryWithoutFormat: false };
  // p-retry rejects with the abort reason once the signal fires; the attempt's own error (which carries the
  // partial text) is kept to be rethrown instead.
  let abortedAttempt: AttemptError | undefined;
  const once = async () => {
    counter.attempts++;
    const attempt = firstAttempt + counter.attempts - 1;
    if (attempt > 1) env.stats.retries++;
    try {
      return await runAttempt(env, { request, model, attempt, settings: env.options.settings(), signal, onText: run.onText, ...(run.onSent ? { onSent: run.onSent } : {}), promptEstimate, started: run.started });
    } catch (e) {
      if (signal.aborted && e instanceof AttemptError) abortedAttempt = e;
      throw e;
    }
  };
  return pRetry(once, {
    retries: maxRetries,
    factor: 2,
    minTimeout: env.tuning.backoffBaseMs,
    maxTimeout: env.tuning.backoffMaxMs,
    randomize: true,
    signal,
    // A 429's wait is the shared cool-down (awaited before the next send), not a backoff on top of it; a
    // response_format refusal is retried once, at once, without the field.
    shouldConsumeRetry: ({ error }) => {
      if (!(error instanceof AttemptError)) return true;
      const f = error.failure;
      if (f.responseFormatRejected) return state.formatDropped;
      return !f.rateLimited;
    },
    onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
      const f = error instanceof AttemptError ? error.failure : undefined;
      if (!f) return;
      if (f.responseFormatRejected && !state.formatDropped) {
        state.formatDropped = true;
        state.retryWithoutFormat = true;
        env.noResponseFormat.add(model);
        env.connection.log('warn', `${model}: the gateway refused response_format; retrying without it for this session`, { model });
        return;
      }
      if (f.rateLimited) state.rateLimitRetries++;
      if (!f.retryable) return;
      env.connection.log('warn', `${model}: attempt ${attemptNumber} failed (${f.error.code}); ${retriesLeft} retries left`, { model, agent: request.tag?.agent, code: f.error.code, status: f.error.status, requestId: f.error.requestId });
      const willRetry = f.rateLimited ? state.rateLimitRetries <= maxRetries : retriesLeft > 0;
      if (willRetry && !signal.aborted) notifyRetry(run.onRetry, { attempt: firstAttempt + attemptNumber, model, code: f.error.code, reason: 'retry' });
    },
    shouldRetry: ({ error }) => {
      if (!(error instanceof AttemptError)) return false;
      const f = error.failure;
      if (f.responseFormatRejected) {
        const again = state.retryWithoutFormat;
        state.retryWithoutFormat = false;
        return again;
      }
      if (!f.retryable) return false;
      if (f.rateLimited) return state.rateLimitRetries <= maxRetries;
      return true;
    },
  }).catch((e: unknown) => {
    throw abortedAttempt ?? e;
  });
}
