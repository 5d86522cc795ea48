/**
 * The kinds of context a review sends beside the reviewed code (definitions, callers, enclosing signatures) and
 * how much went out: one source for core's results, the command line's line and the panel's header.
 */

/** Why a snippet was chosen. */
export const CONTEXT_KINDS = ['definition', 'caller', 'enclosing'] as const;
export type ContextKind = (typeof CONTEXT_KINDS)[number];

/** How much context went out: snippets by kind, the files they come from, their tokens. */
interface ContextCounts {
  definition: number;
  caller: number;
  enclosing: number;
  files: number;
  tokens: number;
}

export function contextCounts(context: readonly { file: string; kind: ContextKind }[], tokens: number): ContextCounts {
  const count = (kind: ContextKind) => context.filter((c) => c.kind === kind).length;
  return { definition: count('definition'), caller: count('caller'), enclosing: count('enclosing'), files: new Set(context.map((c) => c.file)).size, tokens };
}
