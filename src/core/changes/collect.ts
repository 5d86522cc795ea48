import { languageOfFile } from '../domain/fileLanguage';
import type { SkippedFile } from '../domain/target';
import { parseUnifiedDiff } from './parse';
import { decodeText, isBinary, looksGenerated, looksMinified, skipByName, splitFileLines } from './skip';
import type { ChangedFileText, ChangeRequest, ChangeSet, DiffSource, FileChange } from './types';

interface CollectOptions {
  /** Files larger than this many bytes are skipped as `too-large`. */
  maxFileBytes: number;
  /** Only these paths (repository-relative), e.g. the files picked in the Source Control view. */
  only?: readonly string[];
}

/** An untracked file is added in full. */
function untrackedChange(path: string, lineCount: number): FileChange {
  return { path, status: 'added', added: lineCount > 0 ? [{ start: 1, end: lineCount }] : [], removed: [], additions: lineCount, deletions: 0 };
}

/**
 * The changes of a request: each changed file with its new text, or the reason it is skipped. Deleted files are
 * skipped (`deleted`), symbolic links too (`symlink`, git mode 120000, or a link among the untracked files); renamed files are kept under their new path with only their changed lines.
 */
export async function collectChanges(source: DiffSource, request: ChangeRequest, options: CollectOptions): Promise<ChangeSet> {
  // Two git processes at once: on a busy machine each one's start-up is most of planning's time.
  const [diff, others] = await Promise.all([source.diff(request), request.kind === 'uncommitted' || request.kind === 'ref' ? source.untracked(request) : []]);
  const changes = parseUnifiedDiff(diff);
  const known = new Set(changes.map((c) => c.path));
  const untracked = others.filter((p) => !known.has(p));
  const only = options.only ? new Set(options.only) : undefined;
  const wanted = (p: string) => !only || only.has(p);
  const skipped: SkippedFile[] = [];
  const candidates: { path: string; change: FileChange | undefined }[] = [];
  // A file that became a link (or a link that became a file) is a deletion and an addition of one path: it is the addition.
  const readded = new Set(changes.filter((c) => c.status !== 'deleted').map((c) => c.path));
  for (const c of changes) {
    if (!wanted(c.path) || (c.status === 'deleted' && readded.has(c.path))) continue;
    if (c.status === 'deleted') skipped.push({ file: c.path, reason: 'deleted' });
    // A link's blob is the path it points to, and reading it in the working tree follows it: never its text.
    else if (c.symlink) skipped.push({ file: c.path, reason: 'symlink' });
    // A file without hunks is read too: a binary one is listed as skipped; a pure rename or mode change drops out below.
    else candidates.push({ path: c.path, change: c });
  }
  for (const p of untracked) if (wanted(p)) candidates.push({ path: p, change: undefined });

  const byName = candidates.filter((c) => {
    const reason = skipByName(c.path);
    if (reason) skipped.push({ file: c.path, reason });
    return !reason;
  });
  const untrackedLeft = byName.filter((c) => !c.change).map((c) => c.path);
  const [attributes, read, links] = await Promise.all([
    byName.length > 0 ? source.attributes(byName.map((c) => c.path), request) : { generated: new Set<string>(), binary: new Set<string>() },
    Promise.all(byName.map((c) => source.read(request, c.path))),
    untrackedLeft.length > 0 ? source.symlinks(untrackedLeft) : new Set<string>(),
  ]);
  const files: ChangedFileText[] = [];
  byName.forEach((c, i) => {
    const text = textOf(read[i], { path: c.path, links, attributes, maxFileBytes: options.maxFileBytes });
    if (!Array.isArray(text)) {
      skipped.push({ file: c.path, reason: text });
      return;
    }
    const change = c.change ?? untrackedChange(c.path, text.length);
    if (change.added.length > 0 || change.removed.length > 0) files.push({ change, language: languageOfFile(c.path), lines: text });
  });
  files.sort((a, b) => (a.change.path < b.change.path ? -1 : a.change.path > b.change.path ? 1 : 0));
  skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return {
    request,
    files,
    skipped,
    added: files.reduce((n, f) => n + f.change.additions, 0),
    removed: files.reduce((n, f) => n + f.change.deletions, 0),
  };
}

/** A changed file's lines, or why it is not reviewed (a link, generated, marked or detected binary, unreadable, too large, minified). */
function textOf(bytes: Uint8Array | undefined, file: { path: string; links: ReadonlySet<string>; attributes: { generated: ReadonlySet<string>; binary: ReadonlySet<string> }; maxFileBytes: number }): string[] | SkippedFile['reason'] {
  if (file.links.has(file.path)) return 'symlink';
  if (file.attributes.generated.has(file.path)) return 'generated';
  // Marked binary (`-diff`, `binary`): git shows no lines of it, and neither does Quorum.
  if (file.attributes.binary.has(file.path)) return 'binary';
  if (!bytes) return 'unreadable';
  if (bytes.length > file.maxFileBytes) return 'too-large';
  if (isBinary(bytes)) return 'binary';
  const lines = splitFileLines(decodeText(bytes));
  if (looksGenerated(lines)) return 'generated';
  if (looksMinified(lines)) return 'minified';
  return lines;
}
