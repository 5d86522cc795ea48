import { chooseContext, RepositoryFiles } from '../context/candidates';
import { addContext } from '../context/step';
import type { SecretRedactor } from '../redaction/redactor';
import type { CodeContextSource, ReviewRequest, ShapedWork } from './reviewRequest';
import type { ContextStatus } from '../domain/context';
import type { ReviewTarget } from '../domain/target';

/**
 * Context, the last prompt-shaping step: each batch (a selection: its one target) gets the definitions, callers
 * and enclosing signatures it needs, read-only, from the editor's language server when it answers in time, else from
 * the repository's tree-sitter index; either way ranked and cut by the same selection, never from an excluded file,
 * redacted by the review's redactor and within `maxTokens`. The whole target carries every batch's context (the summary reports it). The
 * rest of the repository is indexed in the background (`indexing`, stopped by its signal) and kept for the next
 * review. Context helps a review and never stops one: a failure sends none and is told through `onError`.
 */
export async function withCodeContext(work: ShapedWork, request: ReviewRequest, signal: AbortSignal): Promise<{ work: ShapedWork; indexing: Promise<void> }> {
  const source = request.codeContext;
  if (!source || source.maxTokens <= 0 || work.batches.length === 0) return { work, indexing: Promise.resolve() };
  const relative = request.work.relativeFile;
  const asked = work.changes ? work.batches : work.batches.map((b) => ({ ...b, regions: b.regions.map((r) => ({ ...r, file: relative ?? r.file })) }));
  const redactor = request.context.redactSecrets ? work.shaped.redactor : undefined;
  let batches: ReviewTarget[];
  let status: ContextStatus | undefined;
  let finish: (signal: AbortSignal) => Promise<void> = () => Promise.resolve();
  try {
    const served = await fromLanguageServer(asked, source, request, redactor);
    const rest = asked.filter((_, i) => !served[i]);
    const step = rest.length > 0
      ? await addContext(rest, { root: source.root, cacheDir: source.cacheDir, excluder: request.context.excluder, maxFileBytes: source.maxFileBytes, maxTokens: source.maxTokens, redactor, ...(source.timeBudgetMs !== undefined ? { timeBudgetMs: source.timeBudgetMs } : {}) })
      : undefined;
    if (step) finish = (signal) => step.finish(signal);
    // The language server's batches had theirs: the status counts every region.
    const regions = (list: readonly ReviewTarget[]) => list.reduce((n, b) => n + b.regions.length, 0);
    if (step?.status) status = { ...step.status, regions: regions(asked), chosen: regions(asked) - regions(rest) + step.status.chosen };
    let next = 0;
    const chosen = asked.map((b, i) => served[i] ?? step?.targets[next++] ?? b);
    batches = work.changes ? chosen : work.batches.map((b, i) => {
      const c = chosen[i];
      return c?.context ? { ...b, context: c.context, ...(c.contextCut ? { contextCut: c.contextCut } : {}) } : b;
    });
  } catch (e) {
    source.onError?.(e instanceof Error ? e.message : String(e));
    return { work, indexing: Promise.resolve() };
  }
  // A selection's one batch is its target (the same object): it carries the status itself.
  if (!work.changes && status) batches = batches.map((b, i) => (i === 0 ? { ...b, contextStatus: status } : b));
  const all = batches.flatMap((b) => b.context ?? []);
  const cut = batches.flatMap((b) => b.contextCut ?? []);
  const target: ReviewTarget = work.changes
    ? { ...work.shaped.target, ...(all.length > 0 ? { context: all } : {}), ...(cut.length > 0 ? { contextCut: cut } : {}), ...(status ? { contextStatus: status } : {}) }
    : (batches[0] ?? work.shaped.target);
  const shaped = { ...work.shaped, target, prompt: { ...work.shaped.prompt, redacted: work.shaped.redactions.length > 0 } };
  return {
    work: { ...work, shaped, batches, ...(work.changes ? { changes: { ...work.changes, target, batches } } : {}) },
    indexing: finish(signal).catch(() => undefined),
  };
}

/**
 * The batches whose context the language server gave (undefined where it gave none in time, or only candidates
 * from excluded files): its candidates go through core's selection like the index's.
 */
async function fromLanguageServer(asked: readonly ReviewTarget[], source: CodeContextSource, request: ReviewRequest, redactor: SecretRedactor | undefined): Promise<(ReviewTarget | undefined)[]> {
  const server = source.languageServer;
  if (!server) return asked.map(() => undefined);
  const files = new RepositoryFiles(source.root);
  const out: (ReviewTarget | undefined)[] = [];
  for (const batch of asked) {
    const candidates = (await server(batch).catch(() => undefined))?.filter((c) => !request.context.excluder.match(c.file));
    if (!candidates || candidates.length === 0) {
      out.push(undefined);
      continue;
    }
    const { snippets, cut } = await chooseContext(batch, candidates, files, { maxTokens: source.maxTokens, redactor });
    out.push(snippets.length > 0 ? { ...batch, context: snippets, ...(cut.length > 0 ? { contextCut: cut } : {}) } : undefined);
  }
  return out;
}
