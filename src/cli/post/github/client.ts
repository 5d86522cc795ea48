import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { field, isRecord } from '../../../shared/guards';
import type { GithubTarget } from './target';

/**
 * The GitHub client: `@octokit/rest` with `@octokit/plugin-throttling` (writes spaced as GitHub asks, a primary
 * or secondary rate limit waited out from `x-ratelimit-reset` / `retry-after` and retried) and
 * `@octokit/plugin-retry` (5xx and network failures retried with backoff; 4xx answers are not). A 403/429 that
 * carries `retry-after` or `x-ratelimit-reset` but not the wording the throttling plugin recognises is waited out
 * here too. Octokit talks only to `target.apiUrl`.
 */

const QuorumOctokit = Octokit.plugin(throttling, retry);
export type GithubClient = InstanceType<typeof QuorumOctokit>;

/** The longest wait for a rate limit before giving up (a CI job should not sleep for an hour). */
const MAX_WAIT_SECONDS = 15 * 60;
const RATE_LIMIT_RETRIES = 3;

/** The status and headers of a failed request, when it got an answer. */
export function failureOf(e: unknown): { status: number; headers: Record<string, string | number | undefined>; message: string } | undefined {
  const status = field(e, 'status');
  if (typeof status !== 'number') return undefined;
  const answered = field(field(e, 'response'), 'headers');
  const headers: Record<string, string | number | undefined> = {};
  if (isRecord(answered)) for (const [name, value] of Object.entries(answered)) if (typeof value === 'string' || typeof value === 'number') headers[name] = value;
  const message = e instanceof Error ? e.message : '';
  return { status, headers, message };
}

/** Seconds to wait for a 403/429 that says when to come back, else undefined. */
function waitSeconds(headers: Record<string, string | number | undefined>, now: number): number | undefined {
  const after = Number(headers['retry-after']);
  if (Number.isFinite(after) && after >= 0) return after;
  const reset = Number(headers['x-ratelimit-reset']);
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, Math.ceil(reset - now / 1000)) + 1;
  return undefined;
}

/** What `@octokit/plugin-throttling` waits out itself: a secondary limit by its wording, a primary one by its headers. */
function throttlingHandles(f: { headers: Record<string, string | number | undefined>; message: string }): boolean {
  return /\bsecondary rate\b/i.test(f.message) || String(f.headers['x-ratelimit-remaining']) === '0';
}

export function githubClient(target: GithubTarget, version: string, log: (line: string) => void): GithubClient {
  const onLimit = (kind: string) => (retryAfter: number, options: { method: string; url: string }, _o: unknown, retryCount: number) => {
    if (retryCount >= RATE_LIMIT_RETRIES || retryAfter > MAX_WAIT_SECONDS) return false;
    log(`GitHub ${kind} rate limit on ${options.method} ${options.url}: waiting ${retryAfter}s, then trying again`);
    return true;
  };
  const octokit = new QuorumOctokit({
    auth: target.token,
    baseUrl: target.apiUrl,
    userAgent: `quorum/${version}`,
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    throttle: { onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
    retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
  });
  // A rate-limit answer the throttling plugin does not recognise (e.g. 429 with retry-after and another message).
  octokit.hook.wrap('request', async (request, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(options);
      } catch (e) {
        const f = failureOf(e);
        if (!f || (f.status !== 403 && f.status !== 429) || attempt >= RATE_LIMIT_RETRIES || throttlingHandles(f)) throw e;
        const wait = waitSeconds(f.headers, Date.now());
        if (wait === undefined || wait > MAX_WAIT_SECONDS) throw e;
        log(`GitHub rate limit (${f.status}) on ${options.method} ${options.url}: waiting ${wait}s, then trying again`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      }
    }
  });
  return octokit;
}
