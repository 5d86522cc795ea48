import type { RateLimitState } from './rateHeaders';
import { abortError } from '../util/abort';

/**
 * When the next request may go out, for the whole client: the shared cool-down after a 429, pacing when the
 * gateway says no requests (or tokens) remain, and the optional requests- and tokens-per-minute windows of
 * the settings. Requests wait here while holding their concurrency slot, in arrival order.
 */

interface AdmissionClock {
  now(): number;
  /** 0 ≤ x < 1 */
  random(): number;
}

interface AdmitRequest {
  /** Prompt tokens counted before sending plus max_tokens. */
  tokens: number;
  requestsPerMinute: number;
  tokensPerMinute: number;
  signal: AbortSignal;
}

export interface Reservation {
  /** Send order of the request, for `observe`. */
  seq: number;
  /** When its send time was set (for `slowDown`). */
  decidedAt: number;
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
  /** The gateway's request budget as last reported, and how fast it comes back. */
  private budget: { remaining: number; atSeq: number; unitMs: number; until: number } | undefined;
  private sendSeq = 0;
  private nextSendAt = 0;
  /** The time per request of a continuously refilling budget, as a 429 stated it (for the limit it stated). */
  private learntUnit: { limit: number; ms: number } | undefined;
  /** Spacing learnt from 429s when the gateway sends no rate-limit headers. */
  private gapMs = 0;
  private slowedAt = 0;
  private tokenPauseUntil = 0;
  private sent: number[] = [];
  private tokenLog: TokenEntry[] = [];
  private wakers = new Set<() => void>();

  constructor(
    private readonly clock: AdmissionClock,
    private readonly maxJitterMs: number,
    /** Length of the requests- and tokens-per-minute windows (a minute; shorter in tests). */
    private readonly windowMs = 60_000,
    /** Widest spacing 429s may teach (see `slowDown`). */
    private readonly maxGapMs = 500,
  ) {}

  /** A 429: everyone waits `waitMs` (plus a little jitter each, so they do not come back at once). */
  coolDown(waitMs: number): void {
    const until = this.clock.now() + Math.max(0, waitMs);
    if (until > this.coolDownUntil) {
      this.coolDownUntil = until;
      this.coolDownSpreadMs = Math.min(this.maxJitterMs, 0.1 * waitMs + 20);
    }
  }

  /**
   * Rate-limit headers of an answer to the request sent as number `sentSeq`: what remains of the gateway's
   * request budget, less what was sent since, may go at once; beyond it sends are paced at the rate the
   * budget comes back (`reset` is the time until the whole limit is back, so one request returns every
   * reset/limit ms; without a limit, the whole reset is waited). A 429 that states its wait (`statedWaitMs`)
   * says more precisely when the next request may go: then, not a unit from now.
   */
  observe(state: RateLimitState, sentSeq: number, statedWaitMs?: number): void {
    const now = this.clock.now();
    const remaining = state.remainingRequests;
    const reset = state.resetRequestsMs;
    const limit = state.limitRequests;
    if (limit !== undefined && limit > 1 && remaining === 0 && reset !== undefined && statedWaitMs !== undefined && reset > statedWaitMs) {
      // A 429 of a bucket that refills continuously says both when one request is back (the wait) and when all
      // are (reset): the limit less one come back between the two, which gives the exact time per request.
      this.learntUnit = { limit, ms: (reset - statedWaitMs) / (limit - 1) };
    }
    if (remaining !== undefined && reset !== undefined && (!this.budget || sentSeq >= this.budget.atSeq || now >= this.budget.until)) {
      // `reset` is when the budget is whole again: the requests missing from it come back in that time (a part of
      // one more may be missing: remaining is whole requests). A few percent slower than that, so that sends do not
      // arrive a hair early.
      const missing = limit !== undefined && limit > remaining ? limit - remaining : limit;
      const learnt = this.learntUnit && this.learntUnit.limit === limit ? this.learntUnit.ms : 0;
      const unit = Math.max(1, Math.max(missing ? reset / missing : reset, learnt) * 1.03);
      this.budget = { remaining, atSeq: sentSeq, unitMs: unit, until: now + reset };
      this.gapMs = 0; // the gateway says how much remains: no need to guess from 429s
      if (this.left() <= 0) this.nextSendAt = Math.max(this.nextSendAt, now + Math.min(unit, statedWaitMs ?? unit));
    }
    if (state.remainingTokens === 0 && state.resetTokensMs !== undefined) {
      this.tokenPauseUntil = Math.max(this.tokenPauseUntil, now + state.resetTokensMs);
    }
  }

  /**
   * A 429 from a gateway that sends no `x-ratelimit-*` headers: besides the cool-down, space sends by the
   * wait it asked for (a token bucket's time for one request; at most `maxGapMs`) or half again the current
   * spacing, and let the spacing shrink by 1% with every answer that gets through (additive-increase,
   * multiplicative-decrease in reverse: slow down fast, speed up slowly).
   */
  slowDown(waitMs: number, decidedAt: number): void {
    const asked = Math.min(this.maxGapMs, Math.max(5, waitMs));
    if (decidedAt > this.slowedAt) {
      // The first 429 among requests let through since the last slow-down: half again as slow. 429s of
      // requests whose send time was set before the spacing grew do not count twice.
      this.gapMs = Math.min(this.maxGapMs, Math.max(this.gapMs * 1.5, asked));
      this.slowedAt = this.clock.now();
    } else {
      this.gapMs = Math.max(this.gapMs, asked);
    }
  }

  /** An answer got through (2xx headers). */
  succeeded(): void {
    if (this.gapMs > 0) this.gapMs = this.gapMs < 1 ? 0 : this.gapMs * 0.99;
  }

  /** The spacing between sends right now, or 0 when they may go at once. */
  private paceUnit(): number {
    if (this.budget && this.left() <= 0) return this.budget.unitMs;
    return this.gapMs;
  }

  /** Requests the last observed budget still allows at once (Infinity when nothing is known). */
  private left(): number {
    const b = this.budget;
    if (!b || this.clock.now() >= b.until) return Infinity;
    return b.remaining - (this.sendSeq - b.atSeq);
  }

  /** Waits until the request may be sent and reserves its place in the windows. */
  async admit(req: AdmitRequest): Promise<Reservation> {
    const jitter = this.clock.random();
    /** While paced, the send time this request was given, in arrival order. */
    let ticket: number | undefined;
    let ticketAt: number | undefined;
    for (;;) {
      if (req.signal.aborted) throw req.signal.reason;
      const now = this.clock.now();
      this.prune(now);
      let wait = 0;
      if (this.coolDownUntil > now) wait = Math.max(wait, this.coolDownUntil + jitter * this.coolDownSpreadMs - now);
      if (this.tokenPauseUntil > now) wait = Math.max(wait, this.tokenPauseUntil - now);
      const oldestInWindow = req.requestsPerMinute > 0 ? this.sent.at(-req.requestsPerMinute) : undefined;
      if (oldestInWindow !== undefined && this.sent.length >= req.requestsPerMinute) {
        wait = Math.max(wait, oldestInWindow + this.windowMs - now);
      }
      if (req.tokensPerMinute > 0) wait = Math.max(wait, this.tokenWait(now, Math.min(req.tokens, req.tokensPerMinute), req.tokensPerMinute));
      const unit = this.paceUnit();
      if (wait <= 0 && unit > 0) {
        // Paced: take the next free send time once, so that waiters go in arrival order, one unit apart.
        if (ticket === undefined) {
          ticketAt = now;
          ticket = Math.max(now, this.nextSendAt);
          this.nextSendAt = ticket + unit;
        }
        if (ticket > now) wait = ticket - now;
      }
      if (wait <= 0) return this.reserve(now, req.tokens, ticket !== undefined, ticketAt ?? now);
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
        reject(abortError(signal));
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

  private reserve(now: number, tokens: number, ticketed: boolean, decidedAt: number): Reservation {
    this.sent.push(now);
    const seq = ++this.sendSeq;
    // The send that used the last of the budget: the next one waits a unit.
    const unit = this.paceUnit();
    if (!ticketed && unit > 0) this.nextSendAt = Math.max(this.nextSendAt, now + unit);
    const entry: TokenEntry = { at: now, tokens: Math.max(0, tokens) };
    this.tokenLog.push(entry);
    return {
      seq,
      decidedAt,
      settle: (used: number) => {
        const before = entry.tokens;
        entry.tokens = Math.max(0, used);
        if (entry.tokens < before) this.wake();
      },
    };
  }

  private prune(now: number): void {
    const since = now - this.windowMs;
    while ((this.sent[0] ?? Infinity) <= since) this.sent.shift();
    while ((this.tokenLog[0]?.at ?? Infinity) <= since) this.tokenLog.shift();
  }
}

/** Sleeps, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
