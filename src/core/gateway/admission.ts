import type { RateLimitState } from './rateHeaders';

/**
 * When the next request may go out, for the whole client: the shared cool-down after a 429, pacing when the
 * gateway says no requests (or tokens) remain, and the optional requests- and tokens-per-minute windows of
 * the settings. Requests wait here while holding their concurrency slot, in arrival order.
 */

export interface AdmissionClock {
  now(): number;
  /** 0 ≤ x < 1 */
  random(): number;
}

export interface AdmitRequest {
  /** Prompt tokens counted before sending plus max_tokens. */
  tokens: number;
  requestsPerMinute: number;
  tokensPerMinute: number;
  signal: AbortSignal;
}

export interface Reservation {
  /** Replaces the reserved tokens by what was used (0 when the request never reached the model). */
  settle(tokens: number): void;
}

interface TokenEntry {
  at: number;
  tokens: number;
}

export class Admission {
  /** The whole client waits until this time (a 429's Retry-After, with jitter per waiter). */
  coolDownUntil = 0;
  private coolDownSpreadMs = 0;
  /** Spacing between sends while the gateway reports nothing remaining. */
  private paceMs = 0;
  private pacedUntil = 0;
  private nextSendAt = 0;
  private tokenPauseUntil = 0;
  private sent: number[] = [];
  private tokenLog: TokenEntry[] = [];
  private wakers = new Set<() => void>();

  constructor(
    private readonly clock: AdmissionClock,
    private readonly maxJitterMs: number,
    /** Length of the requests- and tokens-per-minute windows (a minute; shorter in tests). */
    private readonly windowMs = 60_000,
  ) {}

  /** A 429: everyone waits `waitMs` (plus a little jitter each, so they do not come back at once). */
  coolDown(waitMs: number): void {
    const until = this.clock.now() + Math.max(0, waitMs);
    if (until > this.coolDownUntil) {
      this.coolDownUntil = until;
      this.coolDownSpreadMs = Math.min(this.maxJitterMs, 0.1 * waitMs + 20);
    }
  }

  /** Rate-limit headers of an answer: pace sends when nothing remains. */
  observe(state: RateLimitState): void {
    const now = this.clock.now();
    if (state.remainingRequests === 0 && state.resetRequestsMs !== undefined) {
      // `reset` is the time until the whole limit is back; with a known limit one request comes back every
      // reset/limit ms, which is the pace to keep. Without a limit, wait for the reset itself.
      const unit = state.limitRequests ? state.resetRequestsMs / state.limitRequests : state.resetRequestsMs;
      this.paceMs = Math.max(1, unit);
      this.pacedUntil = Math.max(this.pacedUntil, now + state.resetRequestsMs);
      this.nextSendAt = Math.max(this.nextSendAt, now + this.paceMs);
    }
    if (state.remainingTokens === 0 && state.resetTokensMs !== undefined) {
      this.tokenPauseUntil = Math.max(this.tokenPauseUntil, now + state.resetTokensMs);
    }
  }

  /** Waits until the request may be sent and reserves its place in the windows. */
  async admit(req: AdmitRequest): Promise<Reservation> {
    const jitter = this.clock.random();
    for (;;) {
      if (req.signal.aborted) throw req.signal.reason;
      const now = this.clock.now();
      this.prune(now);
      let wait = 0;
      if (this.coolDownUntil > now) wait = Math.max(wait, this.coolDownUntil + jitter * this.coolDownSpreadMs - now);
      if (this.tokenPauseUntil > now) wait = Math.max(wait, this.tokenPauseUntil - now);
      if (now < this.pacedUntil && this.nextSendAt > now) wait = Math.max(wait, this.nextSendAt - now);
      if (req.requestsPerMinute > 0 && this.sent.length >= req.requestsPerMinute) {
        wait = Math.max(wait, (this.sent[this.sent.length - req.requestsPerMinute] as number) + this.windowMs - now);
      }
      if (req.tokensPerMinute > 0) wait = Math.max(wait, this.tokenWait(now, Math.min(req.tokens, req.tokensPerMinute), req.tokensPerMinute));
      if (wait <= 0) return this.reserve(now, req.tokens);
      await this.nap(Math.min(wait, 1000), req.signal);
    }
  }

  /** Sleeps until `ms` pass or the state changes (a reservation settled), whichever comes first. */
  private nap(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        signal.removeEventListener('abort', onAbort);
      };
      const done = () => {
        cleanup();
        resolve();
      };
      const onAbort = () => {
        cleanup();
        reject(signal.reason);
      };
      const timer = setTimeout(done, Math.max(1, ms));
      this.wakers.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  private tokenWait(now: number, need: number, limit: number): number {
    let used = this.tokenLog.reduce((n, e) => n + e.tokens, 0);
    if (used + need <= limit) return 0;
    for (const e of this.tokenLog) {
      used -= e.tokens;
      if (used + need <= limit) return e.at + this.windowMs - now;
    }
    return 0;
  }

  private reserve(now: number, tokens: number): Reservation {
    this.sent.push(now);
    if (now < this.pacedUntil) this.nextSendAt = Math.max(this.nextSendAt, now) + this.paceMs;
    const entry: TokenEntry = { at: now, tokens: Math.max(0, tokens) };
    this.tokenLog.push(entry);
    return {
      settle: (used: number) => {
        const before = entry.tokens;
        entry.tokens = Math.max(0, used);
        if (entry.tokens < before) this.wake();
      },
    };
  }

  private prune(now: number): void {
    while (this.sent.length > 0 && (this.sent[0] as number) <= now - this.windowMs) this.sent.shift();
    while (this.tokenLog.length > 0 && (this.tokenLog[0] as TokenEntry).at <= now - this.windowMs) this.tokenLog.shift();
  }
}

/** Sleeps, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
