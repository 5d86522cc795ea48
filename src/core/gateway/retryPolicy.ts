import { countChatTokens } from '../tokens/count';
import { sleep } from './admission';
import { runAttempt, type AttemptEnv } from './attempt';
import { AttemptError, copyError, toGatewayError } from './attemptFailure';
import type { Failure } from './errors';
import { AbortReason } from './failures';
import type { GatewayTuning } from './options';
import { SHAPE_PARAMS, type ShapeParam } from './shape';
import { GatewayError, type ChatRequest, type RetryInfo, type StreamResult } from './types';

/**
 * WHERE RETRIES HAPPEN. One request: its model tried again while the failure's classification allows it,
 * then the fallback model once the primary gives up.
 *  - A 429 that states a wait: the attempt has set the client's shared cool-down (every waiter gets its own
 *    jitter), so the retry goes when it ends — until the request's deadline, never counted against
 *    `quorum.limits.maxRetries`. A wait that ends past the deadline fails at once, naming the wait.
 *  - A 429 that states no wait: exponential backoff with full jitter, also until the deadline, not counted.
 *  - A `response_format` refusal: retried once, at once, without the field.
 *  - A refused connection or a failed DNS lookup: at most one quick retry (nothing listens; no fallback).
 *  - Anything else retryable (5xx, resets, time-outs): backoff with jitter, each one of `maxRetries`.
 * Waits over 120 s, quota and "too large" are not retryable (see `classifyHttp`).
 */

interface RequestRun {
  request: ChatRequest;
  signal: AbortSignal;
  onText: (t: string) => void;
  onRetry?: (info: RetryInfo) => void;
  onSent?: () => void;
  /** When the request started, epoch ms. */
  started: number;
  /** When its deadline aborts it, epoch ms. */
  deadlineAt: number;
}

/** What one model's run has used up so far. */
export interface RetryState {
  /** Retries counted against `maxRetries`. */
  consumed: number;
  /** 429s without a stated wait, for their backoff. */
  unstated429: number;
  formatDropped: boolean;
  /** Retries without a refused field (at most one per field). */
  shapeRetries?: number;
  /** The one quick retry after a refused connection or a failed DNS lookup was made. */
  unreachableRetried?: boolean;
  /** When the current run of 429s began (epoch ms); unset once an attempt fails otherwise. */
  rateLimitedSince?: number;
  /** The last failure, when it was a 429 (what a request that reaches its deadline waiting fails with). */
  last429?: Failure;
}

type RetryStep =
  | { kind: 'stop'; error?: GatewayError }
  | { kind: 'retry'; delayMs: number; why: 'rate-limited' | 'failure' | 'format'; waitMs?: number };

export interface RetryClock {
  now: number;
  deadlineAt: number;
  /** When the client's shared cool-down ends (epoch ms; 0 when none). */
  coolDownUntil: number;
  maxRetries: number;
}

/** Decides what follows a failed attempt, and records what it uses up in `state`. Pure: clock and randomness come in. */
export function nextStep(f: Failure, state: RetryState, clock: RetryClock, tuning: Pick<GatewayTuning, 'backoffBaseMs' | 'backoffMaxMs' | 'rateLimitDefaultWaitMs' | 'rateLimitMaxWaitMs' | 'random'>): RetryStep {
  if (f.responseFormatRejected) {
    if (state.formatDropped) return { kind: 'stop' };
    state.formatDropped = true;
    return { kind: 'retry', delayMs: 0, why: 'format' };
  }
  if (!f.retryable) return { kind: 'stop' };
  const left = clock.deadlineAt - clock.now;
  if (f.rateLimited && f.waitMs !== undefined) {
    const until = Math.max(clock.now + f.waitMs, clock.coolDownUntil);
    if (until >= clock.deadlineAt) return { kind: 'stop', error: pastDeadline(f.error, f.waitMs, left) };
    // The admission holds the retry until the shared cool-down ends (with this waiter's jitter).
    return { kind: 'retry', delayMs: 0, why: 'rate-limited', waitMs: until - clock.now };
  }
  if (f.rateLimited) {
    const k = ++state.unstated429;
    const ceiling = Math.min(tuning.rateLimitMaxWaitMs, tuning.rateLimitDefaultWaitMs * 2 ** (k - 1));
    const delayMs = Math.round(tuning.random() * ceiling); // full jitter
    const wait = Math.max(delayMs, clock.coolDownUntil - clock.now);
    if (clock.now + wait >= clock.deadlineAt) return { kind: 'stop' };
    return { kind: 'retry', delayMs, why: 'rate-limited', waitMs: wait };
  }
  if (f.unreachable) {
    if (state.unreachableRetried || clock.maxRetries === 0) return { kind: 'stop' };
    state.unreachableRetried = true;
    state.consumed++;
    const quick = Math.min(tuning.backoffBaseMs, Math.round((1 + tuning.random()) * Math.min(250, tuning.backoffBaseMs)));
    return { kind: 'retry', delayMs: quick, why: 'failure', waitMs: quick };
  }
  if (state.consumed >= clock.maxRetries) return { kind: 'stop' };
  const delayMs = Math.min(tuning.backoffMaxMs, Math.round((1 + tuning.random()) * tuning.backoffBaseMs * 2 ** state.consumed));
  state.consumed++;
  return { kind: 'retry', delayMs, why: 'failure', waitMs: Math.max(delayMs, clock.coolDownUntil - clock.now) };
}

function pastDeadline(error: GatewayError, waitMs: number, leftMs: number): GatewayError {
  const secs = (ms: number) => `${Math.max(0, Math.ceil(ms / 1000))} s`;
  return copyError(error, { message: `${error.message}; the gateway asks to wait ${secs(waitMs)}, past the request's deadline (${secs(leftMs)} left)`, retryAfterMs: waitMs });
}

/** Runs the request on its model, then on the fallback model where the failure allows it. */
export async function runRequest(env: AttemptEnv, run: RequestRun): Promise<StreamResult> {
  const { request, signal } = run;
  const models = [request.model];
  if (request.fallbackModel && request.fallbackModel !== request.model) models.push(request.fallbackModel);
  let attemptsSoFar = 0;
  for (const [i, model] of models.entries()) {
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
  const promptEstimate = request.promptTokens ?? countChatTokens(request.messages);
  const state: RetryState = { consumed: 0, unstated429: 0, formatDropped: false, shapeRetries: 0 };
  for (;;) {
    counter.attempts++;
    const attempt = firstAttempt + counter.attempts - 1;
    if (attempt > 1) env.stats.retries++;
    try {
      return await runAttempt(env, { request, model, attempt, settings: env.options.settings(), signal, onText: run.onText, ...(run.onSent ? { onSent: run.onSent } : {}), promptEstimate, started: run.started });
    } catch (e) {
      // Once the signal fired, the attempt's own error (with any partial text) is the request's, unless the
      // deadline came while the gateway was still answering 429: then the request failed on rate limits.
      if (signal.aborted) throw rateLimitedAtDeadline(e, state, signal, run, counter.attempts) ?? e;
      if (!(e instanceof AttemptError)) throw e;
      const now = Date.now();
      state.last429 = e.failure.rateLimited ? e.failure : undefined;
      if (e.failure.rateLimited) state.rateLimitedSince ??= now;
      else state.rateLimitedSince = undefined;
      if (e.failure.refused && e.failure.refused.length > 0 && (state.shapeRetries ?? 0) < SHAPE_PARAMS.length) {
        // A refused field that this attempt sent: again at once without it (or with its replacement), and
        // remembered. Each such retry sends fewer of the fields, so it ends (a concurrent request may have
        // learned the same refusal first: this one still retries without it).
        state.shapeRetries = (state.shapeRetries ?? 0) + 1;
        learnRefusal(env, run, model, e.failure.refused);
        continue;
      }
      const clock = { now, deadlineAt: run.deadlineAt, coolDownUntil: env.admission.coolDownUntil, maxRetries: env.options.settings().limits.maxRetries };
      const step = nextStep(e.failure, state, clock, env.tuning);
      if (step.kind === 'stop') {
        const error = step.error ?? e.failure.error;
        const why = step.error ? '' : "; the next back-off would end past the request's deadline";
        throw new AttemptError({ ...e.failure, error: e.failure.rateLimited ? gaveUpOn429(error, state, now, counter.attempts, why) : error });
      }
      announce(env, run, { model, failure: e.failure, step, attempt, retriesLeft: clock.maxRetries - state.consumed });
      await sleep(step.delayMs, signal);
    }
  }
}

/**
 * A request whose deadline came while it waited out 429s (in the back-off, the cool-down, the queue, or with
 * its retry not yet answered): the error says it was rate limited and for how long it waited, not "timeout".
 * An attempt that got a 2xx answer before the deadline did time out; so did anything not preceded by a 429.
 */
function rateLimitedAtDeadline(e: unknown, state: RetryState, signal: AbortSignal, run: RequestRun, attempts: number): AttemptError | undefined {
  const since = state.rateLimitedSince;
  if (since === undefined || !(signal.reason instanceof AbortReason) || signal.reason.kind !== 'deadline') return undefined;
  if (e instanceof AttemptError && e.failure.reachedModel) return undefined;
  const last = state.last429;
  if (!last) return undefined;
  const secs = Math.round((run.deadlineAt - run.started) / 1000);
  const error = gaveUpOn429(last.error, state, Date.now(), attempts, `; still rate limited at the request's deadline (${secs} s)`);
  return new AttemptError({ ...last, error, retryable: false });
}

/** The 429 a request gives up on, saying how long the request waited on 429s and over how many attempts. */
function gaveUpOn429(error: GatewayError, state: RetryState, now: number, attempts: number, why: string): GatewayError {
  const waitedMs = Math.max(0, now - (state.rateLimitedSince ?? now));
  const waited = attempts > 1 ? `; waited ${formatWait(waitedMs)} over ${attempts} attempts` : '';
  return copyError(error, { message: `${error.message}${why}${waited}`, waitedMs });
}

function formatWait(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A failed attempt that is retried: on which model, why, after which step, and how many retries remain. */
interface RetryNews {
  model: string;
  failure: Failure;
  step: Extract<RetryStep, { kind: 'retry' }>;
  attempt: number;
  retriesLeft: number;
}

/** Learns a refusal of request fields, logged once (when it is new). */
function learnRefusal(env: AttemptEnv, run: RequestRun, model: string, refused: ShapeParam[]): void {
  const baseUrl = env.options.settings().gateway.baseUrl;
  const fresh = env.shapes.refuse(baseUrl, model, refused);
  if (fresh.length === 0) return;
  const shape = env.shapes.shape(baseUrl, model);
  const tokens = fresh.some((p) => p === 'max_tokens' || p === 'max_completion_tokens') ? `; the token limit is sent as ${shape.tokens === 'none' ? 'nothing' : shape.tokens}` : '';
  env.connection.log('warn', `${model}: the gateway refused ${fresh.join(', ')}; retrying without it, and sending it so from now on${tokens}`, { model, refused: fresh.join(','), agent: run.request.tag?.agent });
}

/** Logs the retry and tells the caller what is waited for. */
function announce(env: AttemptEnv, run: RequestRun, { model, failure: f, step, attempt, retriesLeft }: RetryNews): void {
  if (step.why === 'format') {
    env.shapes.refuse(env.options.settings().gateway.baseUrl, model, ['response_format']);
    env.connection.log('warn', `${model}: the gateway refused response_format; retrying without it for this session`, { model });
    return;
  }
  const counted = step.why === 'rate-limited' ? 'rate limits do not count against retries' : `${retriesLeft} retries left`;
  const waitMs = step.waitMs ?? step.delayMs;
  const agent = run.request.tag?.agent;
  env.connection.log('warn', `${model}: attempt ${attempt} failed (${f.error.code}); retrying in ${waitMs} ms; ${counted}`, { model, agent, code: f.error.code, status: f.error.status, requestId: f.error.requestId, waitMs });
  notifyRetry(run.onRetry, { attempt: attempt + 1, model, code: f.error.code, reason: 'retry', waitMs });
}
