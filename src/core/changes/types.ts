import type { ChangeAttributes } from './attributes';
import type { LineRange } from '../domain/lines';
import type { RemovedLines, SkippedFile } from '../domain/target';

/** What "changes" means: one definition for both faces. */
export type ChangeKind = 'uncommitted' | 'staged' | 'ref' | 'last-commit';

export interface ChangeRequest {
  kind: ChangeKind;
  /** For `ref`: a branch, tag or commit; the changes run from its merge base with HEAD to the working tree. */
  ref?: string;
}

/** One file of a diff, as the diff says it changed. Paths are repository-relative with forward slashes. */
export interface FileChange {
  path: string;
  /** The path before a rename. */
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** Lines added or changed, in the NEW file's numbering. */
  added: LineRange[];
  /** Lines that went away, placed after a NEW line. */
  removed: RemovedLines[];
  /** Lines added and removed (for the header). */
  additions: number;
  deletions: number;
  /** The new side is a symbolic link (git mode 120000): its "text" is the path it points to. */
  symlink?: true;
}

/**
 * Where the changes come from: `git` on the command line, the Git extension's API in VS Code. A source gives
 * the unified diff (any context size) of the request, the untracked files to include, and the NEW side of a file.
 */
export interface DiffSource {
  /** The repository's root folder (absolute). */
  readonly root: string;
  /** The unified diff text of the request (renames detected); throws `ChangesError` for an unknown ref. */
  diff(request: ChangeRequest): Promise<string>;
  /** Untracked files (not ignored) that the request includes, repository-relative. */
  untracked(request: ChangeRequest): Promise<string[]>;
  /** The NEW side of a file as bytes (the working tree, the index for `staged`, HEAD for `last-commit`). */
  read(request: ChangeRequest, path: string): Promise<Uint8Array | undefined>;
  /**
   * What the git attributes of the request's new side say of these paths: generated (`linguist-generated`) and
   * binary for git's diff (`-diff`, `binary`). Empty sets when the source cannot tell.
   */
  attributes(paths: readonly string[], request: ChangeRequest): Promise<ChangeAttributes>;
  /** Which of these untracked paths are symbolic links in the working tree (tracked ones say so in the diff). */
  symlinks(paths: readonly string[]): Promise<Set<string>>;
}

type ChangesErrorCode = 'not-a-repository' | 'unknown-ref' | 'no-commits' | 'git-failed';

export class ChangesError extends Error {
  constructor(
    readonly code: ChangesErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ChangesError';
  }
}

/** A changed file ready to review: its new text and what changed in it. */
export interface ChangedFileText {
  change: FileChange;
  language: string;
  /** The new file's lines (CRLF and a final newline removed). */
  lines: string[];
  /**
   * Line ranges of the file's functions and methods, where the editor knows the language's symbols: a change's
   * context is widened to the one that holds it. Data from the host; absent on the command line.
   */
  scopes?: LineRange[];
}

export interface ChangeSet {
  request: ChangeRequest;
  files: ChangedFileText[];
  skipped: SkippedFile[];
  /** Lines added and removed over the reviewed files. */
  added: number;
  removed: number;
}
