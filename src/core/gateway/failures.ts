import type { QuorumSettings } from '../settings/schema';
import { readErrorBody, type ErrorBody } from './errorBody';
import { classifyHttp, type Failure } from './errors';
import { retryAfterMs, type HeaderSource } from './rateHeaders';
import { loadedSdk } from './openaiSdk';
import { GatewayError } from './types';
import { field } from '../../shared/guards';

/** Why the client aborted a request: the caller, the overall deadline, the idle watchdog, or dispose(). */
type AbortKind = 'cancelled' | 'deadline' | 'idle' | 'disposed';
export class AbortReason extends Error {
  constructor(readonly kind: AbortKind) {
    super(kind);
  }
}

/** The error for a request the client aborted, keeping the text that had arrived. */
export function abortError(kind: AbortKind, model: string, partialText: string | undefined, settings: QuorumSettings): GatewayError {
  const partial = partialText ? { partialText } : {};
  if (kind === 'idle') {
    return new GatewayError({ code: 'timeout', message: `${model}: no data from the gateway for ${settings.limits.idleTimeoutSeconds} s${partialText ? ' (the answer is partial)' : ''}`, model, ...partial });
  }
  if (kind === 'deadline') {
    return new GatewayError({ code: 'timeout', message: `${model}: no complete answer within ${settings.limits.deadlineSeconds} s${partialText ? ' (the answer is partial)' : ''}`, model, ...partial });
  }
  return new GatewayError({ code: 'cancelled', message: `${model}: cancelled${kind === 'disposed' ? ' (the client was disposed)' : ''}`, model, ...partial });
}

/**
 * Classifies what the SDK threw for an attempt (an HTTP error answer, a connection failure, an abort). `body`
 * is the whole error body when it was kept (the SDK keeps only its `error` member).
 */
export function failureFromSdk(e: unknown, model: string, signal: AbortSignal, settings: QuorumSettings, body?: ErrorBody): Failure {
  if (signal.aborted) {
    const kind = signal.reason instanceof AbortReason ? signal.reason.kind : 'cancelled';
    return { error: abortError(kind, model, undefined, settings), retryable: kind === 'idle', reachedModel: false, fallbackAllowed: kind === 'idle' };
  }
  if (e instanceof GatewayError) return { error: e, retryable: false, reachedModel: false, fallbackAllowed: false };
  const sdk = loadedSdk();
  if (sdk && e instanceof sdk.APIConnectionTimeoutError) {
    return { error: new GatewayError({ code: 'timeout', message: `${model}: the gateway did not answer in time`, model }), retryable: true, reachedModel: false, fallbackAllowed: true };
  }
  if (sdk && e instanceof sdk.APIError && typeof e.status === 'number') {
    const read = body ?? readErrorBody(e.error);
    const headers = e.headers as HeaderSource | undefined;
    return classifyHttp({
      status: e.status,
      message: read?.message ?? e.message,
      type: read?.type,
      code: read?.code,
      waitMs: retryAfterMs(headers),
      requestId: e.requestID ?? undefined,
      model,
    });
  }
  const cause = e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e);
  const refused = connectErrorCode(e);
  if (refused) {
    // Nothing listens there, or the name does not resolve: one quick retry, no fallback (same gateway).
    const what = refused === 'ECONNREFUSED' ? 'the gateway refused the connection' : 'the gateway host name does not resolve';
    return { error: new GatewayError({ code: 'network', message: `${model}: ${what} (${refused})`, model }), retryable: true, unreachable: true, reachedModel: false, fallbackAllowed: false };
  }
  return {
    error: new GatewayError({ code: 'network', message: `${model}: could not reach the gateway (${cause.slice(0, 300)})`, model }),
    retryable: true,
    reachedModel: false,
    fallbackAllowed: true,
  };
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

/** `ECONNREFUSED` or a DNS failure code anywhere in the error's cause chain (fetch wraps them). */
function connectErrorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 6 && cur !== null && typeof cur === 'object'; depth++) {
    const code = field(cur, 'code');
    if (typeof code === 'string' && UNREACHABLE.has(code)) return code;
    const errors = field(cur, 'errors');
    if (Array.isArray(errors)) for (const inner of errors) {
      const c = connectErrorCode(inner);
      if (c) return c;
    }
    cur = field(cur, 'cause');
  }
  return undefined;
}
