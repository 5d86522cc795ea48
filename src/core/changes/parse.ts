import parseDiff from 'parse-diff';
import type { LineRange } from '../domain/lines';
import type { RemovedLines } from '../domain/target';
import { readQuoted } from './gitPath';
import type { FileChange } from './types';

/**
 * Reading a unified diff with `parse-diff` (npm): it understands git's extended headers (new, deleted and
 * renamed files, modes), is typed, has no dependencies and is small; `diff`'s `parsePatch` reads hunks well but
 * not git's rename and deletion headers. What is kept of each file: the NEW line numbers of added lines and the
 * removed lines with the NEW line they went after. Context lines of the diff are not used: context is taken from
 * the new file itself, so any diff context size (`-U0` from git, 3 from the Git extension) gives the same result.
 * File names are not taken from `parse-diff`, which keeps git's quoting (`x\ty.py` for a tab) and guesses at names
 * with spaces: each file's section of a git diff is read here, its quoted names undone (`gitPath.ts`), and its
 * hunks by `parse-diff`.
 */

/** The prefixes git puts before a path (`a/`, `b/`; `diff.mnemonicPrefix`: `i/ w/ c/ o/`; `--no-index`: `1/ 2/`). */
const PREFIX = /^[abiwco12]\//;

/** A path as a `---`/`+++`/`diff --git` header gives it (quoted or not), its prefix removed; `/dev/null` as it is. */
function headerName(raw: string): string | undefined {
  let name = raw;
  if (raw.startsWith('"')) {
    const q = readQuoted(raw, 0);
    if (!q) return undefined;
    name = q.path;
  } else if (raw.endsWith('\t')) {
    // Git ends a `---`/`+++` line with a tab when the (unquoted) name holds a space.
    name = raw.slice(0, -1);
  }
  return name === '/dev/null' ? name : name.replace(PREFIX, '');
}

/** The two names of `diff --git A B`: quoted, or the same name twice (git writes two unquoted names only then). */
function gitLineNames(rest: string): [string | undefined, string | undefined] {
  if (rest.startsWith('"')) {
    const a = readQuoted(rest, 0);
    if (!a || rest[a.end] !== ' ') return [undefined, undefined];
    return [headerName(rest.slice(0, a.end)), headerName(rest.slice(a.end + 1))];
  }
  if (rest.endsWith('"')) {
    for (let at = rest.indexOf(' "'); at >= 0; at = rest.indexOf(' "', at + 1)) {
      const b = readQuoted(rest, at + 1);
      if (b && b.end === rest.length) return [headerName(rest.slice(0, at)), headerName(rest.slice(at + 1))];
    }
    return [undefined, undefined];
  }
  const half = (rest.length - 1) / 2;
  const [a, b] = [rest.slice(0, half), rest.slice(half + 1)];
  if (Number.isInteger(half) && rest[half] === ' ' && a.slice(2) === b.slice(2)) return [headerName(a), headerName(b)];
  return [undefined, undefined];
}

/** The old and new names of one file's section of a git diff, from its headers (before the first hunk). */
function sectionNames(section: string): Names {
  const out: Names = { isNew: false, isDeleted: false, isSymlink: false };
  let gitLine: [string | undefined, string | undefined] = [undefined, undefined];
  let minus: string | undefined;
  let plus: string | undefined;
  let renameFrom: string | undefined;
  let renameTo: string | undefined;
  const unprefixed = (raw: string) => (raw.startsWith('"') ? readQuoted(raw, 0)?.path : raw);
  const hunks = section.indexOf('\n@@');
  for (const line of (hunks < 0 ? section : section.slice(0, hunks)).split('\n')) {
    if (line.startsWith('Binary files ')) break;
    if (line.startsWith('diff --git ')) gitLine = gitLineNames(line.slice('diff --git '.length));
    else if (line.startsWith('new file mode ')) {
      out.isNew = true;
      if (line.endsWith(' 120000')) out.isSymlink = true;
    } else if (line.startsWith('new mode ') && line.endsWith(' 120000')) out.isSymlink = true;
    // `index abc..def 120000`: a change that keeps the mode names it here.
    else if (/^index [0-9a-f]+\.\.[0-9a-f]+ 120000$/.test(line)) out.isSymlink = true;
    else if (line.startsWith('deleted file mode ')) out.isDeleted = true;
    else if (line.startsWith('rename from ')) renameFrom = unprefixed(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) renameTo = unprefixed(line.slice('rename to '.length));
    else if (line.startsWith('--- ')) minus = headerName(line.slice(4));
    else if (line.startsWith('+++ ')) plus = headerName(line.slice(4));
  }
  const from = renameFrom ?? minus ?? gitLine[0];
  const to = renameTo ?? plus ?? gitLine[1];
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to;
  return out;
}

/** A git diff cut into one text per file (at each `diff --git` line: a hunk's lines never start with it). */
function sections(text: string): string[] {
  const starts: number[] = [];
  if (text.startsWith('diff --git ')) starts.push(0);
  for (let at = text.indexOf('\ndiff --git '); at >= 0; at = text.indexOf('\ndiff --git ', at + 1)) starts.push(at + 1);
  if (starts.length === 0) return [text];
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
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

type ParsedFile = ReturnType<typeof parseDiff>[number];

/** A file's names as its git headers give them (undefined for a diff without git's headers: parse-diff's names). */
interface Names {
  from?: string;
  to?: string;
  isNew: boolean;
  isDeleted: boolean;
  /** The new side's mode is 120000: a symbolic link. */
  isSymlink: boolean;
}

function toChange(f: ParsedFile, names: Names | undefined): FileChange | undefined {
  const to = names ? names.to : f.to;
  const from = names ? names.from : f.from;
  const deleted = f.deleted === true || names?.isDeleted === true || to === '/dev/null';
  const added = f.new === true || names?.isNew === true || from === '/dev/null';
  const path = deleted ? from : to;
  if (!path || path === '/dev/null') return undefined;
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
  const change: FileChange = {
    path,
    ...(renamed ? { oldPath: from } : {}),
    status: deleted ? 'deleted' : added ? 'added' : renamed ? 'renamed' : 'modified',
    added: toRanges(addedLines),
    removed,
    additions,
    deletions,
  };
  if (names?.isSymlink && !deleted) change.symlink = true;
  return change;
}

export function parseUnifiedDiff(text: string): FileChange[] {
  const files: FileChange[] = [];
  for (const section of sections(text)) {
    if (!section.startsWith('diff --git ')) {
      // A diff without git's headers (not git's): its files as parse-diff reads them.
      for (const f of parseDiff(section)) {
        const change = toChange(f, undefined);
        if (change) files.push(change);
      }
      continue;
    }
    // One file: parse-diff starts a file at each `diff` line.
    const [f] = parseDiff(section);
    const change = f ? toChange(f, sectionNames(section)) : undefined;
    if (change) files.push(change);
  }
  return files;
}

/**
 * The NEW-side line ranges of each file's hunks (context lines included): the lines a pull request review can
 * comment on with `side: RIGHT`. Keyed by the new path; deleted files have none. Read with the same names as
 * `parseUnifiedDiff`, so a renamed or quoted path is the path the review names.
 */
export function hunkRanges(text: string): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  for (const section of sections(text)) {
    const git = section.startsWith('diff --git ');
    for (const f of git ? parseDiff(section).slice(0, 1) : parseDiff(section)) {
      const change = toChange(f, git ? sectionNames(section) : undefined);
      if (!change || change.status === 'deleted') continue;
      const ranges = f.chunks.filter((c) => c.newLines > 0).map((c) => ({ start: c.newStart, end: c.newStart + c.newLines - 1 }));
      out.set(change.path, [...(out.get(change.path) ?? []), ...ranges]);
    }
  }
  return out;
}
