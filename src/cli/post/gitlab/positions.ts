import { createHash } from 'node:crypto';
import type { LineRange } from '../../../core/domain/lines';
import { hunksOfPatch, type Placement } from '../diffLines';
import type { DiffRefs, LineAnchor, MrDiff, TextPosition } from './api';

/**
 * Where a thread goes in GitLab's diff. A line of the new side is either added (GitLab wants `new_line` only) or
 * unchanged (`old_line` and `new_line`: https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff);
 * a thread over several lines also names its first and last line in `line_range`, each with GitLab's
 * `line_code`: the SHA-1 of the file's path, then the line's old and new position
 * (`Gitlab::Git.diff_line_code`, gitlab-org/gitlab lib/gitlab/git.rb). The positions are counted as
 * `Gitlab::Diff::Parser` counts them (lib/gitlab/diff/parser.rb): from each hunk header, an added line carries
 * the old side's counter as it stands, a removed line the new side's.
 */

interface NewLine {
  /** The old side's position (for an added line: the old counter where it was inserted). */
  oldPos: number;
  added: boolean;
}

export interface FileLines {
  oldPath: string;
  newPath: string;
  /** The new-side lines the diff shows, by number. */
  lines: ReadonlyMap<number, NewLine>;
  hunks: LineRange[];
}

export function lineCode(path: string, oldPos: number, newPos: number): string {
  return `${createHash('sha1').update(path).digest('hex')}_${oldPos}_${newPos}`;
}

const HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The new-side lines of one file's diff; undefined for a deleted file (no new side to comment on). */
export function fileLines(d: MrDiff): FileLines | undefined {
  if (d.deleted_file) return undefined;
  const patch = d.diff ?? '';
  const lines = new Map<number, NewLine>();
  let oldPos = 0;
  let newPos = 0;
  for (const line of patch.split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      oldPos = Number(header[1]);
      newPos = Number(header[2]);
    } else if (line.startsWith('+')) {
      lines.set(newPos++, { oldPos, added: true });
    } else if (line.startsWith('-')) {
      oldPos++;
    } else if (line.startsWith(' ')) {
      lines.set(newPos++, { oldPos: oldPos++, added: false });
    }
  }
  return { oldPath: d.old_path, newPath: d.new_path, lines, hunks: hunksOfPatch(patch) };
}

function anchor(file: FileLines, n: number): LineAnchor {
  const line = file.lines.get(n);
  if (!line) throw new Error(`line ${n} of ${file.newPath} is not in GitLab's diff`);
  const code = lineCode(file.newPath, line.oldPos, n);
  return line.added ? { line_code: code, type: 'new', new_line: n } : { line_code: code, type: 'old', old_line: line.oldPos, new_line: n };
}

/** The position of a thread on `place` (its last line is the thread's line, as GitLab's own multi-line comments). */
export function positionOf(refs: DiffRefs, file: FileLines, place: Placement): TextPosition {
  const end = anchor(file, place.line);
  const base: TextPosition = {
    base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha, position_type: 'text',
    old_path: file.oldPath, new_path: file.newPath, new_line: place.line,
    ...(end.old_line !== undefined ? { old_line: end.old_line } : {}),
  };
  return place.startLine < place.line ? { ...base, line_range: { start: anchor(file, place.startLine), end } } : base;
}
