import type OpenAI from 'openai';
import { priceAttempt } from '../cost/pricing';
import { totalTokens, type Usage, zeroUsage } from '../domain/usage';
import type { QuorumSettings } from '../settings/schema';
import { countTokens } from '../tokens/count';
import { untilAborted } from '../util/abort';
import type { Admission, Reservation } from './admission';
import { readAnswer, type Attempted } from './answer';
import { AttemptError, copyError, partialAware, streamFailure } from './attemptFailure';
import { parseUsage, toFinishReason } from './chunks';
import type { Connection } from './connection';
import { readErrorBody } from './errorBody';
import type { Failure } from './errors';
import { AbortReason, failureFromSdk } from './failures';
import type { ModelDirectory } from './modelDirectory';
import { loadedSdk } from './openaiSdk';
import type { GatewayOptions, GatewayStats, GatewayTuning } from './options';
import { rateLimitState, type HeaderSource, type RateLimitState } from './rateHeaders';
import { requestBody, sentParams, withRefusals } from './requestBody';
import type { RequestShapes, ShapeParam } from './shape';
import type { Slots } from './slots';
import { GatewayError, type ChatRequest, type FinishReason, type StreamResult } from './types';
import { IdleWatchdog } from './watchdog';
import { field } from '../../shared/guards';

/**
 * ONE HTTP attempt of a chat request on one model: a concurrency slot, admission (cool-down, pacing, rate
 * windows), the request, the answer read under an idle watchdog, and its price recorded once in the ledger.
 * It never retries: a failure is thrown as an `AttemptError` carrying its classification for the retry policy.
 */

/** What attempts share across the client. */
export interface AttemptEnv {
  options: GatewayOptions;
  tuning: GatewayTuning;
  connection: Connection;
  admission: Admission;
  slots: Slots;
  models: ModelDirectory;
  stats: GatewayStats;
  /** What each gateway and model refused: the request shape (the session's, or the CLI's cache folder's). */
  shapes: RequestShapes;
}

interface AttemptContext {
  request: ChatRequest;
  model: string;
  /** Attempt number across the whole request (retries and fallback included). */
  attempt: number;
  settings: QuorumSettings;
  signal: AbortSignal;
  onText: (t: string) => void;
  /** Told when this attempt's HTTP request goes out (after queueing for a slot and the rate window). */
  onSent?: () => void;
  promptEstimate: number;
  /** When the request (not this attempt) started, epoch ms. */
  started: number;
}

/** What the attempt has done so far: enough to price it and to classify its failure. */
interface Progress {
  into: Attempted;
  reservation?: Reservation;
  key?: string;
  /** Set when the HTTP request went out: whether it asked for JSON, and the optional fields it carried. */
  sent?: { withFormat: boolean; params: ShapeParam[] };
  /** The model ran: a 2xx answer, or an error answer that reported usage. */
  reached: boolean;
}

/** An attempt whose request goes out: where it runs, what it has done so far, its key and its place in the rate window. */
interface Sending {
  env: AttemptEnv;
  ctx: AttemptContext;
  p: Progress;
  key: string;
  reservation: Reservation;
}

export async function runAttempt(env: AttemptEnv, ctx: AttemptContext): Promise<StreamResult> {
  const release = await env.slots.acquire(ctx.signal, env.options.settings().limits.maxConcurrent);
  const progress: Progress = { into: { text: '', reasoning: '' }, reached: false };
  try {
    return await sendAndRead(env, ctx, progress);
  } catch (e) {
    throw recordFailure(env, ctx, progress, e);
  } finally {
    release();
  }
}

async function sendAndRead(env: AttemptEnv, ctx: AttemptContext, p: Progress): Promise<StreamResult> {
  const { request, model, settings } = ctx;
  const key = (p.key = await untilAborted(env.connection.readKey(settings.gateway.baseUrl), ctx.signal));
  const reservation = (p.reservation = await env.admission.admit({
    tokens: ctx.promptEstimate + (request.maxTokens ?? 0),
    requestsPerMinute: settings.limits.requestsPerMinute,
    tokensPerMinute: settings.limits.tokensPerMinute,
    signal: ctx.signal,
  }));
  const shape = env.shapes.shape(settings.gateway.baseUrl, model);
  const withFormat = request.responseFormat === 'json_object' && settings.gateway.useResponseFormat && shape.responseFormat;
  const body = requestBody(ctx.model, request, shape, withFormat);
  // One controller per attempt: the caller's cancellation, the deadline, and the idle watchdog end it.
  const controller = new AbortController();
  const forward = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) forward();
  ctx.signal.addEventListener('abort', forward, { once: true });
  const watchdog = new IdleWatchdog(controller, settings.limits.idleTimeoutSeconds * 1000, p.into);
  const t0 = Date.now();
  env.stats.httpRequests++;
  p.sent = { withFormat, params: sentParams(body) };
  try {
    ctx.onSent?.();
  } catch {
    // The caller's problem, not the attempt's.
  }
  watchdog.kick();
  try {
    const sending: Sending = { env, ctx, p, key, reservation };
    const response = await send(sending, body, controller.signal);
    p.reached = true;
    watchdog.kick(); // the headers are data from the gateway too
    env.admission.succeeded();
    p.into.requestId = response.headers.get('x-request-id') ?? response.headers.get('request-id') ?? undefined;
    env.admission.observe(rateLimitState(response.headers), reservation.seq);
    const finish = await readAll(ctx, p.into, response, watchdog, controller.signal);
    return succeeded(sending, finish, t0);
  } finally {
    watchdog.stop();
    ctx.signal.removeEventListener('abort', forward);
    controller.abort(new AbortReason('cancelled')); // frees the connection if still open
  }
}

/** Sends the request; an error answer is classified, its rate-limit news applied, and thrown as an AttemptError. */
async function send(s: Sending, body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming, signal: AbortSignal): Promise<Response> {
  const { env, ctx, p, key, reservation } = s;
  const { model, settings } = ctx;
  try {
    const client = await env.connection.sdkFor(settings, key);
    const remaining = Math.max(1000, settings.limits.deadlineSeconds * 1000 - (Date.now() - ctx.started) + 1000);
    return await client.chat.completions.create(body, { signal, timeout: remaining, maxRetries: 0 }).asResponse();
  } catch (e) {
    const sdk = loadedSdk();
    const apiError = sdk && e instanceof sdk.APIError ? e : undefined;
    const headers = apiError?.headers as HeaderSource | undefined;
    const text = apiError ? await env.connection.errorBodyOf(headers) : undefined;
    const errorBody = text !== undefined ? readErrorBody(text) : undefined;
    const failure = withRefusals(failureFromSdk(e, model, signal, settings, errorBody), errorBody, sentParams(body));
    const limits = headers ? rateLimitState(headers) : {};
    env.admission.observe(limits, reservation.seq, failure.rateLimited ? failure.waitMs : undefined);
    // An error answer that reports usage says the model ran: that usage is billed like any other.
    const errorUsage = apiError ? (parseUsage(field(apiError.error, 'usage')) ?? parseUsage(errorBody?.usage)) : undefined;
    if (errorUsage) {
      p.into.usage = errorUsage;
      p.reached = true;
    }
    applyWaits(s, failure, limits);
    if (failure.error.code === 'model-not-found' && failure.error.status === 404) {
      failure.error = await env.models.withSuggestions(failure.error, model, settings, key);
    }
    throw new AttemptError(failure);
  }
}

/**
 * A 429 that states a wait cools the whole client down for it; any 429 from a gateway that sends no budget
 * headers slows the client's pace (the retry's own backoff is the retry policy's). A Retry-After on a 5xx
 * cools the client down too.
 */
function applyWaits({ env, ctx, key, reservation }: Sending, failure: Failure, limits: RateLimitState): void {
  const { model } = ctx;
  const agent = ctx.request.tag?.agent;
  const requestId = failure.error.requestId;
  if (failure.rateLimited) {
    env.stats.rateLimited++;
    const stated = failure.waitMs;
    if (stated !== undefined) env.admission.coolDown(stated);
    if (limits.remainingRequests === undefined) env.admission.slowDown(stated ?? env.tuning.rateLimitPaceMs, reservation.decidedAt);
    const what = stated !== undefined ? `the client waits ${stated} ms` : 'no wait stated; the request backs off';
    env.connection.log('warn', `${model}: 429 from the gateway; ${what}`, { model, agent, waitMs: stated, requestId, attempt: ctx.attempt }, key);
  } else if (failure.retryable && failure.waitMs !== undefined) {
    env.admission.coolDown(failure.waitMs);
    env.connection.log('warn', `${model}: HTTP ${failure.error.status} asks to wait ${failure.waitMs} ms`, { model, agent, waitMs: failure.waitMs, requestId }, key);
  }
}

/** Reads the whole answer; throws an AttemptError when it broke, stalled, or ended before its finish. */
async function readAll(ctx: AttemptContext, into: Attempted, response: Response, watchdog: IdleWatchdog, signal: AbortSignal): Promise<FinishReason> {
  const { model, settings } = ctx;
  let ended: 'done' | 'eof';
  try {
    ended = await readAnswer(response, into, watchdog.kick, (t) => ctx.onText(t), signal);
  } catch (e) {
    // A gateway that sent its finish_reason but then neither [DONE] nor the end of the response: the answer is complete.
    if (!watchdog.firedAfterFinish()) throw new AttemptError(streamFailure(e, into, model, signal, settings));
    ended = 'eof';
  }
  if (signal.aborted && !watchdog.firedAfterFinish()) throw new AttemptError(streamFailure(undefined, into, model, signal, settings));
  const partial = into.text ? ' (the answer is partial)' : '';
  if (into.finish === 'error') {
    throw new AttemptError(partialAware(new GatewayError({ code: 'server', message: `${model}: the model stopped with an error${partial}`, model }), into, true));
  }
  if (ended === 'eof' && into.finish === undefined) {
    throw new AttemptError(partialAware(new GatewayError({ code: 'network', message: `${model}: the stream ended before the answer was complete${partial}`, model }), into, true));
  }
  return toFinishReason(into.finish);
}

/** The usage to bill: the gateway's, or counted locally (prompt as estimated before sending) when it sent none. */
function settleUsage(into: Attempted, promptEstimate: number): { usage: Usage; usageSource: 'reported' | 'estimated' } {
  if (into.usage) {
    const { promptTokens, completionTokens, cachedTokens, reasoningTokens } = into.usage;
    return { usage: { promptTokens, completionTokens, cachedTokens, reasoningTokens }, usageSource: 'reported' };
  }
  const reasoningTokens = countTokens(into.reasoning);
  return {
    usage: { promptTokens: promptEstimate, completionTokens: countTokens(into.text) + reasoningTokens, cachedTokens: 0, reasoningTokens },
    usageSource: 'estimated',
  };
}

function succeeded({ env, ctx, p: { into }, reservation, key }: Sending, finish: FinishReason, t0: number): StreamResult {
  const { model, request } = ctx;
  const { usage, usageSource } = settleUsage(into, ctx.promptEstimate);
  reservation.settle(totalTokens(usage));
  const record = { model, tag: request.tag, attempt: ctx.attempt, usage, usageSource, reportedCostUsd: into.usage?.costUsd, outcome: 'ok' as const, requestId: into.requestId };
  const entry = env.options.ledger?.record(record);
  const cost = entry ?? priceAttempt(record, ctx.settings.prices);
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
    ...(into.usageVia ? { usageVia: into.usageVia } : {}),
  };
  env.connection.log('info', `${model}: answered`, {
    model,
    agent: request.tag?.agent,
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
}

/** Prices a failed attempt once (free unless the model ran and produced something) and returns its AttemptError. */
function recordFailure(env: AttemptEnv, ctx: AttemptContext, p: Progress, e: unknown): AttemptError {
  const { model, into } = { model: ctx.model, into: p.into };
  const failure = e instanceof AttemptError ? e.failure : failureFromSdk(e, model, ctx.signal, ctx.settings);
  if (failure.responseFormatRejected && !p.sent?.withFormat) failure.responseFormatRejected = false;
  if (failure.refused && p.sent) failure.refused = failure.refused.filter((r) => p.sent?.params.includes(r));
  const hasOutput = into.text.length > 0 || into.reasoning.length > 0 || into.usage !== undefined;
  const billable = p.reached && hasOutput;
  const { usage, usageSource } = billable ? settleUsage(into, ctx.promptEstimate) : { usage: zeroUsage(), usageSource: 'reported' as const };
  p.reservation?.settle(totalTokens(usage));
  if (p.sent) {
    const requestId = into.requestId ?? failure.error.requestId;
    env.options.ledger?.record({ model, tag: ctx.request.tag, attempt: ctx.attempt, usage, usageSource, reportedCostUsd: billable ? into.usage?.costUsd : undefined, outcome: 'failed', requestId });
  }
  if (!failure.error.requestId && into.requestId) failure.error = copyError(failure.error, { requestId: into.requestId });
  return new AttemptError(failure);
}
