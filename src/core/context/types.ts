import type { ContextSnippet, CutContext } from '../domain/context';

/** Context chosen for one batch: what is sent and what was cut. */
export interface BatchContext {
  snippets: ContextSnippet[];
  cut: CutContext[];
}
