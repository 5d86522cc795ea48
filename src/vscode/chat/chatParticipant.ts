import * as vscode from 'vscode';
import { escapeMarkdown } from '../../shared/untrustedText';
import { changesScope } from '../review/reviewScopeInput';
import { explainInChat } from './chatExplain';
import { type ChatDeps, type ChatMemory, type ChatStream, md } from './chatParts';
import { reviewInChat } from './chatReview';

/** The parts of a chat request Quorum reads: never `request.model` — Quorum answers with its own gateway and models. */
type ChatAsk = Pick<vscode.ChatRequest, 'command' | 'prompt'>;

/**
 * `@quorum` in the chat view: `/review` (the selection, else the active file), `/changes` (uncommitted; `staged`;
 * `base <ref>`) and `/explain` (a finding: the one at the cursor, or `/explain 2` for the second of the last list,
 * with an optional question after it). Reviews run through the review controller, follow-ups through Quorum's own
 * gateway client: the request's model is never used. Returns the handler; exported for tests.
 */
export function chatHandler(deps: ChatDeps): (request: ChatAsk, stream: ChatStream, token: vscode.CancellationToken) => Promise<vscode.ChatResult> {
  const memory: ChatMemory = { listed: [] };
  return async (request, stream, token) => {
    switch (request.command) {
      case 'review': {
        const editor = vscode.window.activeTextEditor;
        return reviewInChat(deps, memory, { scope: editor && !editor.selection.isEmpty ? 'selection' : 'file' }, stream, token);
      }
      case 'changes': {
        const scope = changesScope(request.prompt);
        if (!scope) return { errorDetails: { message: vscode.l10n.t('Use /changes, /changes staged or /changes base <branch>.') } };
        return reviewInChat(deps, memory, scope, stream, token);
      }
      case 'explain':
        return explainInChat(deps, memory, request.prompt, stream, token);
      default:
        stream.markdown(md(escapeMarkdown(vscode.l10n.t('Quorum reviews code with its own agents, gateway and models. Try /review (the selection or the active file), /changes (uncommitted; /changes staged; /changes base main) or /explain (a finding).'))));
        return {};
    }
  };
}
