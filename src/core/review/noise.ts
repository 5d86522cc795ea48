import { isDismissed, type DismissedEntry } from '../memory/dismissed';
import { ruleOf } from '../memory/fingerprint';
import { learnedAction, type Learning } from '../prompt/learnings';
import { compareSeverity, type Severity } from '../../shared/severity';
import type { HiddenReason } from '../../shared/reviewCodes';
import type { Finding } from '../domain/finding';
import { type Region, regionOf } from '../domain/target';
import { repeatedToolResult } from '../toolResults/duplicate';
import type { ToolResult } from '../domain/toolResult';
import type { NoiseSplit } from '../domain/result';

/**
 * Noise controls, applied to the findings merged across agents: findings below `minConfidence`, less severe
 * than `minSeverity`, dismissed in the project, or repeating what the project's tools report are hidden — counted, and shown on request, but never used to
 * fail a run.
 */

export interface NoiseFilter {
  minConfidence: number;
  minSeverity: Severity;
  /** The repository's learnings (`.quorum/learnings.md`): those with `hides` hide the findings of that rule in their scope. */
  learnings?: readonly Learning[];
  /** The project's dismissed fingerprints, with the reviewed regions (the code as it is, before redaction). */
  dismissed?: { entries: readonly DismissedEntry[]; regions: readonly Pick<Region, 'file' | 'text' | 'startLine' | 'endLine'>[] };
  /** The tool results sent with the review: a finding that repeats one is hidden (a finding marked `reportedBy` is, without them). */
  toolResults?: readonly ToolResult[];
}

function dismissedIn(f: Finding, dismissed: NonNullable<NoiseFilter['dismissed']>): boolean {
  if (dismissed.entries.length === 0) return false;
  const region = regionOf(f, dismissed.regions);
  return region !== undefined && isDismissed(f, region.text, region.startLine, dismissed.entries);
}

export function hiddenReason(f: Finding, filter: NoiseFilter): HiddenReason | undefined {
  if (filter.dismissed && dismissedIn(f, filter.dismissed)) return 'dismissed';
  if (f.reportedBy || (filter.toolResults && repeatedToolResult(f, filter.toolResults))) return 'reported-by-tool';
  if (filter.learnings && learnedAction(filter.learnings, { file: f.file, rule: ruleOf(f), severity: f.severity })?.hide) return 'learned';
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

/**
 * The findings as the repository's learnings leave them: a finding a learning hides or caps names that learning
 * (`learning`); a capped one gets the learning's severity. `fileOf`: a finding's repository-relative path.
 */
export function withLearnings(findings: readonly Finding[], learnings: readonly Learning[], fileOf: (file: string) => string = (f) => f): Finding[] {
  if (learnings.length === 0) return [...findings];
  return findings.map((f) => {
    const action = learnedAction(learnings, { file: fileOf(f.file), rule: ruleOf(f), severity: f.severity });
    if (!action) return f;
    return { ...f, learning: action.learning.title, ...(action.severity ? { severity: action.severity } : {}) };
  });
}
