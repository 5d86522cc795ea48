import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hunkRanges } from '../../core/changes/parse';
import type { Finding, LineRange } from '../../core/review/types';
import type { PullFile } from './api';

/**
 * Which lines of which files a review may comment on (RIGHT side): the new-side lines of the hunks of the pull
 * request's diff — computed from the local `git diff base...head` (three context lines, as GitHub shows it) and
 * checked against the patches GitHub lists for the pull request, so that a line only one side shows is not
 * commented on (GitHub would refuse the whole review with a 422).
 */

export type Commentable = ReadonlyMap<string, readonly LineRange[]>;

const run = promisify(execFile);

async function git(root: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

export async function headCommit(root: string): Promise<string> {
  return (await git(root, ['rev-parse', '--verify', 'HEAD'])).trim();
}

/** The hunks of `git diff base...head` in the local repository. */
export async function localHunks(root: string, base: string, head: string): Promise<Map<string, LineRange[]>> {
  const diff = await git(root, ['-c', 'core.quotePath=true', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M', '-U3', '--src-prefix=a/', '--dst-prefix=b/', `${base}...${head}`, '--']);
  return hunkRanges(diff);
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm;

/** The hunks of GitHub's patches (a file without a patch — binary, too large — has none). */
export function patchHunks(files: readonly PullFile[]): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  for (const f of files) {
    if (f.status === 'removed' || f.patch === undefined) continue;
    const ranges: LineRange[] = [];
    for (const m of f.patch.matchAll(HUNK)) {
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      if (count > 0) ranges.push({ start, end: start + count - 1 });
    }
    out.set(f.filename, ranges);
  }
  return out;
}

/** The lines both diffs show, file by file (each range stays within one hunk of each). */
export function intersect(a: Commentable, b: Commentable): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  for (const [file, ours] of a) {
    const theirs = b.get(file) ?? [];
    const both: LineRange[] = [];
    for (const x of ours) {
      for (const y of theirs) {
        const start = Math.max(x.start, y.start);
        const end = Math.min(x.end, y.end);
        if (start <= end) both.push({ start, end });
      }
    }
    if (both.length > 0) out.set(file, both.sort((p, q) => p.start - q.start));
  }
  return out;
}

/** Where a finding's comment goes: its lines (or the part of them in one hunk); `exact` when all of them. */
interface Placement {
  startLine: number;
  line: number;
  exact: boolean;
}

export function placementOf(f: Pick<Finding, 'file' | 'startLine' | 'endLine'>, commentable: Commentable): Placement | undefined {
  for (const r of commentable.get(f.file) ?? []) {
    const start = Math.max(f.startLine, r.start);
    const end = Math.min(f.endLine, r.end);
    if (start <= end) return { startLine: start, line: end, exact: start === f.startLine && end === f.endLine };
  }
  return undefined;
}
