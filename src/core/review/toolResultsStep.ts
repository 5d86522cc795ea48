import type { ReviewRequest, ShapedWork } from './reviewRequest';
import type { ReviewTarget } from '../domain/target';
import { toolResultsFor } from '../toolResults/select';
import type { ToolResult } from '../domain/toolResult';

/**
 * Tool results as a prompt-shaping step, after the privacy rules and redaction (and context): each batch (a
 * selection: its one target) carries the tool results on its regions (`toolResultsFor`), sent read-only in its
 * requests; the whole target carries them all (the summary reports them, the steps after the run hide the findings
 * that repeat them).
 */
export async function withToolResults(work: ShapedWork, request: ReviewRequest): Promise<ShapedWork> {
  const results = request.toolResults ?? [];
  if (results.length === 0 || work.batches.length === 0) return work;
  const redactor = request.context.redactSecrets ? work.shaped.redactor : undefined;
  const relative = request.work.relativeFile;
  const input = { pathOf: (r: { file: string }) => (work.changes ? r.file : (relative ?? r.file)), excluder: request.context.excluder, redactor };
  const batches: ReviewTarget[] = [];
  for (const b of work.batches) {
    const chosen = await toolResultsFor(b, results, input);
    batches.push(chosen.length > 0 ? { ...b, toolResults: chosen } : b);
  }
  const all = unique(batches.flatMap((b) => b.toolResults ?? []));
  if (all.length === 0) return work;
  const target: ReviewTarget = work.changes ? { ...work.shaped.target, toolResults: all } : (batches[0] ?? work.shaped.target);
  const shaped = { ...work.shaped, target, prompt: { ...work.shaped.prompt, redacted: work.shaped.redactions.length > 0 } };
  return { ...work, shaped, batches, ...(work.changes ? { changes: { ...work.changes, target, batches } } : {}) };
}

function unique(results: readonly ToolResult[]): ToolResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    const key = JSON.stringify([r.file, r.startLine, r.endLine, r.tool, r.rule, r.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
