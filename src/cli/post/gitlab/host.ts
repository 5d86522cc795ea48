import { commentBody } from '../../../core/report/pullRequest';
import type { LineRange } from '../../../core/domain/lines';
import { errorCode } from '../../../shared/guards';
import { intersect, type Commentable } from '../diffLines';
import type { Draft, HostNouns, PostItem, Previous, PreviousThread, ReviewHost } from '../host';
import { GitlabApi, type DiffRefs } from './api';
import { GitlabClient, GitlabError, GitlabShapeError, GitlabUnreachable } from './client';
import { fileLines, positionOf, type FileLines } from './positions';
import { readPrevious } from './previous';
import type { GitlabTarget } from './target';

/**
 * The GitLab adapter of `--post gitlab`: one diff thread per finding on the merge request's current `diff_refs`
 * (a 400 on one thread moves that finding into the summary), a "resolved" reply and GitLab's own resolve for a
 * thread whose finding is gone, and one summary note (with the findings that have no thread) edited in place.
 */

/** The suggestion's range relative to the thread's (last) line: `-A+0` replaces the A lines above it and it. */
const suggestionInfo = (d: Draft) => `suggestion:-${d.place.line - d.place.startLine}+0`;

export class GitlabHost implements ReviewHost {
  readonly nouns: HostNouns;
  readonly token: string;
  private readonly api: GitlabApi;
  private refs: DiffRefs | undefined;
  private readonly files = new Map<string, FileLines>();

  constructor(private readonly target: GitlabTarget, version: string, log: (line: string) => void) {
    this.api = new GitlabApi(new GitlabClient(target, version, log));
    this.token = target.token;
    this.nouns = { host: 'GitLab', request: 'merge request', fallback: 'summary', where: `GitLab project ${target.project}!${target.mr}` };
  }

  async head(): Promise<string> {
    const mr = await this.api.mergeRequest();
    this.refs = mr.diff_refs ?? undefined;
    const head = mr.diff_refs?.head_sha ?? mr.sha;
    if (!head) throw new Error('GitLab names no head commit for the merge request yet (no diff_refs): run again once its diff is ready');
    return head;
  }

  async lines(local: Commentable, log: (line: string) => void): Promise<Commentable> {
    if (!this.refs) {
      log('GitLab has not prepared the merge request\'s diff (no diff_refs): findings go into the summary');
      return new Map();
    }
    const hunks = new Map<string, LineRange[]>();
    for (const d of await this.api.diffs()) {
      const file = fileLines(d);
      if (!file) continue;
      this.files.set(file.newPath, file);
      hunks.set(file.newPath, file.hunks);
    }
    return intersect(local, hunks);
  }

  async previous(): Promise<Previous> {
    return readPrevious(await this.api.user(), await this.api.discussions());
  }

  async publish(_headSha: string, drafts: readonly Draft[], outside: readonly PostItem[], log: (line: string) => void): Promise<{ inline: number; unplaced: PostItem[] }> {
    const unplaced = [...outside];
    let inline = 0;
    for (const d of drafts) {
      const file = this.files.get(d.item.finding.file);
      if (!file || !this.refs) {
        unplaced.push(d.item);
        continue;
      }
      const { finding, keys } = d.item;
      try {
        await this.api.createDiscussion(commentBody(finding, keys, d.suggestion, d.otherCode, suggestionInfo(d)), positionOf(this.refs, file, d.place));
        inline++;
      } catch (e) {
        if (!(e instanceof GitlabError) || e.status !== 400) throw e;
        log(`GitLab refused the thread on ${finding.file}:${d.place.line} (400${e.detail ? `: ${e.detail}` : ''}); it is in the summary`);
        unplaced.push(d.item);
      }
    }
    return { inline, unplaced };
  }

  /**
   * Resolves, replies, and resolves again (the reply is a note of its own, which GitLab may count as unresolved):
   * a token whose role cannot resolve (403) writes nothing, and once replied the thread is done (a person who
   * reopens it is not overruled on the next push).
   */
  async resolve(thread: PreviousThread, body: string): Promise<void> {
    await this.api.resolveDiscussion(thread.id);
    await this.api.reply(thread.id, body);
    await this.api.resolveDiscussion(thread.id);
  }

  async saveSummary(previous: Previous['summary'], body: string): Promise<void> {
    if (previous) await this.api.updateNote(previous.id, body);
    else await this.api.createNote(body);
  }

  explain(e: unknown): string {
    const t = this.target;
    if (e instanceof GitlabShapeError) return e.message;
    if (e instanceof GitlabUnreachable) return `could not post to GitLab (${t.apiUrl}): no answer to ${e.method} ${e.path} (${e.code}); check CI_API_V4_URL`;
    if (!(e instanceof GitlabError)) {
      const code = errorCode(e);
      return `could not post to GitLab (${t.apiUrl}): ${code ?? (e instanceof Error ? e.message.split('\n')[0] : String(e))}`;
    }
    const what = `${e.method} ${e.path}`;
    if (e.status === 401) return `GitLab refused GITLAB_TOKEN (401 on ${what}): the token is invalid, expired or revoked; --post gitlab needs a project or personal access token with the api scope`;
    if (e.status === 403 && e.error === 'insufficient_scope') return `GitLab refused ${what} (403 insufficient_scope): GITLAB_TOKEN lacks the api scope (read_api cannot post); create the token with the api scope`;
    if (e.status === 403) return `GitLab refused ${what} (403): GITLAB_TOKEN needs the api scope and a role that may comment on and resolve merge request threads (Developer)`;
    if (e.status === 404) return `GitLab answered 404 to ${what}: check --mr ${t.mr} (CI_MERGE_REQUEST_IID) and CI_PROJECT_ID ${t.project}, or the token cannot see the project (api scope)`;
    return `GitLab answered ${e.status} to ${what}${e.detail ? `: ${e.detail}` : ''}`;
  }
}
