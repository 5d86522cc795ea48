import type { LineRange } from '../domain/lines';
import type { Region, RemovedLines } from '../domain/target';
import type { ChangedFileText } from './types';

/**
 * The regions of a changed file: each hunk with `contextLines` unchanged lines around it, in the NEW file's line
 * numbers, overlapping ones joined; removed lines kept where they went away. Where the editor knows the file's
 * functions (`scopes`), the context is widened to the function that holds the change. A region over `maxTokens`
 * (estimated) is split at line boundaries. Never the whole file unless the whole file changed.
 */

/** A cheap token estimate for planning (the BPE count comes later, in the pipeline's estimate). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.2);
}

/** A function longer than this many lines is not taken whole as context: the context lines do. */
export const MAX_SCOPE_LINES = 200;

/** The smallest scope (function) of the file that holds lines start..end, unless it is too long to send whole. */
function enclosing(scopes: readonly LineRange[] | undefined, start: number, end: number): LineRange | undefined {
  let best: LineRange | undefined;
  for (const s of scopes ?? []) {
    if (s.start > start || s.end < end || s.end - s.start + 1 > MAX_SCOPE_LINES) continue;
    if (!best || s.end - s.start < best.end - best.start) best = s;
  }
  return best;
}

/** Lines start..end with `context` lines around them, widened to the enclosing function where the file's scopes are known. */
function around(file: ChangedFileText, start: number, end: number, context: number): LineRange {
  const scope = enclosing(file.scopes, start, end);
  return { start: Math.min(start - context, scope?.start ?? Infinity), end: Math.max(end + context, scope?.end ?? -Infinity) };
}

function spans(file: ChangedFileText, context: number): LineRange[] {
  const count = file.lines.length;
  const raw: LineRange[] = [];
  for (const a of file.change.added) raw.push(around(file, a.start, a.end, context));
  // A removal shows the lines on both sides of where it was.
  for (const r of file.change.removed) {
    const scope = enclosing(file.scopes, Math.max(1, r.after), Math.max(1, Math.min(count, r.after + 1)));
    raw.push({ start: Math.min(r.after - context + 1, scope?.start ?? Infinity), end: Math.max(r.after + context, scope?.end ?? -Infinity) });
  }
  const clamped = raw
    .map((s) => ({ start: Math.max(1, s.start), end: Math.min(count, s.end) }))
    .filter((s) => s.end >= s.start)
    .sort((a, b) => a.start - b.start);
  const merged: LineRange[] = [];
  for (const s of clamped) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end + 1) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

function within(ranges: readonly LineRange[], start: number, end: number): LineRange[] {
  return ranges.filter((r) => r.end >= start && r.start <= end).map((r) => ({ start: Math.max(start, r.start), end: Math.min(end, r.end) }));
}

function removedWithin(removed: readonly RemovedLines[], start: number, end: number, isLast: boolean): RemovedLines[] {
  // Removed lines after line `end` belong to this region only when nothing follows it (the end of the file).
  return removed.filter((r) => r.after >= start - 1 && (r.after < end || (r.after === end && isLast)));
}

function region(file: ChangedFileText, start: number, end: number, isLast: boolean): Region {
  const changedLines = within(file.change.added, start, end);
  const removed = removedWithin(file.change.removed, start, end, isLast);
  return {
    file: file.change.path,
    language: file.language,
    startLine: start,
    endLine: end,
    text: file.lines.slice(start - 1, end).join('\n'),
    changedLines,
    ...(removed.length > 0 ? { removed } : {}),
  };
}

/** Splits lines start..end into pieces of at most `maxTokens` (estimated; one line may exceed it alone). */
function pieces(file: ChangedFileText, start: number, end: number, maxTokens: number): LineRange[] {
  const out: LineRange[] = [];
  let from = start;
  let size = 0;
  for (let n = start; n <= end; n++) {
    const t = estimateTokens(file.lines[n - 1] ?? '') + 2;
    if (size > 0 && size + t > maxTokens) {
      out.push({ start: from, end: n - 1 });
      from = n;
      size = 0;
    }
    size += t;
  }
  out.push({ start: from, end });
  return out;
}

export function regionsOf(file: ChangedFileText, options: { contextLines: number; maxTokens: number }): Region[] {
  const count = file.lines.length;
  const out: Region[] = [];
  for (const s of spans(file, options.contextLines)) {
    for (const p of pieces(file, s.start, s.end, options.maxTokens)) out.push(region(file, p.start, p.end, p.end === count));
  }
  // Pieces of a split region that hold neither a change nor a removal carry only context: not sent.
  return out.filter((r) => (r.changedLines?.length ?? 0) > 0 || (r.removed?.length ?? 0) > 0);
}
