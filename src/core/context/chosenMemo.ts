import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { SecretRedactor } from '../redaction/redactor';
import type { ReviewTarget } from '../domain/target';
import type { RepositoryFiles } from './candidates';
import type { ListedFile } from './listing';
import type { BatchContext } from './types';

/**
 * The context chosen for a batch, kept for the next review of the same change in the same repository: which lines of
 * which files (never their text: it is read again and redacted again), under a key made of everything the choice
 * depends on — every listed file's path and content (blob hash), the batch's regions and the budget in tokens. A
 * review whose working tree differs in any file looks its context up again in the index.
 */

const kindSchema = z.enum(['definition', 'caller', 'enclosing']);

const chosenSchema = z.object({
  snippets: z.array(
    z.object({
      file: z.string(),
      language: z.string(),
      startLine: z.number().int().min(1),
      endLine: z.number().int().min(1),
      symbol: z.string(),
      kind: kindSchema,
      forFile: z.string(),
      tokens: z.number().int().min(0),
    }),
  ),
  cut: z.array(z.object({ file: z.string(), symbol: z.string(), kind: kindSchema })),
});

/** A batch's context as kept: its snippets without their text, and what was cut. */
export type ChosenContext = z.infer<typeof chosenSchema>;

export const chosenMemoSchema = z.record(z.string(), chosenSchema);

/** Batches kept at most (the most recent). */
export const CHOSEN_KEPT = 256;

/** A digest of the listing: every file the index may hold, by path and blob hash (in path order). */
function listingDigest(files: readonly ListedFile[], maxFileBytes: number): string {
  const h = createHash('sha256').update(`quorum-context-listing 1 ${maxFileBytes}\n`);
  for (const f of files) h.update(`${f.path}\0${f.hash}\0${f.language}\n`);
  return h.digest('hex');
}

/** The key of a batch's context: the listing's digest, the budget and the batch's regions. */
function chosenKey(listing: string, batch: ReviewTarget, maxTokens: number): string {
  const h = createHash('sha256').update(`${listing} ${maxTokens}\n`);
  for (const r of batch.regions) h.update(`${r.file}\0${r.language}\0${r.startLine}-${r.endLine}\0${(r.changedLines ?? []).map((c) => `${c.start}-${c.end}`).join(',')}\n`);
  return h.digest('hex').slice(0, 32);
}

/** What is kept of a batch's context: all but the snippets' text. */
export const keptOf = (context: BatchContext): ChosenContext => ({
  snippets: context.snippets.map((s) => ({ file: s.file, language: s.language, startLine: s.startLine, endLine: s.endLine, symbol: s.symbol, kind: s.kind, forFile: s.forFile, tokens: s.tokens })),
  cut: context.cut,
});

/** The kept context again, each snippet's lines read from its file and redacted; undefined when a file is shorter than kept (then it is chosen anew). */
export async function keptAgain(kept: ChosenContext, files: RepositoryFiles, redactor: SecretRedactor | undefined): Promise<BatchContext | undefined> {
  for (const s of kept.snippets) void files.lines(s.file);
  const snippets = [];
  for (const s of kept.snippets) {
    const lines = await files.lines(s.file);
    if (!lines || s.endLine > lines.length || s.startLine > s.endLine) return undefined;
    let text = lines.slice(s.startLine - 1, s.endLine).join('\n');
    if (redactor) text = await redactor.redactSnippet(text, s.startLine, s.file);
    snippets.push({ ...s, text });
  }
  return { snippets, cut: kept.cut };
}

/** The context kept for batches of one listing: chosen in this process (`chosen`), or by an earlier one (a segment's). */
export class ChosenMemo {
  private digest: string | undefined;

  constructor(
    private readonly files: readonly ListedFile[],
    private readonly maxFileBytes: number,
    private readonly chosen: Map<string, ChosenContext>,
  ) {}

  private keyOf(batch: ReviewTarget, maxTokens: number): string {
    this.digest ??= listingDigest(this.files, this.maxFileBytes);
    return chosenKey(this.digest, batch, maxTokens);
  }

  get(batch: ReviewTarget, maxTokens: number, stored: { chosen: ReadonlyMap<string, ChosenContext> } | undefined): ChosenContext | undefined {
    const key = this.keyOf(batch, maxTokens);
    return this.chosen.get(key) ?? stored?.chosen.get(key);
  }

  keep(batch: ReviewTarget, maxTokens: number, value: ChosenContext): void {
    const key = this.keyOf(batch, maxTokens);
    this.chosen.delete(key);
    this.chosen.set(key, value);
  }
}
