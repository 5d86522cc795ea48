import { commentBody, reviewBody } from '../../../core/report/pullRequest';
import { errorCode } from '../../../shared/guards';
import { intersect, type Commentable } from '../diffLines';
import type { Draft, HostNouns, PostItem, Previous, PreviousThread, ReviewHost } from '../host';
import { GithubApi, type DraftComment } from './api';
import { failureOf, githubClient } from './client';
import { patchHunks } from './patches';
import { readPrevious } from './previous';
import type { GithubTarget } from './target';

/**
 * The GitHub adapter of `--post github`: one pull request review per run (inline comments on the diff's lines, the
 * findings without a line in its body), "resolved" replies, and one summary issue comment edited in place.
 */

const isUnprocessable = (e: unknown) => failureOf(e)?.status === 422;

function commentOf(d: Draft): DraftComment {
  const { finding, keys } = d.item;
  const range = d.place.startLine < d.place.line ? { start_line: d.place.startLine, start_side: 'RIGHT' as const } : {};
  return { path: finding.file, line: d.place.line, side: 'RIGHT', ...range, body: commentBody(finding, keys, d.suggestion, d.otherCode, 'suggestion') };
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

export class GithubHost implements ReviewHost {
  readonly nouns: HostNouns;
  readonly token: string;
  private readonly api: GithubApi;

  constructor(private readonly target: GithubTarget, version: string, log: (line: string) => void) {
    this.api = new GithubApi(githubClient(target, version, log), target);
    this.token = target.token;
    this.nouns = { host: 'GitHub', request: 'pull request', fallback: 'review body', where: `${target.owner}/${target.repo}#${target.pr}` };
  }

  async head(): Promise<string> {
    return (await this.api.pull()).head.sha;
  }

  async lines(local: Commentable, log: (line: string) => void): Promise<Commentable> {
    try {
      return intersect(local, patchHunks(await this.api.files()));
    } catch (e) {
      if (failureOf(e)?.status !== 404) throw e;
      log('GitHub does not list the pull request\'s files (404): comment lines are checked against the local diff only');
      return local;
    }
  }

  async previous(): Promise<Previous> {
    return readPrevious(await this.api.reviewComments(), await this.api.reviews(), await this.api.issueComments());
  }

  /**
   * One review; GitHub refuses a whole review (422) when one comment's line is not in its diff: each comment is
   * then left out in turn, and the first review GitHub accepts has the refused one in its body. When no single
   * comment explains the refusal, every finding goes into the body. The summary lists nothing: the body has it.
   */
  async publish(headSha: string, drafts: readonly Draft[], outside: readonly PostItem[], log: (line: string) => void): Promise<{ inline: number; unplaced: PostItem[] }> {
    const attempt = (inline: readonly Draft[], body: readonly PostItem[]) => this.api.createReview(headSha, reviewBody(headSha, inline.length, body), inline.map(commentOf));
    try {
      await attempt(drafts, outside);
      return { inline: drafts.length, unplaced: [] };
    } catch (e) {
      if (!isUnprocessable(e) || drafts.length === 0) throw e;
    }
    for (const [i, refused] of drafts.entries()) {
      if (drafts.length === 1) break;
      const rest = drafts.filter((_, j) => j !== i);
      try {
        await attempt(rest, [...outside, refused.item]);
        log(`GitHub refused a comment on ${refused.item.finding.file}:${refused.place.line} (422); it is in the review body`);
        return { inline: rest.length, unplaced: [] };
      } catch (e) {
        if (!isUnprocessable(e)) throw e;
      }
    }
    log(`GitHub refused the inline comments (422); all ${drafts.length} are in the review body`);
    await attempt([], [...outside, ...drafts.map((d) => d.item)]);
    return { inline: 0, unplaced: [] };
  }

  async resolve(thread: PreviousThread, body: string): Promise<void> {
    await this.api.reply(Number(thread.id), body);
  }

  async saveSummary(previous: Previous['summary'], body: string): Promise<void> {
    if (previous) await this.api.updateIssueComment(Number(previous.id), body);
    else await this.api.createIssueComment(body);
  }

  explain(e: unknown): string {
    const target = this.target;
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
}
