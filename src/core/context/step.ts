import type { Excluder } from '../prompt/exclude';
import type { SecretRedactor } from '../redaction/redactor';
import type { ReviewTarget } from '../review/types';
import { RepositoryIndex } from './repoIndex';
import { selectContext } from './select';

/**
 * Context as a prompt-shaping step: after the shaping of `shapeReview` (files never sent are gone, secrets
 * redacted), each request's target gets its read-only context. The targets are new objects; the index keeps
 * indexing in the background (`finish`) and is saved for the next review.
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
}

interface ContextStep {
  /** The targets with their context (a target without any is returned as it was). */
  targets: ReviewTarget[];
  /** Indexes the rest of the repository (until `signal` aborts) and saves the index. */
  finish(signal?: AbortSignal): Promise<void>;
}

export async function addContext(targets: readonly ReviewTarget[], input: ContextStepInput): Promise<ContextStep> {
  const index = input.maxTokens > 0 ? await RepositoryIndex.open({ root: input.root, cacheDir: input.cacheDir, excluder: input.excluder, maxFileBytes: input.maxFileBytes }) : undefined;
  if (!index) return { targets: [...targets], finish: async () => {} };
  const out: ReviewTarget[] = [];
  for (const target of targets) {
    const { snippets, cut } = await selectContext(target, index, input.root, { maxTokens: input.maxTokens, redactor: input.redactor });
    out.push(snippets.length > 0 || cut.length > 0 ? { ...target, context: snippets, ...(cut.length > 0 ? { contextCut: cut } : {}) } : target);
  }
  return {
    targets: out,
    finish: async (signal) => {
      await index.complete(signal);
      await index.save();
    },
  };
}
