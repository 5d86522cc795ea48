import type { Finding } from '../../core/domain/finding';
import type { Commentable, Placement } from './diffLines';

/**
 * One posting interface for every code host (`--post github|gitlab`): the review's output stage (post.ts) decides
 * what to post, what is already there and what was resolved; an adapter only reads and writes its host. A third
 * host (Bitbucket, Azure DevOps) is one more `ReviewHost`.
 */

/** A finding to post and its keys (fingerprints.ts): the same finding has the same keys on every push. */
export interface PostItem {
  finding: Finding;
  keys: string[];
}

/** A thread Quorum opened on an earlier run. */
export interface PreviousThread {
  id: string;
  keys: readonly string[];
  /** Already marked resolved (by Quorum's reply, or on the host). */
  resolved: boolean;
  /** Resolved on the host by a person, not by Quorum (GitLab: resolved with no Quorum reply saying so); GitHub's REST API does not tell. */
  resolvedByPerson?: boolean;
}

/** What earlier runs left on the pull or merge request, as the token's own user wrote it. */
export interface Previous {
  threads: PreviousThread[];
  /** Keys posted for good (threads, and bodies that are never edited): not posted again. */
  known: ReadonlySet<string>;
  /** Keys the summary listed last time (a summary is edited, so they may be listed again or become threads). */
  listed: ReadonlySet<string>;
  summary?: { id: string; sha: string | null };
}

/** A finding placed on the diff's lines, with the replacement for exactly those lines, or other proposed code. */
export interface Draft {
  item: PostItem;
  place: Placement;
  suggestion?: string;
  otherCode?: string;
}

export interface HostNouns {
  /** `GitHub`, `GitLab` */
  host: string;
  /** `pull request`, `merge request` */
  request: string;
  /** Where a finding with no thread goes: `review body`, `summary` */
  fallback: string;
  /** `acme/widgets#7`, `group/project!7` */
  where: string;
}

export interface ReviewHost {
  readonly nouns: HostNouns;
  /** The secret to keep out of every line. */
  readonly token: string;
  /** The head commit of the pull or merge request. */
  head(): Promise<string>;
  /** The lines a thread may go on, from the local diff's hunks and the host's own view of the diff. */
  lines(local: Commentable, log: (line: string) => void): Promise<Commentable>;
  previous(): Promise<Previous>;
  /** Opens the threads; returns how many opened and the items the summary must list (refused, or with no line). */
  publish(headSha: string, drafts: readonly Draft[], outside: readonly PostItem[], log: (line: string) => void): Promise<{ inline: number; unplaced: PostItem[] }>;
  /** Replies `body` to an earlier thread whose finding is gone, and resolves it where the host can. */
  resolve(thread: PreviousThread, body: string): Promise<void>;
  /** Creates the summary, or edits the earlier one. */
  saveSummary(previous: Previous['summary'], body: string): Promise<void>;
  /** One line for a failed request, naming what is missing (never the token). */
  explain(e: unknown): string;
}
