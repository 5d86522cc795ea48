import { contextInfo } from '../context/types';
import type { Finding, Region, RegionInfo, ReviewTarget, TargetInfo } from './types';
import type { TargetKind } from '../../shared/reviewCodes';

/** Building and reading review targets: a set of regions across files (a selection is a set of one). */

/** A target of one region: a selection, or a whole file. */
export function singleTarget(region: Region, kind: Extract<TargetKind, 'selection' | 'file'> = 'selection'): ReviewTarget {
  return { kind, label: `${region.file}:${region.startLine}-${region.endLine}`, regions: [region] };
}

function regionInfo(r: Pick<Region, 'file' | 'language' | 'startLine' | 'endLine'>): RegionInfo {
  return { file: r.file, language: r.language, startLine: r.startLine, endLine: r.endLine };
}

export function targetInfo(target: ReviewTarget): TargetInfo {
  const context = target.context && target.context.length > 0 ? { context: target.context.map(contextInfo), contextTokens: target.context.reduce((n, s) => n + s.tokens, 0) } : {};
  const tools = target.toolResults && target.toolResults.length > 0 ? { toolResults: target.toolResults.map((r) => ({ ...r })) } : {};
  return { kind: target.kind, label: target.label, regions: target.regions.map(regionInfo), ...(target.skipped ? { skipped: target.skipped.map((s) => ({ ...s })) } : {}), ...context, ...tools };
}

/** The only region of a selection or file review; undefined for a target of several regions. */
export function soleRegion<R>(target: { regions: readonly R[] }): R | undefined {
  return target.regions.length === 1 ? target.regions[0] : undefined;
}

/** Distinct files of a target, in the order of their first region. */
export function filesOf(target: { regions: readonly { file: string }[] }): string[] {
  return [...new Set(target.regions.map((r) => r.file))];
}

/** A path as models and users write it, for comparing: forward slashes, no `./`, case kept. */
function normalizePath(file: string): string {
  return file.trim().replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/{2,}/g, '/');
}

/**
 * The file of a target that a model's `file` value names: exact, then ignoring case, then by path suffix
 * (a model may drop or add leading folders). Undefined when none matches or the suffix is ambiguous.
 */
export function matchFile(files: readonly string[], named: string): string | undefined {
  const want = normalizePath(named);
  if (!want) return undefined;
  const exact = files.find((f) => normalizePath(f) === want);
  if (exact !== undefined) return exact;
  const lower = want.toLowerCase();
  const folded = files.filter((f) => normalizePath(f).toLowerCase() === lower);
  if (folded.length === 1) return folded[0];
  const suffix = files.filter((f) => {
    const n = normalizePath(f).toLowerCase();
    return n.endsWith('/' + lower) || lower.endsWith('/' + n);
  });
  return suffix.length === 1 ? suffix[0] : undefined;
}

/** Whether lines start..end touch a changed line of the regions of `file` (every line counts without change data). */
export function touchesChange(regions: readonly Pick<Region, 'file' | 'startLine' | 'endLine' | 'changedLines'>[], finding: Pick<Finding, 'file' | 'startLine' | 'endLine'>): boolean {
  for (const r of regions) {
    if (r.file !== finding.file) continue;
    if (finding.endLine < r.startLine || finding.startLine > r.endLine) continue;
    if (!r.changedLines) return true;
    if (r.changedLines.some((c) => c.start <= finding.endLine && finding.startLine <= c.end)) return true;
  }
  return false;
}
