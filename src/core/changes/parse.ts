import parseDiff from 'parse-diff';
import type { LineRange, RemovedLines } from '../review/types';
import type { FileChange } from './types';

/**
 * Reading a unified diff with `parse-diff` (npm): it understands git's extended headers (new, deleted and
 * renamed files, modes), is typed, has no dependencies and is small; `diff`'s `parsePatch` reads hunks well but
 * not git's rename and deletion headers. What is kept of each file: the NEW line numbers of added lines and the
 * removed lines with the NEW line they went after. Context lines of the diff are not used: context is taken from
 * the new file itself, so any diff context size (`-U0` from git, 3 from the Git extension) gives the same result.
 */

/** Git quotes unusual paths (`"a\tb"`); parse-diff keeps the quotes. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  try {
    const parsed: unknown = JSON.parse(path);
    return typeof parsed === 'string' ? parsed : path.slice(1, -1);
  } catch {
    return path.slice(1, -1);
  }
}

function toRanges(lines: readonly number[]): LineRange[] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: LineRange[] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n === last.end + 1) last.end = n;
    else out.push({ start: n, end: n });
  }
  return out;
}

const stripCr = (s: string) => (s.endsWith('\r') ? s.slice(0, -1) : s);

export function parseUnifiedDiff(text: string): FileChange[] {
  const files: FileChange[] = [];
  for (const f of parseDiff(text)) {
    const to = f.to !== undefined ? unquote(f.to) : undefined;
    const from = f.from !== undefined ? unquote(f.from) : undefined;
    const deleted = f.deleted === true || to === '/dev/null';
    const added = f.new === true || from === '/dev/null';
    const path = deleted ? from : to;
    if (!path || path === '/dev/null') continue;
    const addedLines: number[] = [];
    const removed: RemovedLines[] = [];
    let additions = 0;
    let deletions = 0;
    for (const chunk of f.chunks) {
      // The NEW line before the next line of the hunk: removed lines are shown after it.
      let newLine = chunk.newStart - 1;
      if (chunk.newLines === 0) newLine = chunk.newStart; // `+N,0`: nothing added; N is the line before.
      for (const c of chunk.changes) {
        if (c.content.startsWith('\\')) continue; // "\ No newline at end of file"
        if (c.type === 'add') {
          newLine = c.ln;
          addedLines.push(c.ln);
          additions++;
        } else if (c.type === 'del') {
          deletions++;
          const last = removed[removed.length - 1];
          const line = stripCr(c.content.slice(1));
          if (last && last.after === newLine) last.lines.push(line);
          else removed.push({ after: newLine, lines: [line] });
        } else {
          newLine = c.ln2;
        }
      }
    }
    const renamed = !deleted && !added && from !== undefined && from !== to;
    files.push({
      path,
      ...(renamed ? { oldPath: from } : {}),
      status: deleted ? 'deleted' : added ? 'added' : renamed ? 'renamed' : 'modified',
      added: toRanges(addedLines),
      removed,
      additions,
      deletions,
    });
  }
  return files;
}
