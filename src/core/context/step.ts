import type { Excluder } from '../prompt/exclude';
import type { SecretRedactor } from '../redaction/redactor';
import type { ReviewTarget } from '../domain/target';
import { ContextBudget, DEFAULT_CONTEXT_BUDGET_MS } from './budget';
import { openIndex } from './openIndex';
import { RepositoryFiles } from './candidates';
import { keptAgain } from './chosenMemo';
import { candidatesOf, chooseFrom, lookupsOf, prepareBatch, selectContext, type PreparedBatch } from './select';
import type { BatchContext } from './types';
import type { ContextStatus } from '../domain/context';

/**
 * Context as a prompt-shaping step: after the shaping of `shapeReview` (files never sent are gone, secrets
 * redacted), each request's target gets its read-only context, batch after batch, while the time budget lasts; the
 * batches after it get none and the status says how many regions got theirs. The targets are new objects; what the
 * index read and parsed is saved for the next review (`finish`). Nothing else is parsed in the background: the
 * review's own work (the requests, the tokenizer) has the process to itself.
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
  /** Saves the index (what this review read and parsed) for the next review; `signal` is not waited on. */
  finish(signal?: AbortSignal): Promise<void>;
}

/**
 * A batch's context: the one kept for it, or chosen now when its reviewed files were prepared and there is time (a
 * batch whose lookups need nothing parsed is chosen a little past the budget, until its grace ends).
 */
async function contextOf(
  kept: BatchContext | undefined,
  prepared: PreparedBatch | undefined,
  inTime: boolean,
  select: (batch: PreparedBatch) => Promise<{ context: BatchContext; complete: boolean }>,
): Promise<{ context: BatchContext | undefined; complete: boolean }> {
  if (kept) return { context: kept, complete: true };
  if (!prepared || !inTime) return { context: undefined, complete: false };
  return select(prepared);
}

type Selected = Awaited<ReturnType<typeof selectContext>>;

/** A context being chosen, as a promise that never rejects (it is awaited later): its value gives the outcome, or throws what choosing threw. */
function settled(choosing: Promise<Selected>): Promise<() => Selected> {
  return choosing.then(
    (value) => () => value,
    (e: unknown) => () => {
      throw e;
    },
  );
}

export async function addContext(targets: readonly ReviewTarget[], input: ContextStepInput): Promise<ContextStep> {
  const budget = ContextBudget.of(input.timeBudgetMs ?? DEFAULT_CONTEXT_BUDGET_MS);
  const index = input.maxTokens > 0 ? await openIndex({ root: input.root, cacheDir: input.cacheDir, excluder: input.excluder, maxFileBytes: input.maxFileBytes }) : undefined;
  if (!index) return { targets: [...targets], status: undefined, finish: async () => {} };
  const regions = targets.reduce((n, t) => n + t.regions.length, 0);
  let chosen = 0;
  const out: ReviewTarget[] = [];
  // The same batch in the same working tree: the context a review chose before, read and redacted again.
  const again: (BatchContext | undefined)[] = [];
  for (const target of targets) {
    const kept = budget.pastGrace ? undefined : index.chosen(target, input.maxTokens);
    again.push(kept && (await keptAgain(kept, new RepositoryFiles(input.root), input.redactor)));
  }
  // The repository's names are read (on the index's threads) while the batches' reviewed files are parsed here; then
  // this thread reads names with them.
  const scanning = again.every(Boolean) ? Promise.resolve(true) : index.scan(budget);
  const prepared: (PreparedBatch | undefined)[] = [];
  // Past the grace no batch is chosen any more: its reviewed files are not parsed for nothing.
  for (const [i, target] of targets.entries()) prepared.push(again[i] || budget.pastGrace ? undefined : await prepareBatch(target, index, input.root));
  const scanned = await scanning;
  const options = { maxTokens: input.maxTokens, redactor: input.redactor, budget };
  const select = (batch: PreparedBatch) => selectContext(batch, index, input.root, options);
  // What every batch's lookups need is parsed on the index's threads, round after round; a batch whose lookups are
  // done has its context chosen here meanwhile (the threads parse for the others).
  const early: (Promise<() => Selected> | undefined)[] = [];
  if (scanned) await index.prefetch(prepared.map((p) => (p ? lookupsOf(p) : [])), budget, (i) => {
    // Its lookups are done: chosen from what the index holds now (the next rounds parse for other batches).
    const batch = prepared[i];
    if (batch) early[i] = settled(chooseFrom(batch, candidatesOf(batch, index), index, input.root, options, true));
  });
  // The threads are done (their memory is given back while the last batches are chosen); one may still merge for the save.
  index.release();
  for (const [i, target] of targets.entries()) {
    const chosenEarly = await early[i];
    const selected = chosenEarly ? chosenEarly() : await contextOf(again[i], prepared[i], scanned && !budget.pastGrace, select);
    if (selected.complete) chosen += target.regions.length;
    const { snippets, cut } = selected.context ?? { snippets: [], cut: [] };
    out.push(snippets.length > 0 || cut.length > 0 ? { ...target, context: snippets, ...(cut.length > 0 ? { contextCut: cut } : {}) } : target);
  }
  const counts = index.size;
  const status: ContextStatus = { regions, chosen, ...(budget.cut ? { stopped: 'time-budget' as const } : {}), index: { files: counts.files, read: index.readNow, parsed: counts.parsedNow } };
  return {
    targets: out,
    status,
    finish: async () => {
      await index.save();
    },
  };
}
