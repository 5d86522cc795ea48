import * as vscode from 'vscode';
import type { Finding } from '../../core/domain/finding';
import { formatUsd } from '../../shared/format';
import { escapeMarkdown } from '../../shared/untrustedText';
import { InternalCommands } from '../commands';
import { prepareScope } from '../review/reviewScope';
import type { ReviewScopeInput } from '../review/reviewScopeInput';
import { runScopedReview, type ScopedReview } from '../review/scopedReview';
import { suggestionDiff } from '../threads/threadMarkdown';
import { type ChatDeps, type ChatMemory, type ChatStream, findingHeading, md, untilCancelled } from './chatParts';

/** `/review` and `/changes`: prepares the scope, runs it through the review controller and lists what it found. */
export async function reviewInChat(deps: ChatDeps, memory: ChatMemory, input: ReviewScopeInput, stream: ChatStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const prepared = await prepareScope(input, deps.changes);
  if (!prepared) return { errorDetails: { message: vscode.l10n.t('There is nothing to review.') } };
  if ('refused' in prepared) return { errorDetails: { message: vscode.l10n.t('Quorum cannot review this: {0}.', prepared.refused) } };
  stream.progress(vscode.l10n.t('Reviewing {0}…', prepared.target.label));
  const result = await untilCancelled(token, (signal) => runScopedReview(deps.controller, prepared, undefined, signal));
  if (!result) return { errorDetails: { message: vscode.l10n.t('Quorum did not run the review; its notification says why.') } };
  writeReview(deps, memory, result, stream);
  return { metadata: { sessionId: result.summary.reviewId } };
}

function writeReview(deps: ChatDeps, memory: ChatMemory, result: ScopedReview, stream: ChatStream): void {
  const { summary, shown } = result;
  stream.markdown(md(`**${escapeMarkdown(vscode.l10n.t('{0} finding(s) in {1}', shown.length, summary.target.label))}** · ${escapeMarkdown(formatUsd(summary.totals.costUsd))}${result.hidden > 0 ? ` · ${escapeMarkdown(vscode.l10n.t('{0} hidden', result.hidden))}` : ''}\n\n`));
  memory.listed = shown.map((f) => ({ sessionId: summary.reviewId, findingId: f.id }));
  shown.forEach((f, i) => writeFinding(deps, result, f, i + 1, stream));
  if (shown.length > 0) stream.markdown(md(escapeMarkdown(vscode.l10n.t('Ask about a finding with /explain and its number.')) + '\n\n'));
  stream.button({ command: InternalCommands.showReview, arguments: [summary.reviewId], title: vscode.l10n.t('Open Review Panel') });
}

/** Finding number `n` of the list: its heading, a link to where it is now, its explanation and its fix. */
function writeFinding(deps: ChatDeps, { summary, session }: ScopedReview, f: Finding, n: number, stream: ChatStream): void {
  const tracked = deps.store.get(summary.reviewId, f.id);
  const uri = tracked?.uri ?? session?.uriOf(f.file);
  stream.markdown(md(`${n}. ${findingHeading(f)}`));
  if (uri) {
    const start = tracked?.range.start ?? f.startLine - 1;
    const end = tracked?.range.end ?? f.endLine - 1;
    stream.anchor(new vscode.Location(uri, new vscode.Range(start, 0, end, 0)), `${f.file}:${f.startLine}`);
  }
  stream.markdown(md(`\n\n   ${escapeMarkdown(f.explanation)}\n\n`));
  if (tracked?.replacement !== undefined) {
    stream.markdown(md(`${suggestionDiff(tracked.original, tracked.replacement)}\n\n`));
    stream.button({ command: InternalCommands.applyFix, arguments: [summary.reviewId, f.id], title: vscode.l10n.t('Apply Fix {0}', n) });
  }
}
