import type { QuorumSettings } from '../settings/schema';
import { StreamErrorSignal, type Attempted } from './answer';
import { classifyStreamError, type Failure } from './errors';
import { abortError, AbortReason } from './failures';
import { GatewayError } from './types';

/** Carries a classified failure of one attempt to the retry policy. */
export class AttemptError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error.message);
  }
}

export function copyError(e: GatewayError, patch: Partial<ConstructorParameters<typeof GatewayError>[0]>): GatewayError {
  return new GatewayError({ ...e.toJSON(), ...patch });
}

/** A failure after the model started answering: retried (and the fallback allowed) only when no text came. */
export function partialAware(error: GatewayError, into: Attempted, reachedModel: boolean): Failure {
  const partial = into.text.length > 0;
  const e = partial ? copyError(error, { partialText: into.text }) : error;
  return { error: e, retryable: !partial, reachedModel, fallbackAllowed: !partial };
}

/** Classifies what broke a 200 answer while it was read: an abort, an error event, unreadable data, a reset. */
export function streamFailure(e: unknown, into: Attempted, model: string, signal: AbortSignal, settings: QuorumSettings): Failure {
  const partialNote = into.text ? ' (the answer is partial)' : '';
  if (signal.aborted) {
    const kind = signal.reason instanceof AbortReason ? signal.reason.kind : 'cancelled';
    const error = abortError(kind, model, into.text || undefined, settings);
    const retryable = kind === 'idle' && !into.text;
    return { error, retryable, reachedModel: true, fallbackAllowed: retryable };
  }
  if (e instanceof StreamErrorSignal) {
    const f = classifyStreamError(e.error, model, into.requestId);
    if (into.text) {
      return { ...f, error: copyError(f.error, { partialText: into.text, message: `${f.error.message}${partialNote}` }), retryable: false, rateLimited: false, fallbackAllowed: false };
    }
    return f;
  }
  if (e instanceof SyntaxError) {
    return partialAware(new GatewayError({ code: 'bad-response', message: `${model}: the gateway sent an unreadable answer (${e.message.slice(0, 200)})${partialNote}`, model }), into, true);
  }
  const cause = e instanceof Error ? e.message : String(e);
  return partialAware(new GatewayError({ code: 'network', message: `${model}: the connection broke during the answer (${cause.slice(0, 200)})${partialNote}`, model }), into, true);
}

/** The error a request ends with, whatever was thrown. */
export function toGatewayError(e: unknown, model: string, signal: AbortSignal, settings: QuorumSettings): GatewayError {
  if (e instanceof AttemptError) return e.failure.error;
  if (e instanceof GatewayError) return e;
  if (signal.aborted) {
    const kind = signal.reason instanceof AbortReason ? signal.reason.kind : 'cancelled';
    return abortError(kind, model, undefined, settings);
  }
  return new GatewayError({ code: 'network', message: `${model}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500), model });
}
