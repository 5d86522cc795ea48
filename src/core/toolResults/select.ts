import type { Excluder } from '../prompt/exclude';
import type { SecretRedactor } from '../redaction/redactor';
import type { Region, ReviewTarget } from '../domain/target';
import type { ToolResult } from '../domain/toolResult';
import { linesOverlap } from '../domain/lines';

/**
 * The tool results one request is sent: those on or overlapping its regions (a result of another file, or of lines
 * not reviewed, says nothing about this code), never of an excluded file, with their messages through the
 * review's secret redaction, named as the region names its file, each once, in line order, at most
 * MAX_PER_REQUEST (errors first when there are more).
 */

const MAX_PER_REQUEST = 60;

const LEVEL_ORDER = { error: 0, warning: 1, note: 2 } as const;

interface SelectInput {
  /** A region's file as the results name theirs (repository-relative); a selection's is `ReviewWork.relativeFile`. */
  pathOf: (region: Region) => string;
  excluder: Excluder;
  /** The review's redactor; undefined when secrets are not redacted. */
  redactor: SecretRedactor | undefined;
}

export async function toolResultsFor(target: ReviewTarget, results: readonly ToolResult[], input: SelectInput): Promise<ToolResult[]> {
  const chosen: ToolResult[] = [];
  const seen = new Set<string>();
  for (const region of target.regions) {
    const path = input.pathOf(region);
    if (input.excluder.match(path)) continue;
    for (const r of results) {
      if ((r.file !== path && r.file !== region.file) || !linesOverlap(r, region)) continue;
      const named: ToolResult = { ...r, file: region.file };
      const key = JSON.stringify([named.file, named.startLine, named.endLine, named.tool, named.rule, named.message]);
      if (seen.has(key)) continue;
      seen.add(key);
      chosen.push(named);
    }
  }
  const kept = chosen
    .sort((a, b) => LEVEL_ORDER[a.severity] - LEVEL_ORDER[b.severity])
    .slice(0, MAX_PER_REQUEST)
    .sort((a, b) => a.file.localeCompare(b.file) || a.startLine - b.startLine || a.endLine - b.endLine || a.tool.localeCompare(b.tool));
  if (!input.redactor) return kept;
  const out: ToolResult[] = [];
  for (const r of kept) out.push({ ...r, message: await input.redactor.redactSnippet(r.message, r.startLine, r.file) });
  return out;
}
