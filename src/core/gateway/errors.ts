import { scrubSecrets } from '../redaction/redactor';
import type { GatewayErrorCode } from '../../shared/reviewCodes';
import type { ShapeParam } from './shape';
import { GatewayError, type GatewayErrorData } from './types';

/** Longest wait a 429 may ask for before the request fails instead of waiting. */
const MAX_RETRY_AFTER_MS = 120_000;

/** The same error with every text field scrubbed of the key and of any credential the gateway echoed (partial answers are model output, kept as they are). */
export function redactError(error: GatewayError, key: string | undefined): GatewayError {
  const data = error.toJSON();
  const scrubbed = new GatewayError({ ...data, message: scrubSecrets(data.message, key), suggestions: data.suggestions?.map((s) => scrubSecrets(s, key)), ...(data.detail !== undefined ? { detail: scrubSecrets(data.detail, key) } : {}) });
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
  /** Fields of the request the gateway refused (a 400/422 naming them): retried once without them, and learned. */
  refused?: ShapeParam[];
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
/** The `type` or `code` of a spent quota, credit or budget (OpenAI, one-api/new-api, LiteLLM, OpenRouter). */
const QUOTA_CODE = /^(insufficient_quota|insufficient_user_quota|insufficient_balance|budget_exceeded|billing_hard_limit_reached|billing_not_active|quota_exceeded|credits_exhausted|pre_consume_token_quota_failed|payment_required)$/i;
/** The `type` or `code` of a short-window rate limit (OpenAI's `requests`/`tokens`, Azure's "429", LiteLLM's throttling). */
const RATE_CODE = /^(rate_limit_exceeded|rate_limit_error|ratelimit|rate_limited|throttling_error|too_many_requests|requests|tokens|429|resource_exhausted)$/i;
/** A relay that has no upstream for the model, or a model that is not there: the same request cannot succeed. */
const NO_ROUTE = /无可用渠道|no available channels?\b|no (available )?(channel|provider|endpoint)s? (found |available )?for|try pulling it first|NotFoundError|model[_ ]not[_ ]found|model not exists?|models\/\S+ is not found/i;
const SHORT_WINDOW = /per[ _-]?(second|minute|min)\b|\b(rpm|tpm|rps)\b|requests per|tokens per min/i;
const TOO_LARGE = /context[_ ]length|maximum context|context window|too (large|long)|reduce the length|string_above_max_length|max(imum)?[_ ]tokens? .*exceed|exceeds? the (maximum|limit)|payload too large/i;
const MODEL_MISSING = /model[_ ]not[_ ]found|(model|deployment)\b[^.]{0,80}\b(not found|does not exist|doesn't exist|is not available|not available|unknown|invalid|not supported|unsupported)|unknown model|invalid model|no such model|no endpoints found/i;
const RESPONSE_FORMAT = /response[_ ]format|json[_ ]object|json mode/i;

function describe(info: HttpErrorInfo, what: string): string {
  const detail = info.message ? `: ${info.message.slice(0, 500)}` : '';
  return `${info.model}: ${what} (HTTP ${info.status})${detail}`;
}

function make(code: GatewayErrorCode, info: HttpErrorInfo, what: string, extra: Partial<GatewayErrorData> = {}): GatewayError {
  const detail = info.message.trim() ? { detail: info.message.trim().slice(0, 500) } : {};
  return new GatewayError({ code, message: describe(info, what), status: info.status, model: info.model, requestId: info.requestId, ...detail, ...extra });
}

/**
 * A spent quota, credit or budget is told by the status (402) and the body's `type` and `code`, not by its
 * words: Azure's per-minute 429 links a "quotaincrease" page and asks to retry after a few seconds. A 429
 * that states a wait or names a rate limit is a rate limit. Only a 429/403 that says nothing structured is
 * read for its words (OpenAI's own insufficient_quota wording, Anthropic's credit balance).
 */
function codesOf(info: HttpErrorInfo): string[] {
  return [info.type, info.code].filter((c): c is string | number => c !== undefined && String(c).trim() !== '').map(String);
}

function isQuota(info: HttpErrorInfo): boolean {
  if (info.status === 402) return true;
  const codes = codesOf(info);
  if (codes.some((c) => QUOTA_CODE.test(c))) return true;
  if (codes.some((c) => RATE_CODE.test(c)) || info.waitMs !== undefined) return false;
  if (codes.some((c) => !/^\d+$/.test(c) && !/^(invalid_request_error|api_error|error|server_error|new_api_error|one_api_error|upstream_error)$/i.test(c))) return false;
  return QUOTA.test(info.message) || (/quota/i.test(info.message) && !SHORT_WINDOW.test(info.message));
}

/** Classifies an HTTP error answer (or an error object inside a 200 stream, with its status if it gave one). */
export function classifyHttp(info: HttpErrorInfo): Failure {
  const text = `${info.message} ${info.type ?? ''} ${info.code ?? ''}`;
  const s = info.status;
  const base = { reachedModel: false };
  // LiteLLM answers a spent budget with 400 `budget_exceeded`.
  if (s === 402 || ((s === 429 || s === 403) && isQuota(info)) || (s === 400 && codesOf(info).some((c) => QUOTA_CODE.test(c)))) {
    return { ...base, error: make('quota', info, 'quota or spend limit exhausted'), retryable: false, fallbackAllowed: false };
  }
  if (s === 401) return { ...base, error: make('auth', info, 'the gateway rejected the API key'), retryable: false, fallbackAllowed: false };
  if (s === 403) return { ...base, error: make('forbidden', info, 'the key may not use this model or endpoint'), retryable: false, fallbackAllowed: true };
  if (s === 413 || ((s === 400 || s === 429 || s === 422) && TOO_LARGE.test(text) && !/rate limit reached/i.test(info.message))) {
    return { ...base, error: make('too-large', info, 'the request is too large for the model'), retryable: false, fallbackAllowed: true };
  }
  if ((s === 429 || s >= 500 || s === 400 || s === 404) && NO_ROUTE.test(text)) {
    // One attempt, then the fallback model: a relay without a channel for it answers the same way every time.
    return { ...base, error: make('model-not-found', info, 'the gateway has no way to serve this model'), retryable: false, fallbackAllowed: true };
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
