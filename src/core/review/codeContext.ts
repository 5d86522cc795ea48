import { addContext } from '../context/step';
import type { ReviewRequest, ShapedWork } from './reviewRequest';
import type { ReviewTarget } from './types';

/**
 * Context, the last prompt-shaping step: each batch (a selection: its one target) gets the definitions, callers
 * and enclosing signatures it needs, read-only, from the repository's tree-sitter index, redacted by the review's
 * redactor and within `maxTokens`. The whole target carries every batch's context (the summary reports it). The
 * rest of the repository is indexed in the background (`indexing`, stopped by its signal) and kept for the next
 * review. Context helps a review and never stops one: a failure sends none and is told through `onError`.
 */
export async function withCodeContext(work: ShapedWork, request: ReviewRequest, signal: AbortSignal): Promise<{ work: ShapedWork; indexing: Promise<void> }> {
  const source = request.codeContext;
  if (!source || source.maxTokens <= 0 || work.batches.length === 0) return { work, indexing: Promise.resolve() };
  const relative = request.work.relativeFile;
  const asked = work.changes ? work.batches : work.batches.map((b) => ({ ...b, regions: b.regions.map((r) => ({ ...r, file: relative ?? r.file })) }));
  let step: Awaited<ReturnType<typeof addContext>>;
  try {
    step = await addContext(asked, {
      root: source.root,
      cacheDir: source.cacheDir,
      excluder: request.context.excluder,
      maxFileBytes: source.maxFileBytes,
      maxTokens: source.maxTokens,
      redactor: request.context.redactSecrets ? work.shaped.redactor : undefined,
    });
  } catch (e) {
    source.onError?.(e instanceof Error ? e.message : String(e));
    return { work, indexing: Promise.resolve() };
  }
  const batches: ReviewTarget[] = work.changes ? step.targets : work.batches.map((b, i) => {
    const chosen = step.targets[i];
    return chosen?.context ? { ...b, context: chosen.context, ...(chosen.contextCut ? { contextCut: chosen.contextCut } : {}) } : b;
  });
  const all = batches.flatMap((b) => b.context ?? []);
  const cut = batches.flatMap((b) => b.contextCut ?? []);
  const target: ReviewTarget = work.changes
    ? { ...work.shaped.target, ...(all.length > 0 ? { context: all } : {}), ...(cut.length > 0 ? { contextCut: cut } : {}) }
    : (batches[0] ?? work.shaped.target);
  const shaped = { ...work.shaped, target, prompt: { ...work.shaped.prompt, redacted: work.shaped.redactions.length > 0 } };
  return {
    work: { ...work, shaped, batches, ...(work.changes ? { changes: { ...work.changes, target, batches } } : {}) },
    indexing: step.finish(signal).catch(() => undefined),
  };
}
