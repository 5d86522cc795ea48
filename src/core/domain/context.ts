/**
 * What "context" is: the few pieces of code outside the reviewed lines that make a change reviewable. Sent
 * read-only beside the reviewed regions, never reviewed or reported on.
 */

import type { ContextKind } from '../../shared/codeContext';

/** One snippet of context: lines startLine..endLine of `file` (1-based, inclusive), already redacted. */
export interface ContextSnippet {
  /** Repository-relative path, forward slashes. */
  file: string;
  language: string;
  startLine: number;
  endLine: number;
  text: string;
  /** The symbol it shows (the definition's name, the called function, the enclosing function or class). */
  symbol: string;
  kind: ContextKind;
  /** The reviewed file it was chosen for. */
  forFile: string;
  /** Its tokens as sent (header and fence included). */
  tokens: number;
}

/** A snippet as results describe it: without its text. */
export type ContextInfo = Omit<ContextSnippet, 'text' | 'language' | 'tokens'>;

/** A snippet that did not fit in the batch's token budget, named so that the cut is said. */
export interface CutContext {
  file: string;
  symbol: string;
  kind: ContextKind;
}

export const contextInfo = ({ file, startLine, endLine, symbol, kind, forFile }: ContextSnippet): ContextInfo => ({ file, startLine, endLine, symbol, kind, forFile });

/** How the context of a review went: regions whose context was chosen of all, and the index's work in this run. */
export interface ContextStatus {
  regions: number;
  chosen: number;
  /** Set when the time budget stopped the context before every region had its own. */
  stopped?: 'time-budget';
  /** Files the index may hold, files read and files parsed in this run (a run on the next commit reads the changed ones). */
  index: { files: number; read: number; parsed: number };
}
