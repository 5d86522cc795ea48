import type { Excluder } from '../prompt/exclude';
import type { SecretRedactor } from '../redaction/redactor';
import type { ReviewTarget } from '../domain/target';
import { ContextBudget, DEFAULT_CONTEXT_BUDGET_MS } from './budget';
import { openIndex } from './openIndex';
import { selectContext } from './select';
import type { ContextStatus } from '../domain/context';

/**
 * Context as a prompt-shaping step: after the shaping of `shapeReview` (files never sent are gone, secrets
 * redacted), each request's target gets its read-only context, batch after batch, while the time budget lasts; the
 * batches after it get none and the status says how many regions got theirs. The targets are new objects; the
 * index keeps indexing in the background (`finish`) and is saved for the next review.
 */

interface ContextStepInput {
  /** The repository root; context needs a git repository. */
  root: string;
  /** Where the index is kept; undefined keeps it in memory. */
  cacheDir: string | undefined;
  excluder: Excluder;
  maxFileBytes: number;
  maxTokens: number;
  /** The review's redactor (`ShapedReview.redactor`); undefined when secrets are not redacted. */
  redactor: SecretRedactor | undefined;
  /** Milliseconds the context may take (DEFAULT_CONTEXT_BUDGET_MS). */
  timeBudgetMs?: number;
}

interface ContextStep {
  /** The targets with their context (a target without any is returned as it was). */
  targets: ReviewTarget[];
  /** How many of the targets' regions had their context chosen, and whether the time budget stopped it; undefined without an index. */
  status: ContextStatus | undefined;
  /** Indexes the rest of the repository (until `signal` aborts) and saves the index. */
  finish(signal?: AbortSignal): Promise<void>;
}

export async function addContext(targets: readonly ReviewTarget[], input: ContextStepInput): Promise<ContextStep> {
  const budget = ContextBudget.of(input.timeBudgetMs ?? DEFAULT_CONTEXT_BUDGET_MS);
  const index = input.maxTokens > 0 ? await openIndex({ root: input.root, cacheDir: input.cacheDir, excluder: input.excluder, maxFileBytes: input.maxFileBytes }) : undefined;
  if (!index) return { targets: [...targets], status: undefined, finish: async () => {} };
  const regions = targets.reduce((n, t) => n + t.regions.length, 0);
  let chosen = 0;
  const out: ReviewTarget[] = [];
  const scanned = await index.scan(budget);
  for (const target of targets) {
    if (!scanned || budget.over) {
      out.push(target);
      continue;
    }
    const { snippets, cut } = await selectContext(target, index, input.root, { maxTokens: input.maxTokens, redactor: input.redactor, budget });
    if (!budget.cut) chosen += target.regions.length;
    out.push(snippets.length > 0 || cut.length > 0 ? { ...target, context: snippets, ...(cut.length > 0 ? { contextCut: cut } : {}) } : target);
  }
  const counts = index.size;
  const status: ContextStatus = { regions, chosen, ...(budget.cut ? { stopped: 'time-budget' as const } : {}), index: { files: counts.files, read: index.readNow, parsed: counts.parsedNow } };
  return {
    targets: out,
    status,
    finish: async (signal) => {
      await index.complete(signal);
      await index.save();
    },
  };
}
