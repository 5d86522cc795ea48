import { readFile, stat } from 'node:fs/promises';
import { type ReviewTarget, singleTarget } from '../core/domain/target';
import { languageOfFile } from '../core/domain/fileLanguage';
import { UsageError } from './flags';
import { errorCode } from '../shared/guards';

/** Reading the reviewed file and range for the CLI; every problem is a `UsageError` (exit code 2). */

const MAX_LINES = 5000;
const MAX_CHARS = 400_000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export { languageOfFile } from '../core/domain/fileLanguage';

/** The file's lines; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export async function readTarget(file: string, lines: { start: number; end: number } | undefined): Promise<ReviewTarget> {
  let text: string;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new UsageError(`cannot review ${file}: it is a directory`);
    if (info.size > MAX_FILE_BYTES) throw new UsageError(`cannot review ${file}: it is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
    const bytes = await readFile(file);
    if (bytes.includes(0)) throw new UsageError(`cannot review ${file}: it is not a text file`);
    text = bytes.toString('utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = errorCode(e);
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable')}`);
  }
  const all = splitLines(text.replace(/^\uFEFF/, ''));
  const count = text === '' ? 0 : all.length;
  const start = lines?.start ?? 1;
  const end = Math.min(lines?.end ?? count, count);
  if (count === 0) throw new UsageError(`nothing to review: ${file} is empty`);
  if (start > count) throw new UsageError(`--lines ${start}-${lines?.end ?? start} is past the end of ${file} (${count} lines)`);
  const selected = all.slice(start - 1, end);
  const body = selected.join('\n');
  if (body.trim() === '') throw new UsageError(`nothing to review: lines ${start}-${end} of ${file} are blank`);
  if (selected.length > MAX_LINES) throw new UsageError(`the range is ${selected.length} lines; review at most ${MAX_LINES} lines at a time (use --lines)`);
  if (body.length > MAX_CHARS) throw new UsageError(`the range is ${body.length} characters; review at most ${MAX_CHARS} at a time (use --lines)`);
  return singleTarget({ file, language: languageOfFile(file), text: body, startLine: start, endLine: end }, lines ? 'selection' : 'file');
}
