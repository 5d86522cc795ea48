import * as vscode from 'vscode';
import type { Finding } from '../../core/review/types';
import { formatUsd } from '../../shared/format';
import { escapeMarkdown, proseMarkdown } from '../../shared/untrustedText';
import type { ChangesCommands } from '../changes/changesCommands';
import { InternalCommands } from '../commands';
import type { FindingStore } from '../findings/findingStore';
import type { FollowUps, KnownFinding } from '../findings/followUps';
import type { ReviewController } from '../review/reviewController';
import { prepareScope } from '../review/reviewScope';
import { changesScope, type ReviewScopeInput } from '../review/reviewScopeInput';
import { runScopedReview, type ScopedReview } from '../review/scopedReview';
import { severityLabel, suggestionDiff, untrustedMarkdown } from '../threads/threadMarkdown';

/** The participant's id, as `chatParticipants` in package.json declares it. */
export const CHAT_PARTICIPANT_ID = 'quorum.chat';

interface ChatDeps {
  controller: ReviewController;
  changes: ChangesCommands;
  store: FindingStore;
  followUps: FollowUps;
}

/** The parts of a chat response stream Quorum writes (a test records them). */
type ChatStream = Pick<vscode.ChatResponseStream, 'markdown' | 'anchor' | 'button' | 'progress'>;
/** The parts of a chat request Quorum reads: never `request.model` — Quorum answers with its own gateway and models. */
type ChatAsk = Pick<vscode.ChatRequest, 'command' | 'prompt'>;

const md = (text: string) => untrustedMarkdown(text);

/** A finding line of the chat's list: what `/explain <n>` refers to. */
interface Listed {
  sessionId: string;
  findingId: string;
}

/**
 * `@quorum` in the chat view: `/review` (the selection, else the active file), `/changes` (uncommitted; `staged`;
 * `base <ref>`) and `/explain` (a finding: the one at the cursor, or `/explain 2` for the second of the last list,
 * with an optional question after it). Reviews run through the review controller, follow-ups through Quorum's own
 * gateway client: the request's model is never used. Returns the handler; exported for tests.
 */
export function chatHandler(deps: ChatDeps): (request: ChatAsk, stream: ChatStream, token: vscode.CancellationToken) => Promise<vscode.ChatResult> {
  let listed: Listed[] = [];

  const review = async (input: ReviewScopeInput, stream: ChatStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> => {
    const prepared = await prepareScope(input, deps.changes);
    if (!prepared) return { errorDetails: { message: vscode.l10n.t('There is nothing to review.') } };
    if ('refused' in prepared) return { errorDetails: { message: vscode.l10n.t('Quorum cannot review this: {0}.', prepared.refused) } };
    stream.progress(vscode.l10n.t('Reviewing {0}…', prepared.target.label));
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    let result: ScopedReview | undefined;
    try {
      result = await runScopedReview(deps.controller, prepared, undefined, abort.signal);
    } finally {
      sub.dispose();
    }
    if (!result) return { errorDetails: { message: vscode.l10n.t('Quorum did not run the review; its notification says why.') } };
    write(result, stream);
    return { metadata: { sessionId: result.summary.reviewId } };
  };

  const write = (result: ScopedReview, stream: ChatStream): void => {
    const { summary, session, shown } = result;
    stream.markdown(md(`**${escapeMarkdown(vscode.l10n.t('{0} finding(s) in {1}', shown.length, summary.target.label))}** · ${escapeMarkdown(formatUsd(summary.totals.costUsd))}${result.hidden > 0 ? ` · ${escapeMarkdown(vscode.l10n.t('{0} hidden', result.hidden))}` : ''}\n\n`));
    listed = shown.map((f) => ({ sessionId: summary.reviewId, findingId: f.id }));
    shown.forEach((f, i) => {
      const tracked = deps.store.get(summary.reviewId, f.id);
      const uri = tracked?.uri ?? session?.uriOf(f.file);
      stream.markdown(md(`${i + 1}. **${escapeMarkdown(severityLabel(f.severity))}** · ${escapeMarkdown(f.title)} · ${escapeMarkdown(f.agents.join(' + '))} `));
      if (uri) {
        const start = tracked?.range.start ?? f.startLine - 1;
        const end = tracked?.range.end ?? f.endLine - 1;
        stream.anchor(new vscode.Location(uri, new vscode.Range(start, 0, end, 0)), `${f.file}:${f.startLine}`);
      }
      stream.markdown(md(`\n\n   ${escapeMarkdown(f.explanation)}\n\n`));
      if (tracked?.replacement !== undefined) {
        stream.markdown(md(`${suggestionDiff(tracked.original, tracked.replacement)}\n\n`));
        stream.button({ command: InternalCommands.applyFix, arguments: [summary.reviewId, f.id], title: vscode.l10n.t('Apply Fix {0}', i + 1) });
      }
    });
    if (shown.length > 0) stream.markdown(md(escapeMarkdown(vscode.l10n.t('Ask about a finding with /explain and its number.')) + '\n\n'));
    stream.button({ command: InternalCommands.showReview, arguments: [summary.reviewId], title: vscode.l10n.t('Open Review Panel') });
  };

  /** The finding `/explain` is about: number n of the last list, else the one at the active editor's cursor. */
  const findingFor = (prompt: string): { known: KnownFinding; question: string } | undefined => {
    const numbered = /^\s*#?(\d+)\b\s*(.*)$/s.exec(prompt);
    const pick = (l: Listed | undefined) => (l ? deps.followUps.find(l.sessionId, l.findingId) : undefined);
    if (numbered) {
      const known = pick(listed[Number(numbered[1]) - 1]);
      return known ? { known, question: numbered[2]?.trim() ?? '' } : undefined;
    }
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    const line = editor.selection.active.line;
    const here = deps.store.forDocument(editor.document.uri).filter((t) => t.finding && !t.hidden && t.range.start <= line && line <= t.range.end);
    const known = here.map((t) => pick({ sessionId: t.sessionId, findingId: t.id })).find((k) => k !== undefined);
    return known ? { known, question: prompt.trim() } : undefined;
  };

  const explain = async (prompt: string, stream: ChatStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> => {
    const found = findingFor(prompt);
    if (!found) return { errorDetails: { message: vscode.l10n.t('Put the cursor on a line with a Quorum finding, or give the number of a finding that @quorum listed (/explain 2).') } };
    const { known, question } = found;
    const f: Finding = known.finding;
    stream.markdown(md(`**${escapeMarkdown(severityLabel(f.severity))}** · ${escapeMarkdown(f.title)} · ${escapeMarkdown(f.agents.join(' + '))} `));
    stream.anchor(new vscode.Location(known.session.uriOf(f.file), new vscode.Range(f.startLine - 1, 0, f.endLine - 1, 0)), `${f.file}:${f.startLine}`);
    stream.markdown(md('\n\n'));
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    // The answer is Markdown from a model: written line by line once each line is complete, made unable to link.
    let text = '';
    let written = 0;
    const flush = (all: boolean) => {
      const complete = all ? text : text.slice(0, text.lastIndexOf('\n') + 1);
      const lines = proseMarkdown(complete).split('\n');
      const upTo = all ? lines.length : lines.length - 1;
      if (upTo > written) stream.markdown(md(lines.slice(written, upTo).join('\n') + '\n'));
      written = Math.max(written, upTo);
    };
    try {
      const outcome = await deps.followUps.ask(known, question || vscode.l10n.t('Explain this finding: why is it a problem here, and how should it be fixed?'), [], (delta) => {
        text += delta;
        flush(false);
      }, abort.signal);
      flush(true);
      if (!outcome.ok) return { errorDetails: { message: outcome.reason } };
      stream.markdown(md(`\n\n_${escapeMarkdown(formatUsd(outcome.result.costUsd))}_`));
      const tracked = deps.store.get(known.session.id, f.id);
      if (tracked?.replacement !== undefined) stream.button({ command: InternalCommands.applyFix, arguments: [known.session.id, f.id], title: vscode.l10n.t('Apply Fix') });
      return { metadata: { sessionId: known.session.id } };
    } finally {
      sub.dispose();
    }
  };

  return async (request, stream, token) => {
    switch (request.command) {
      case 'review': {
        const editor = vscode.window.activeTextEditor;
        return review({ scope: editor && !editor.selection.isEmpty ? 'selection' : 'file' }, stream, token);
      }
      case 'changes': {
        const scope = changesScope(request.prompt);
        if (!scope) return { errorDetails: { message: vscode.l10n.t('Use /changes, /changes staged or /changes base <branch>.') } };
        return review(scope, stream, token);
      }
      case 'explain':
        return explain(request.prompt, stream, token);
      default:
        stream.markdown(md(escapeMarkdown(vscode.l10n.t('Quorum reviews code with its own agents, gateway and models. Try /review (the selection or the active file), /changes (uncommitted; /changes staged; /changes base main) or /explain (a finding).'))));
        return {};
    }
  };
}
