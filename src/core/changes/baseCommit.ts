import { ChangesError, type ChangeRequest } from './types';

/** git's empty tree: what the changes of a repository's first commit (or of one without commits) start from. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** What a diff source can tell of its repository's commits (the git command line, the Git extension's API). */
interface CommitLookup {
  /** HEAD's commit; undefined in a repository without commits. */
  head(): Promise<string | undefined>;
  /** A commit's first parent; undefined for a repository's first commit. */
  firstParent(commit: string): Promise<string | undefined>;
  /** The commit a branch, tag or commit names; undefined when none does. */
  commit(ref: string): Promise<string | undefined>;
  /** The merge base of two commits; undefined when they have no common history (or it is not in this clone). */
  mergeBase(a: string, b: string): Promise<string | undefined>;
  /** Said after "no common history" when the source knows why (a shallow clone); '' otherwise. */
  noMergeBaseHint?(): Promise<string>;
}

/**
 * The commit (or the empty tree) each request's changes start from: HEAD for uncommitted and staged changes,
 * HEAD's parent for the last commit, the merge base of the ref and HEAD for a ref. Asked once per request; a
 * failure is not kept (the next ask tries again). One resolver for both sources, so that they cannot drift.
 */
export class BaseCommits {
  private readonly bases = new Map<string, Promise<string>>();

  constructor(private readonly lookup: CommitLookup) {}

  of(request: ChangeRequest): Promise<string> {
    const key = `${request.kind}:${request.ref ?? ''}`;
    let p = this.bases.get(key);
    if (!p) {
      p = this.compute(request);
      this.bases.set(key, p);
      p.catch(() => this.bases.delete(key));
    }
    return p;
  }

  private async compute(request: ChangeRequest): Promise<string> {
    const ref = request.ref ?? '';
    // A ref that starts with '-' would be read as an option: it names nothing.
    const [head, refCommit] = await Promise.all([this.lookup.head(), request.kind === 'ref' && ref && !ref.startsWith('-') ? this.lookup.commit(ref) : undefined]);
    switch (request.kind) {
      case 'uncommitted':
      case 'staged':
        return head ?? EMPTY_TREE;
      case 'last-commit':
        if (!head) throw new ChangesError('no-commits', 'the repository has no commits yet');
        // The first commit of a repository is compared with the empty tree: every file it holds is added.
        return (await this.lookup.firstParent(head)) ?? EMPTY_TREE;
      case 'ref': {
        if (!refCommit) throw new ChangesError('unknown-ref', `unknown ref "${ref}": no branch, tag or commit of that name`);
        if (!head) return EMPTY_TREE;
        const base = await this.lookup.mergeBase(refCommit, head);
        if (base) return base;
        const hint = (await this.lookup.noMergeBaseHint?.()) ?? '';
        throw new ChangesError('unknown-ref', `"${ref}" has no common history (no merge base) with HEAD${hint}`);
      }
    }
  }
}
