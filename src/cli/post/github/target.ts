import { readFileSync } from 'node:fs';
import * as z from 'zod';

/**
 * Where `--post github` posts: the pull request (`--pr N`, else the number of the `pull_request` event in
 * `GITHUB_EVENT_PATH`), the repository (`GITHUB_REPOSITORY`), the API (`GITHUB_API_URL`) and the token
 * (`GITHUB_TOKEN`). Read before the review runs, so that a missing token or number costs nothing.
 */

const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

export interface GithubTarget {
  token: string;
  owner: string;
  repo: string;
  pr: number;
  apiUrl: string;
}

const eventSchema = z.looseObject({
  pull_request: z.looseObject({ number: z.number().int().positive() }),
});

const repositorySchema = z.string().trim().regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'GITHUB_REPOSITORY is not owner/name');
const apiUrlSchema = z.string().trim().pipe(z.url('GITHUB_API_URL is not a URL')).refine((u) => /^https?:\/\//i.test(u), 'GITHUB_API_URL must start with http:// or https://');

/** The pull request number of the event file, or why there is none. */
function eventNumber(path: string | undefined): number | string {
  if (!path?.trim()) return 'no pull request number: pass --pr N or run on a pull_request event (GITHUB_EVENT_PATH is not set)';
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path.trim(), 'utf8'));
  } catch {
    return 'no pull request number: GITHUB_EVENT_PATH is not a readable JSON file; pass --pr N';
  }
  const parsed = eventSchema.safeParse(json);
  return parsed.success ? parsed.data.pull_request.number : 'no pull request number: the event in GITHUB_EVENT_PATH is not a pull request; pass --pr N';
}

/** The target, or a one-line reason it cannot be posted (exit 2). The token is never part of a reason. */
export function githubTarget(env: Readonly<Record<string, string | undefined>>, pr: number | undefined): GithubTarget | { problem: string } {
  const token = env.GITHUB_TOKEN?.trim() ?? '';
  if (!token) return { problem: 'GITHUB_TOKEN is not set: --post github needs a token with pull-requests: write' };
  const repository = repositorySchema.safeParse(env.GITHUB_REPOSITORY ?? '');
  if (!repository.success) return { problem: env.GITHUB_REPOSITORY?.trim() ? 'GITHUB_REPOSITORY is not owner/name' : 'GITHUB_REPOSITORY is not set: --post github needs owner/name' };
  const apiUrl = apiUrlSchema.safeParse(env.GITHUB_API_URL?.trim() || DEFAULT_GITHUB_API_URL);
  if (!apiUrl.success) return { problem: apiUrl.error.issues[0]?.message ?? 'GITHUB_API_URL is not valid' };
  const number = pr ?? eventNumber(env.GITHUB_EVENT_PATH);
  if (typeof number === 'string') return { problem: number };
  const [owner = '', repo = ''] = repository.data.split('/');
  return { token, owner, repo, pr: number, apiUrl: apiUrl.data.replace(/\/+$/, '') };
}
