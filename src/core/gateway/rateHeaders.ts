/**
 * What a gateway's headers say about waiting: `retry-after-ms`, `retry-after` (seconds or an HTTP date),
 * and the `x-ratelimit-*` family (`remaining`, `limit`, `reset` as `6m0s`, `1.5s`, `120ms` or seconds).
 */

export interface HeaderSource {
  get(name: string): string | null;
}

/** Parses `6m0s`, `1h2m3.5s`, `250ms`, `1.5s`, `20` (seconds) into milliseconds; undefined when unreadable. */
export function parseDuration(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of v.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2];
    total += unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  if (consumed !== v.length || !Number.isFinite(total)) return undefined;
  return Math.round(total);
}

function number(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(n) ? n : undefined;
}

/**
 * How long the gateway asks to wait, in ms: `retry-after-ms`, then `retry-after` (seconds or an HTTP date),
 * then the larger `x-ratelimit-reset-*` whose `remaining` is 0 (or either when none says). Undefined when
 * the headers do not say.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = number(headers.get('retry-after-ms'));
  if (ms !== undefined && ms >= 0) return Math.round(ms);
  const ra = headers.get('retry-after');
  if (ra !== null && ra.trim() !== '') {
    const secs = number(ra);
    if (secs !== undefined) {
      if (secs >= 0) return Math.round(secs * 1000);
    } else {
      const date = Date.parse(ra);
      if (!Number.isNaN(date)) return Math.max(0, date - now);
    }
  }
  const state = rateLimitState(headers);
  const exhausted = [
    state.remainingRequests === 0 ? state.resetRequestsMs : undefined,
    state.remainingTokens === 0 ? state.resetTokensMs : undefined,
  ].filter((x): x is number => x !== undefined);
  const candidates = exhausted.length > 0 ? exhausted : [state.resetRequestsMs, state.resetTokensMs].filter((x): x is number => x !== undefined);
  return candidates.length > 0 ? Math.max(...candidates) : undefined;
}

export interface RateLimitState {
  limitRequests?: number;
  remainingRequests?: number;
  resetRequestsMs?: number;
  limitTokens?: number;
  remainingTokens?: number;
  resetTokensMs?: number;
}

/** The `x-ratelimit-*` headers (also the `ratelimit-*` spelling some proxies use). */
export function rateLimitState(headers: HeaderSource | undefined): RateLimitState {
  if (!headers) return {};
  const get = (name: string) => headers.get(`x-ratelimit-${name}`) ?? headers.get(`ratelimit-${name}`);
  const s: RateLimitState = {};
  const lr = number(get('limit-requests'));
  const rr = number(get('remaining-requests'));
  const er = parseDuration(get('reset-requests'));
  const lt = number(get('limit-tokens'));
  const rt = number(get('remaining-tokens'));
  const et = parseDuration(get('reset-tokens'));
  if (lr !== undefined && lr > 0) s.limitRequests = lr;
  if (rr !== undefined && rr >= 0) s.remainingRequests = rr;
  if (er !== undefined && er >= 0) s.resetRequestsMs = er;
  if (lt !== undefined && lt > 0) s.limitTokens = lt;
  if (rt !== undefined && rt >= 0) s.remainingTokens = rt;
  if (et !== undefined && et >= 0) s.resetTokensMs = et;
  return s;
}
