import { hiddenReason, type NoiseFilter } from '../../core/review/noise';
import type { HiddenReason } from '../../shared/reviewCodes';
import type { Region } from '../../core/domain/target';
import type { ReviewEvent } from '../../core/domain/events';

/**
 * A session's bookkeeping of its findings, apart from VS Code: which region holds a finding's lines, the lines as
 * they read when the review started, and which findings the noise controls hide. Unit-tested without VS Code.
 */

/** The index of the region of `file` that holds lines start..end (or, failing that, line start); -1 when none. */
export function regionIndexOf(regions: readonly Region[], file: string, start: number, end: number): number {
  const holds = (r: Region, a: number, b: number) => r.file === file && r.startLine <= a && b <= r.endLine;
  const i = regions.findIndex((r) => holds(r, start, end));
  return i >= 0 ? i : regions.findIndex((r) => holds(r, start, start));
}

/** The text of file lines `start..end` (1-based) within `region`, as the region read; '' without one. */
export function originalLinesOf(region: Pick<Region, 'text' | 'startLine'> | undefined, start: number, end: number): string {
  if (!region) return '';
  const lines = region.text.split(/\r\n|\r|\n/);
  return lines.slice(start - region.startLine, end - region.startLine + 1).join('\n');
}

/**
 * Applies the noise controls to an event before it is pushed: a streamed finding is judged on its own, by the
 * function the review's noise step uses (`hiddenReason`); at the end, the split the review's noise step made of
 * the merged findings (carried by `review-done`) replaces those judgements. True when `hidden` changed.
 */
export function judgeNoise(hidden: Map<string, HiddenReason>, noise: NoiseFilter, event: ReviewEvent): boolean {
  if (event.type === 'finding') {
    const reason = hiddenReason(event.finding, noise);
    if (reason) hidden.set(event.finding.id, reason);
    return reason !== undefined;
  }
  if (event.type !== 'review-done') return false;
  const before = JSON.stringify([...hidden]);
  hidden.clear();
  for (const h of event.noise?.hidden ?? []) hidden.set(h.finding.id, h.reason);
  return JSON.stringify([...hidden]) !== before;
}
