import type { Finding, Region, ReviewSummary } from '../../core/review/types';
import { scrubKey } from '../../core/redaction/redactor';
import { errorCode } from '../../shared/guards';
import { GithubApi, type DraftComment } from './api';
import { failureOf, githubClient } from './client';
import { headCommit, intersect, localHunks, patchHunks, placementOf, type Commentable } from './diffLines';
import { findingKeys } from './fingerprints';
import { commentBody, resolvedBody, reviewBody, summaryBody } from '../../core/report/pullRequest';
import { planSync, readPrevious } from './sync';
import type { GithubTarget } from './target';
import type { ThreadResolution } from '../../core/outcomes/decide';

/**
 * `--post github`: the finished review as one pull request review (inline comments on the diff's lines, the rest
 * in its body), "resolved" replies to earlier comments no longer raised, and one summary comment edited in place.
 */

interface PostInput {
  target: GithubTarget;
  /** The repository's root and the `--base` ref the changes were reviewed against. */
  root: string;
  base: string;
  summary: ReviewSummary;
  /** The findings to post: dismissed ones and those under the thresholds left out. */
  shown: readonly Finding[];
  dismissed: number;
  hidden: number;
  /** The reviewed regions as read (for fingerprints). */
  regions: readonly Pick<Region, 'file' | 'text' | 'startLine' | 'endLine'>[];
  version: string;
  /** Every agent finished: only then is a finding that is not raised any more taken as resolved. */
  complete: boolean;
  /** A progress line on stderr. */
  log: (line: string) => void;
  /** Told the threads this run marked resolved (their findings not raised on the new head: resolved by a push). */
  onThreads?: (threads: ThreadResolution[]) => void;
}

interface Item {
  finding: Finding;
  keys: string[];
}

interface Draft {
  item: Item;
  comment: DraftComment;
}

/** The replacement that covers exactly the finding's lines: its own suggestion, else the coding agent's for that range. */
function replacementOf(f: Finding, summary: ReviewSummary): string | undefined {
  if (f.suggestion !== undefined) return f.suggestion;
  return summary.agents.flatMap((a) => a.replacements ?? []).find((r) => r.file === f.file && r.startLine === f.startLine && r.endLine === f.endLine)?.code;
}

function draftOf(item: Item, commentable: Commentable, summary: ReviewSummary): Draft | undefined {
  const place = placementOf(item.finding, commentable);
  if (!place) return undefined;
  const code = replacementOf(item.finding, summary);
  const body = commentBody(item.finding, item.keys, place.exact ? code : undefined, place.exact ? undefined : code);
  const range = place.startLine < place.line ? { start_line: place.startLine, start_side: 'RIGHT' as const } : {};
  return { item, comment: { path: item.finding.file, line: place.line, side: 'RIGHT', ...range, body } };
}

const isUnprocessable = (e: unknown) => failureOf(e)?.status === 422;

/**
 * Posts the review; GitHub refuses a whole review (422) when one comment's line is not in its diff: each comment
 * is then left out in turn, and the first review GitHub accepts has the refused one in its body. When no single
 * comment explains the refusal, every finding goes into the body.
 */
async function postReview(api: GithubApi, headSha: string, drafts: readonly Draft[], outside: readonly Item[], log: (line: string) => void): Promise<{ inline: number; moved: number }> {
  const attempt = (inline: readonly Draft[], body: readonly Item[]) =>
    api.createReview(headSha, reviewBody(headSha, inline.length, body.map((i) => ({ finding: i.finding, keys: i.keys }))), inline.map((d) => d.comment));
  try {
    await attempt(drafts, outside);
    return { inline: drafts.length, moved: 0 };
  } catch (e) {
    if (!isUnprocessable(e) || drafts.length === 0) throw e;
  }
  for (const [i, refused] of drafts.entries()) {
    if (drafts.length === 1) break;
    const rest = drafts.filter((_, j) => j !== i);
    try {
      await attempt(rest, [...outside, refused.item]);
      log(`GitHub refused a comment on ${refused.comment.path}:${refused.comment.line} (422); it is in the review body`);
      return { inline: rest.length, moved: 1 };
    } catch (e) {
      if (!isUnprocessable(e)) throw e;
    }
  }
  log(`GitHub refused the inline comments (422); all ${drafts.length} are in the review body`);
  await attempt([], [...outside, ...drafts.map((d) => d.item)]);
  return { inline: 0, moved: drafts.length };
}

/** Where GitHub's diff lines come from, or none when the checkout is not the pull request's head. */
async function commentableLines(input: PostInput, api: GithubApi, headSha: string): Promise<Commentable> {
  const checkedOut = await headCommit(input.root);
  if (checkedOut !== headSha) {
    input.log(`HEAD (${checkedOut.slice(0, 7)}) is not the pull request's head (${headSha.slice(0, 7)}): findings go into the review body; check out the head commit to comment on lines`);
    return new Map();
  }
  const local = await localHunks(input.root, input.base, headSha);
  try {
    return intersect(local, patchHunks(await api.files()));
  } catch (e) {
    if (failureOf(e)?.status !== 404) throw e;
    input.log('GitHub does not list the pull request\'s files (404): comment lines are checked against the local diff only');
    return local;
  }
}

async function post(input: PostInput): Promise<string> {
  const { target, summary, log } = input;
  const api = new GithubApi(githubClient(target, input.version, log), target);
  const pull = await api.pull();
  const headSha = pull.head.sha;
  const commentable = await commentableLines(input, api, headSha);
  const previous = readPrevious(await api.reviewComments(), await api.reviews(), await api.issueComments());
  const items: Item[] = input.shown.map((finding) => ({ finding, keys: findingKeys(finding, input.regions) }));
  const raised = new Set(summary.findings.flatMap((f) => findingKeys(f, input.regions)));
  const plan = planSync(items, raised, previous);
  if (!input.complete && plan.resolve.length > 0) {
    log(`not every agent finished: ${plan.resolve.length} earlier comment(s) not raised this time are left as they are`);
    plan.resolve = [];
  }

  const drafts: Draft[] = [];
  const outside: Item[] = [];
  for (const item of plan.fresh) {
    const d = draftOf(item, commentable, summary);
    if (d) drafts.push(d);
    else outside.push(item);
  }
  let inline = 0;
  if (plan.fresh.length > 0) inline = (await postReview(api, headSha, drafts, outside, log)).inline;
  for (const c of plan.resolve) await api.reply(c.id, resolvedBody(headSha));
  input.onThreads?.(plan.resolve.map((c) => ({ keys: c.keys, by: 'push' })));

  const body = summaryBody(headSha, input.base, summary, input.shown, {
    posted: plan.fresh.length, inline, alreadyPosted: plan.alreadyPosted.length, resolved: plan.resolve.length,
    dismissed: input.dismissed, hidden: input.hidden, previousSha: previous.summary?.sha,
  });
  if (previous.summary) await api.updateIssueComment(previous.summary.id, body);
  else await api.createIssueComment(body);
  return `posted to ${target.owner}/${target.repo}#${target.pr}: ${plan.fresh.length} new finding(s) (${inline} inline), ${plan.alreadyPosted.length} already posted, ${plan.resolve.length} marked resolved; summary ${previous.summary ? 'updated' : 'created'}`;
}

/** The permission a refused request needs. */
function permissionFor(method: string | undefined): string {
  return method === 'GET' ? 'pull-requests: read' : 'pull-requests: write';
}

function requestOf(e: unknown): { method?: string; url?: string } {
  if (typeof e !== 'object' || e === null || !('request' in e) || typeof e.request !== 'object' || e.request === null) return {};
  const r = e.request as { method?: unknown; url?: unknown };
  return { ...(typeof r.method === 'string' ? { method: r.method } : {}), ...(typeof r.url === 'string' ? { url: r.url.replace(/\?.*$/, '') } : {}) };
}

/** One line for a failed post, naming what is missing; exit 3. */
function explain(e: unknown, target: GithubTarget): string {
  const f = failureOf(e);
  const { method, url } = requestOf(e);
  const what = method && url ? `${method} ${new URL(url, target.apiUrl).pathname}` : 'a request';
  if (f?.status === 401) return `GitHub refused GITHUB_TOKEN (401 on ${what}): the token is invalid or expired`;
  if (f?.status === 403) return `GitHub refused ${what} (403): the token lacks ${permissionFor(method)} (a workflow needs permissions: pull-requests: write, contents: read)`;
  if (f?.status === 404) return `GitHub answered 404 to ${what}: check --pr ${target.pr} and GITHUB_REPOSITORY ${target.owner}/${target.repo}, or the token cannot see the repository (contents: read)`;
  if (f) return `GitHub answered ${f.status} to ${what}: ${f.message.split('\n')[0] ?? ''}`;
  if (e instanceof Error && 'issues' in e) return `GitHub's answer to ${what} is not what Quorum expects: ${e.message.split('\n')[0] ?? ''}`;
  const code = errorCode(e);
  return `could not post to GitHub (${target.apiUrl}): ${code ?? (e instanceof Error ? e.message.split('\n')[0] : String(e))}`;
}

/** Posts; the line to log, or one line saying why it failed (exit 3), the token never in it. */
export async function postToGithub(input: PostInput): Promise<{ ok: true; line: string } | { ok: false; problem: string }> {
  try {
    return { ok: true, line: await post(input) };
  } catch (e) {
    return { ok: false, problem: scrubKey(explain(e, input.target), input.target.token) };
  }
}
