import * as z from 'zod';
import { errorCode, field } from '../../../shared/guards';
import { terminalText } from '../../../shared/untrustedText';
import type { GitlabTarget } from './target';

/**
 * A small typed client for the part of GitLab's REST API (https://docs.gitlab.com/api/rest/) that `--post gitlab`
 * uses: `PRIVATE-TOKEN` authentication, JSON bodies, offset pagination through `x-next-page`
 * (https://docs.gitlab.com/api/rest/#pagination), every answer parsed with zod, and GitLab's rate limits waited
 * out: a 429 carries `Retry-After` in seconds, else `RateLimit-Reset` as a Unix time
 * (https://docs.gitlab.com/user/admin_area/settings/user_and_ip_rate_limits/#response-headers). A 5xx is
 * retried for reads and edits, never for a create (it may have been created). It talks only to `target.apiUrl`.
 */

/** The longest wait for a rate limit before giving up (a CI job should not sleep for an hour). */
const MAX_WAIT_SECONDS = 15 * 60;
const RETRIES = 3;
const NETWORK_RETRIES = 2;
const MAX_PAGES = 200;
const TIMEOUT_MS = 60_000;

/** GitLab answered with an error status. */
export class GitlabError extends Error {
  override readonly name = 'GitlabError';
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    /** GitLab's own words (`message`, or `error` and `error_description`), made safe for a terminal. */
    readonly detail: string,
    /** `insufficient_scope` and the like. */
    readonly error: string | undefined,
  ) {
    super(`GitLab answered ${status} to ${method} ${path}`);
  }
}

/** GitLab's answer is not the documented shape. */
export class GitlabShapeError extends Error {
  override readonly name = 'GitlabShapeError';
  constructor(readonly method: string, readonly path: string, readonly issue: string) {
    super(`GitLab's answer to ${method} ${path} is not what Quorum expects: ${issue}`);
  }
}

/** No answer from GitLab at all. */
export class GitlabUnreachable extends Error {
  override readonly name = 'GitlabUnreachable';
  constructor(readonly method: string, readonly path: string, readonly code: string) {
    super(`GitLab did not answer ${method} ${path} (${code})`);
  }
}

/** `ECONNREFUSED`, `TimeoutError`, …: why fetch got no answer (its cause's code), never a URL or a header. */
function networkCode(e: unknown): string {
  const cause = field(e, 'cause');
  const said = cause instanceof Error && cause.message ? terminalText(cause.message.split('\n')[0] ?? '').slice(0, 80) : undefined;
  return errorCode(cause) ?? errorCode(e) ?? (e instanceof Error && e.name !== 'TypeError' ? e.name : said ?? 'no answer');
}

const errorBodySchema = z.looseObject({ message: z.unknown().optional(), error: z.string().optional(), error_description: z.string().optional() });

function detailOf(json: unknown): { detail: string; error: string | undefined } {
  const parsed = errorBodySchema.safeParse(json);
  if (!parsed.success) return { detail: '', error: undefined };
  const { message, error, error_description: description } = parsed.data;
  const text = typeof message === 'string' ? message : message !== undefined ? JSON.stringify(message) : [error, description].filter(Boolean).join(': ');
  return { detail: terminalText(text.replace(/\s+/g, ' ').trim()).slice(0, 300), error };
}

/** Seconds to wait for a 429, from `Retry-After` (seconds or an HTTP date) or `RateLimit-Reset` (a Unix time). */
function waitSeconds(headers: Headers, attempt: number, now: number): number {
  const after = headers.get('retry-after')?.trim();
  if (after && /^\d+$/.test(after)) return Number(after);
  if (after && !Number.isNaN(Date.parse(after))) return Math.max(0, Math.ceil((Date.parse(after) - now) / 1000));
  const reset = Number(headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, Math.ceil(reset - now / 1000));
  return 2 ** attempt;
}

type Query = Record<string, string | number>;

/** The next page: `x-next-page`, else the `page` of `Link: <…>; rel="next"` (GitLab sends both for offset pagination). */
function nextPage(headers: Headers, page: number): number | undefined {
  const header = headers.get('x-next-page')?.trim();
  const link = /<([^>]+)>\s*;\s*rel="next"/.exec(headers.get('link') ?? '')?.[1];
  let fromLink: number | undefined;
  try {
    fromLink = link ? Number(new URL(link).searchParams.get('page')) : undefined;
  } catch {
    fromLink = undefined;
  }
  const next = header ? Number(header) : fromLink;
  return next !== undefined && Number.isInteger(next) && next > page ? next : undefined;
}

export class GitlabClient {
  constructor(
    private readonly target: GitlabTarget,
    private readonly version: string,
    private readonly log: (line: string) => void,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** `/projects/42/merge_requests/7`: the merge request's path (the project id or path URL-encoded). */
  get mrPath(): string {
    return `/projects/${encodeURIComponent(this.target.project)}/merge_requests/${this.target.mr}`;
  }

  private async fetchOnce(method: string, path: string, query: Query | undefined, body: unknown): Promise<Response> {
    const url = new URL(`${this.target.apiUrl}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    return fetch(url, {
      method,
      headers: { 'PRIVATE-TOKEN': this.target.token, accept: 'application/json', 'user-agent': `quorum/${this.version}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  /** One request with its retries; the answer's JSON and headers, or a GitlabError. */
  private async send(method: string, path: string, query?: Query, body?: unknown): Promise<{ json: unknown; headers: Headers }> {
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchOnce(method, path, query, body);
      } catch (e) {
        // No answer (refused, reset, timed out): a read or an edit is tried again; a create may have gone through.
        if (method === 'POST' || attempt >= NETWORK_RETRIES) throw new GitlabUnreachable(method, path, networkCode(e));
        this.log(`GitLab did not answer ${method} ${path} (${networkCode(e)}): trying again in ${2 ** attempt}s`);
        await this.sleep(2 ** attempt * 1000);
        continue;
      }
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.ok) return { json, headers: res.headers };
      const retryable = res.status === 429 || (res.status >= 500 && method !== 'POST');
      if (retryable && attempt < RETRIES) {
        const wait = res.status === 429 ? waitSeconds(res.headers, attempt, Date.now()) : 2 ** attempt;
        if (wait <= MAX_WAIT_SECONDS) {
          this.log(`GitLab ${res.status === 429 ? 'rate limit (429)' : `error ${res.status}`} on ${method} ${path}: waiting ${wait}s, then trying again`);
          await this.sleep(wait * 1000);
          continue;
        }
      }
      const { detail, error } = detailOf(json);
      throw new GitlabError(res.status, method, path, detail, error);
    }
  }

  async request<T>(method: 'GET' | 'POST' | 'PUT', path: string, schema: z.ZodType<T>, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const { json } = await this.send(method, path, options.query, options.body);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new GitlabShapeError(method, path, parsed.error.issues[0]?.message ?? 'unexpected shape');
    return parsed.data;
  }

  /** Every page of a list (100 a page), following `x-next-page` until it is empty. */
  async all<T>(path: string, item: z.ZodType<T>, query: Query = {}): Promise<T[]> {
    const out: T[] = [];
    const list = z.array(item);
    for (let page = 1, n = 0; n < MAX_PAGES; n++) {
      const { json, headers } = await this.send('GET', path, { ...query, per_page: 100, page });
      const parsed = list.safeParse(json);
      if (!parsed.success) throw new GitlabShapeError('GET', path, parsed.error.issues[0]?.message ?? 'not a list');
      out.push(...parsed.data);
      const next = nextPage(headers, page);
      if (next === undefined) return out;
      page = next;
    }
    return out;
  }
}
