import { Admission } from './admission';
import type { AttemptEnv } from './attempt';
import { Channel } from './channel';
import { Connection } from './connection';
import { redactError } from './errors';
import { AbortReason } from './failures';
import { ModelDirectory } from './modelDirectory';
import { DEFAULT_TUNING, emptyStats, type GatewayOptions, type GatewayStats, type GatewayTuning } from './options';
import { runRequest } from './retryPolicy';
import { RequestShapes } from './shape';
import { Slots } from './slots';
import { onAbort } from '../util/abort';
import { GatewayError, type ChatRequest, type Gateway, type ModelInfo, type StreamOptions, type StreamResult } from './types';

export type { GatewayLogger, GatewayOptions, GatewayStats, GatewayTuning } from './options';

/**
 * The one shared gateway client: composes a single attempt (`attempt.ts`), the retry and fallback policy
 * (`retryPolicy.ts`) and the shared limits (`slots.ts`, `admission.ts`) into `stream()` and `listModels()`,
 * under the caller's signal, the overall deadline and `dispose()`.
 */
export interface GatewayClient extends Gateway {
  stats(): GatewayStats;
  /** What each gateway and model refused (the request shape learned), for `quorum doctor` and Test Connection. */
  readonly shapes: RequestShapes;
  /** Cancels everything in flight and refuses new requests. Calling it twice is harmless. */
  dispose(): void;
}

export function createGateway(options: GatewayOptions): GatewayClient {
  const tuning: GatewayTuning = { ...DEFAULT_TUNING, ...(options.tuning ?? {}) };
  const stats = emptyStats();
  const connection = new Connection(options.apiKey, options.logger, tuning.fetch, options.keyOptionalOnLoopback === true);
  const admission = new Admission({ now: () => Date.now(), random: () => tuning.random() }, tuning.coolDownJitterMs, tuning.rateWindowMs, tuning.paceMaxGapMs);
  const slots = new Slots(options.settings().limits.maxConcurrent);
  const models = new ModelDirectory(connection, stats, tuning.modelsCacheMs, (baseUrl, list) => options.listedPrices?.learn(baseUrl, list));
  const env: AttemptEnv = { options, tuning, connection, admission, slots, models, stats, shapes: options.shapes ?? new RequestShapes() };
  const disposeController = new AbortController();
  const disposed = disposeController.signal;
  return {
    stream: (request, streamOptions) => streamAnswer(env, disposed, request, streamOptions),
    listModels: (listOptions) => listModels(env, disposed, listOptions),
    shapes: env.shapes,
    stats: () => ({ ...stats, queued: slots.queued, inFlight: slots.inFlight, coolDownUntil: admission.coolDownUntil }),
    dispose: () => {
      if (!disposed.aborted) disposeController.abort(new AbortReason('disposed'));
      slots.clear();
    },
  };
}

/** Aborts `controller` when the caller cancels or the client is disposed (now, if either already happened); returns what stops listening. */
function linkAborts(controller: AbortController, caller: AbortSignal | undefined, disposed: AbortSignal): () => void {
  const onCancel = () => controller.abort(new AbortReason('cancelled'));
  const onDispose = () => controller.abort(new AbortReason('disposed'));
  if (caller?.aborted) onCancel();
  const stopCancel = caller && !caller.aborted ? onAbort(caller, onCancel) : undefined;
  if (disposed.aborted) onDispose();
  const stopDispose = disposed.aborted ? undefined : onAbort(disposed, onDispose);
  return () => {
    stopCancel?.();
    stopDispose?.();
  };
}

/** One request's answer, streamed: its text deltas, then its result (or a redacted GatewayError). */
async function* streamAnswer(env: AttemptEnv, disposed: AbortSignal, request: ChatRequest, streamOptions: StreamOptions = {}): AsyncGenerator<string, StreamResult, void> {
  const settings = env.options.settings();
  const controller = new AbortController();
  const unlink = linkAborts(controller, streamOptions.signal, disposed);
  const deadline = setTimeout(() => controller.abort(new AbortReason('deadline')), settings.limits.deadlineSeconds * 1000);
  const channel = new Channel<string>();
  const state = { settled: false };
  const started = Date.now();
  const deadlineAt = started + settings.limits.deadlineSeconds * 1000;
  const run = { request, signal: controller.signal, onText: (t: string) => channel.push(t), onRetry: streamOptions.onRetry, onSent: streamOptions.onSent, started, deadlineAt };
  const result = runRequest(env, run).finally(() => {
    state.settled = true;
    channel.close();
  });
  result.catch(() => undefined); // rethrown below; this only keeps an early return from leaving it unhandled
  try {
    for await (const delta of channel) yield delta;
    return await result;
  } catch (e) {
    throw e instanceof GatewayError ? redactError(e, env.connection.lastKey) : e;
  } finally {
    clearTimeout(deadline);
    unlink();
    if (!state.settled) {
      // The consumer stopped early: cancel the request and wait for its slot to be released.
      controller.abort(new AbortReason('cancelled'));
      await result.catch(() => undefined);
    }
  }
}

/** The gateway's `/models`, within 30 s (or the deadline), cancelled with the caller or the client. */
async function listModels(env: AttemptEnv, disposed: AbortSignal, listOptions: StreamOptions = {}): Promise<ModelInfo[]> {
  const { connection, models } = env;
  const settings = env.options.settings();
  const key = await connection.readKey(settings.gateway.baseUrl);
  const signals = [disposed, AbortSignal.timeout(Math.min(30_000, settings.limits.deadlineSeconds * 1000))];
  if (listOptions.signal) signals.push(listOptions.signal);
  const signal = AbortSignal.any(signals);
  const t0 = Date.now();
  try {
    const list = await models.fetch(settings, key, signal);
    connection.log('info', `/models: ${list.length} models`, { latencyMs: Date.now() - t0 }, key);
    return list;
  } catch (e) {
    const error = e instanceof GatewayError ? e : new GatewayError({ code: 'network', message: `/models: ${e instanceof Error ? e.message : String(e)}` });
    const out = signal.aborted && error.code !== 'cancelled' && listOptions.signal?.aborted ? new GatewayError({ code: 'cancelled', message: '/models: cancelled' }) : error;
    connection.log('warn', out.message, { code: out.code, status: out.status }, key);
    throw redactError(out, key);
  }
}
