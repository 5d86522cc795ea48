import * as vscode from 'vscode';
import { resolveOutputLanguage } from '../../core/agents/language';
import type { PromptContext } from '../../core/prompt/shape';
import type { ReviewRequest } from '../../core/review/reviewRequest';
import type { QuorumSettings } from '../../core/settings/schema';
import { editorContext } from '../context/editorContext';
import type { PromptShaper } from '../privacy/promptShaper';
import { toolResultsOf } from '../toolResults/editorToolResults';
import type { PreparedTarget } from './reviewTarget';

/** What the editor sends with a review of a prepared target, and what it read to say so. */
export interface EditorRequest {
  /** The request's part that the editor reads: the work, the repository's prompt context, the code around, the Problems panel's results. */
  sent: Pick<ReviewRequest, 'work' | 'context' | 'codeContext' | 'toolResults'>;
  context: PromptContext;
  /** The file's path from the repository root (a selection or a file); undefined outside a repository. */
  relativeFile: string | undefined;
  /** The language the agents answer in (`quorum.review.language`, else VS Code's). */
  language: string;
}

/**
 * Reads what a review of `prepared` sends, as the editor has it now: the repository's rules and exclusions
 * (the prompt shaper), the diagnostics on its files and, with `withCodeContext`, the code around it (the language
 * server, else the repository's index). A review and its estimate read the same; the estimate goes without context.
 */
export async function editorRequest(prepared: PreparedTarget, settings: QuorumSettings, shaper: Pick<PromptShaper, 'context'>, withCodeContext: boolean): Promise<EditorRequest> {
  const { context, relativeFile } = await shaper.context(prepared.uri, prepared.root);
  const codeContext = withCodeContext ? editorContext(settings, prepared.root, prepared.uri) : undefined;
  const work = { target: prepared.target, ...(prepared.plan ? { changes: prepared.plan } : {}), ...(relativeFile !== undefined ? { relativeFile } : {}) };
  return {
    sent: { work, context, ...(codeContext ? { codeContext } : {}), ...toolResultsOf(prepared) },
    context,
    relativeFile,
    language: resolveOutputLanguage(settings.review.language, vscode.env.language),
  };
}
