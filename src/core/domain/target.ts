import { contextInfo, type ContextInfo, type ContextSnippet, type ContextStatus, type CutContext } from './context';
import type { Finding } from './finding';
import type { LineRange } from './lines';
import type { SkipReason, TargetKind } from '../../shared/reviewCodes';
import type { ToolResult } from './toolResult';

/** What is reviewed — a set of regions across files (a selection is a set of one) — and how to build and read it. */

/** Lines of the OLD file that a change removed, shown to the agents (marked as removed) after NEW line `after`. */
export interface RemovedLines {
  /** The NEW file's line they were removed after; `startLine - 1` when they went before the region's first line. */
  after: number;
  lines: string[];
}

/** One reviewed stretch of one file. Lines are 1-based and inclusive, in the (new) FILE's numbering. */
export interface Region {
  /** A path or URI string, shown to users and used in prompts (repository-relative, forward slashes, for changes). */
  file: string;
  /** A VS Code language id or a file extension's language (e.g. `typescript`, `python`). */
  language: string;
  /** The text of lines startLine..endLine. */
  text: string;
  startLine: number;
  endLine: number;
  /** For changes: the lines added or modified (the rest of the region is context). Absent: every line counts. */
  changedLines?: LineRange[];
  /** For changes: what went away, for the agents to see. */
  removed?: RemovedLines[];
}

export interface SkippedFile {
  file: string;
  reason: SkipReason;
}

/** What is reviewed: a set of regions across files. A selection (or a whole file) is a set of one. */
export interface ReviewTarget {
  kind: TargetKind;
  /** Says what was reviewed, for headers and logs (e.g. `src/a.ts:10-40`, `Uncommitted changes`). */
  label: string;
  regions: Region[];
  /** Files of the changes that are not reviewed, and why. */
  skipped?: SkippedFile[];
  /** Code around the regions, sent read-only beside them (never reviewed): definitions, callers, enclosing signatures. */
  context?: ContextSnippet[];
  /** Context chosen but left out for the token budget (`quorum.context.maxTokens`). */
  contextCut?: CutContext[];
  /** What the project's tools already report on the regions, sent read-only (core/toolResults): files named as the regions name theirs. */
  toolResults?: ToolResult[];
  /** How many regions had their context chosen, and whether the time budget stopped it (the whole target of a review). */
  contextStatus?: ContextStatus;
}

/** A region as results describe it: without its text; `reused` when a re-review carried its findings over instead of sending it. */
type RegionInfo = Pick<Region, 'file' | 'language' | 'startLine' | 'endLine'> & { reused?: boolean };

/** A target as results describe it. */
export interface TargetInfo {
  kind: TargetKind;
  label: string;
  regions: RegionInfo[];
  skipped?: SkippedFile[];
  /** The context sent beside the regions, and its tokens. */
  context?: ContextInfo[];
  contextTokens?: number;
  /** The tool results sent with the review (redacted), for the reports. */
  toolResults?: ToolResult[];
  contextStatus?: ContextStatus;
}

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
  return { kind: target.kind, label: target.label, regions: target.regions.map(regionInfo), ...(target.skipped ? { skipped: target.skipped.map((s) => ({ ...s })) } : {}), ...context, ...tools, ...(target.contextStatus ? { contextStatus: target.contextStatus } : {}) };
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

/** The reviewed region a finding is in (the first of its file when none holds all its lines). */
export function regionOf<R extends Pick<Region, 'file' | 'startLine' | 'endLine'>>(f: Pick<Finding, 'file' | 'startLine' | 'endLine'>, regions: readonly R[]): R | undefined {
  const inFile = regions.filter((r) => r.file === f.file);
  return inFile.find((r) => f.startLine >= r.startLine && f.endLine <= r.endLine) ?? inFile[0];
}
