import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hunkRanges } from '../../core/changes/parse';
import type { Finding } from '../../core/domain/finding';
import type { LineRange } from '../../core/domain/lines';

/**
 * Which lines of which files a thread may go on (the new side): the new-side lines of the hunks of the pull or
 * merge request's diff — computed from the local `git diff base...head` (three context lines, as GitHub and
 * GitLab show it) and checked against the patches the host lists, so that a line only one side shows is not
 * commented on (GitHub refuses the whole review with a 422, GitLab the thread with a 400).
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

/** The new-side ranges of the hunks of one file's patch (`@@ -a,b +c,d @@` headers; empty hunks left out). */
export function hunksOfPatch(patch: string): LineRange[] {
  const ranges: LineRange[] = [];
  for (const m of patch.matchAll(HUNK)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (count > 0) ranges.push({ start, end: start + count - 1 });
  }
  return ranges;
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
export interface Placement {
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
