import { isDismissed, type DismissedEntry } from './dismissed';
import { compareSeverity } from '../../shared/severity';
import type { HiddenReason } from '../../shared/reviewCodes';
import type { Finding, Region, Severity } from './types';
import { repeatedToolResult } from '../toolResults/duplicate';
import type { ToolResult } from '../toolResults/types';

/**
 * Noise controls, applied to the findings merged across agents: findings below `minConfidence`, less severe
 * than `minSeverity`, dismissed in the project, or repeating what the project's tools report are hidden — counted, and shown on request, but never used to
 * fail a run.
 */

export interface NoiseFilter {
  minConfidence: number;
  minSeverity: Severity;
  /** The project's dismissed fingerprints, with the reviewed regions (the code as it is, before redaction). */
  dismissed?: { entries: readonly DismissedEntry[]; regions: readonly Pick<Region, 'file' | 'text' | 'startLine' | 'endLine'>[] };
  /** The tool results sent with the review: a finding that repeats one is hidden (a finding marked `reportedBy` is, without them). */
  toolResults?: readonly ToolResult[];
}

export interface NoiseSplit {
  shown: Finding[];
  hidden: { finding: Finding; reason: HiddenReason }[];
}

/** The reviewed region a finding is in (the first of its file when none holds all its lines). */
export function regionOf<R extends Pick<Region, 'file' | 'startLine' | 'endLine'>>(f: Pick<Finding, 'file' | 'startLine' | 'endLine'>, regions: readonly R[]): R | undefined {
  const inFile = regions.filter((r) => r.file === f.file);
  return inFile.find((r) => f.startLine >= r.startLine && f.endLine <= r.endLine) ?? inFile[0];
}

function dismissedIn(f: Finding, dismissed: NonNullable<NoiseFilter['dismissed']>): boolean {
  if (dismissed.entries.length === 0) return false;
  const region = regionOf(f, dismissed.regions);
  return region !== undefined && isDismissed(f, region.text, region.startLine, dismissed.entries);
}

export function hiddenReason(f: Finding, filter: NoiseFilter): HiddenReason | undefined {
  if (filter.dismissed && dismissedIn(f, filter.dismissed)) return 'dismissed';
  if (f.reportedBy || (filter.toolResults && repeatedToolResult(f, filter.toolResults))) return 'reported-by-tool';
  if (f.verification?.verdict === 'refuted') return 'refuted';
  if (compareSeverity(f.severity, filter.minSeverity) > 0) return 'severity';
  if (f.confidence < filter.minConfidence) return 'confidence';
  return undefined;
}

export function splitByNoise(findings: readonly Finding[], filter: NoiseFilter): NoiseSplit {
  const split: NoiseSplit = { shown: [], hidden: [] };
  for (const f of findings) {
    const reason = hiddenReason(f, filter);
    if (reason) split.hidden.push({ finding: f, reason });
    else split.shown.push(f);
  }
  return split;
}
