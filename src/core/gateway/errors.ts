import { scrubSecrets } from '../redaction/redactor';
import type { GatewayErrorCode } from '../../shared/reviewCodes';
import { GatewayError, type GatewayErrorData } from './types';

/** Longest wait a 429 may ask for before the request fails instead of waiting. */
const MAX_RETRY_AFTER_MS = 120_000;

/** The same error with every text field scrubbed of the key and of any credential the gateway echoed (partial answers are model output, kept as they are). */
export function redactError(error: GatewayError, key: string | undefined): GatewayError {
  const data = error.toJSON();
  const scrubbed = new GatewayError({ ...data, message: scrubSecrets(data.message, key), suggestions: data.suggestions?.map((s) => scrubSecrets(s, key)) });
  scrubbed.stack = error.stack === undefined ? undefined : scrubSecrets(error.stack, key);
  return scrubbed;
}

/** What the client does with a failed attempt. */
export interface Failure {
  error: GatewayError;
  /** May be tried again (same model) after a backoff. */
  retryable: boolean;
  /** A 429 that asks the whole client to wait. */
  rateLimited?: boolean;
  /** Connection refused or the host name does not resolve: at most one quick retry. */
  unreachable?: boolean;
  /** The gateway's requested wait, ms. */
  waitMs?: number;
  /** A 400 that complains about `response_format`: retry once without it. */
  responseFormatRejected?: boolean;
  /** The attempt reached the model (a 200 stream started): its tokens are billed. */
  reachedModel: boolean;
  /** The fallback model may be tried after this failure. */
  fallbackAllowed: boolean;
}

interface HttpErrorInfo {
  status: number;
  message: string;
  type?: string;
  code?: string | number;
  waitMs?: number;
  requestId?: string;
  model: string;
}

const QUOTA = /insufficient[_ ]quota|exceeded your current quota|billing|spend(ing)?[_ ]limit|budget|credit|balance|payment|out of (credits|funds)|not enough (credits|funds)/i;
const SHORT_WINDOW = /per[ _-]?(second|minute|min)\b|\b(rpm|tpm|rps)\b|requests per|tokens per min/i;
const TOO_LARGE = /context[_ ]length|maximum context|context window|too (large|long)|reduce the length|string_above_max_length|max(imum)?[_ ]tokens? .*exceed|exceeds? the (maximum|limit)|payload too large/i;
const MODEL_MISSING = /model[_ ]not[_ ]found|(model|deployment)\b[^.]{0,80}\b(not found|does not exist|doesn't exist|is not available|not available|unknown|invalid|not supported|unsupported)|unknown model|invalid model|no such model|no endpoints found/i;
const RESPONSE_FORMAT = /response[_ ]format|json[_ ]object|json mode/i;

function describe(info: HttpErrorInfo, what: string): string {
  const detail = info.message ? `: ${info.message.slice(0, 500)}` : '';
  return `${info.model}: ${what} (HTTP ${info.status})${detail}`;
}

function make(code: GatewayErrorCode, info: HttpErrorInfo, what: string, extra: Partial<GatewayErrorData> = {}): GatewayError {
  return new GatewayError({ code, message: describe(info, what), status: info.status, model: info.model, requestId: info.requestId, ...extra });
}

/** Classifies an HTTP error answer (or an error object inside a 200 stream, with its status if it gave one). */
export function classifyHttp(info: HttpErrorInfo): Failure {
  const text = `${info.message} ${info.type ?? ''} ${info.code ?? ''}`;
  const s = info.status;
  const base = { reachedModel: false };
  const isQuota = QUOTA.test(text) || (/quota/i.test(text) && !SHORT_WINDOW.test(text));
  if (s === 402 || ((s === 429 || s === 403) && isQuota)) {
    return { ...base, error: make('quota', info, 'quota or spend limit exhausted'), retryable: false, fallbackAllowed: false };
  }
  if (s === 401) return { ...base, error: make('auth', info, 'the gateway rejected the API key'), retryable: false, fallbackAllowed: false };
  if (s === 403) return { ...base, error: make('forbidden', info, 'the key may not use this model or endpoint'), retryable: false, fallbackAllowed: true };
  if (s === 413 || ((s === 400 || s === 429 || s === 422) && TOO_LARGE.test(text) && !/rate limit reached/i.test(info.message))) {
    return { ...base, error: make('too-large', info, 'the request is too large for the model'), retryable: false, fallbackAllowed: true };
  }
  if (s === 429) {
    const wait = info.waitMs;
    if (wait !== undefined && wait > MAX_RETRY_AFTER_MS) {
      const secs = Math.ceil(wait / 1000);
      return {
        ...base,
        error: make('rate-limited', info, `rate limited; the gateway asks to wait ${secs} s, longer than ${MAX_RETRY_AFTER_MS / 1000} s`, { retryAfterMs: wait }),
        retryable: false,
        fallbackAllowed: true,
      };
    }
    return { ...base, error: make('rate-limited', info, 'rate limited', wait !== undefined ? { retryAfterMs: wait } : {}), retryable: true, rateLimited: true, waitMs: wait, fallbackAllowed: true };
  }
  if (s === 404 || ((s === 400 || s === 422) && MODEL_MISSING.test(text))) {
    return { ...base, error: make('model-not-found', info, 'the gateway does not know this model'), retryable: false, fallbackAllowed: true };
  }
  if (s === 400 && RESPONSE_FORMAT.test(text)) {
    return { ...base, error: make('bad-response', info, 'the gateway rejected response_format'), retryable: false, responseFormatRejected: true, fallbackAllowed: true };
  }
  if (s === 408 || s === 409 || (s >= 500 && s !== 501 && s !== 505)) {
    const code = s === 408 ? 'timeout' : 'server';
    const what = s === 408 ? 'the gateway timed out' : 'the gateway or the model failed';
    const wait = info.waitMs;
    if (wait !== undefined && wait > MAX_RETRY_AFTER_MS) {
      return { ...base, error: make(code, info, `${what}; it asks to wait ${Math.ceil(wait / 1000)} s, longer than ${MAX_RETRY_AFTER_MS / 1000} s`, { retryAfterMs: wait }), retryable: false, fallbackAllowed: true };
    }
    // A Retry-After on an overloaded answer (503, 529) is honoured like a 429's, by the whole client.
    return { ...base, error: make(code, info, what, wait !== undefined ? { retryAfterMs: wait } : {}), retryable: true, waitMs: wait, fallbackAllowed: true };
  }
  if (s >= 500) return { ...base, error: make('server', info, 'the gateway cannot serve this request'), retryable: false, fallbackAllowed: true };
  return { ...base, error: make('bad-response', info, 'the gateway refused the request'), retryable: false, fallbackAllowed: true };
}

/** An error object inside a 200 stream: classified by its status or code when it has one, else a server error. */
export function classifyStreamError(e: { message: string; type?: string; code?: string | number; status?: number }, model: string, requestId?: string): Failure {
  const numeric = typeof e.code === 'number' ? e.code : typeof e.code === 'string' && /^\d{3}$/.test(e.code) ? Number(e.code) : e.status;
  const text = `${e.message} ${e.type ?? ''} ${e.code ?? ''}`;
  let status = numeric && numeric >= 400 && numeric < 600 ? numeric : 500;
  if (status === 500) {
    if (/rate[_ ]limit|too many requests/i.test(text)) status = 429;
    else if (QUOTA.test(text)) status = 402;
    else if (TOO_LARGE.test(text)) status = 413;
  }
  const failure = classifyHttp({ status, message: e.message, type: e.type, code: e.code, model, requestId });
  return { ...failure, reachedModel: true };
}
