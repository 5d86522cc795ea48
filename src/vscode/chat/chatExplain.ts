import * as vscode from 'vscode';
import type { Finding } from '../../core/domain/finding';
import { formatUsd } from '../../shared/format';
import { escapeMarkdown, proseMarkdown } from '../../shared/untrustedText';
import { InternalCommands } from '../commands';
import type { KnownFinding } from '../findings/followUps';
import { type ChatDeps, type ChatMemory, type ChatStream, type Listed, findingHeading, md, untilCancelled } from './chatParts';

/** `/explain`: asks Quorum's own gateway about a finding and writes the answer as it streams. */
export async function explainInChat(deps: ChatDeps, memory: ChatMemory, prompt: string, stream: ChatStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const found = findingFor(deps, memory, prompt);
  if (!found) return { errorDetails: { message: vscode.l10n.t('Put the cursor on a line with a Quorum finding, or give the number of a finding that @quorum listed (/explain 2).') } };
  const { known, question } = found;
  const f: Finding = known.finding;
  stream.markdown(md(findingHeading(f)));
  stream.anchor(new vscode.Location(known.session.uriOf(f.file), new vscode.Range(f.startLine - 1, 0, f.endLine - 1, 0)), `${f.file}:${f.startLine}`);
  stream.markdown(md('\n\n'));
  const answer = lineWriter(stream);
  const outcome = await untilCancelled(token, (signal) =>
    deps.followUps.ask(known, question || vscode.l10n.t('Explain this finding: why is it a problem here, and how should it be fixed?'), [], answer.add, signal),
  );
  answer.flush(true);
  if (!outcome.ok) return { errorDetails: { message: outcome.reason } };
  stream.markdown(md(`\n\n_${escapeMarkdown(formatUsd(outcome.result.costUsd))}_`));
  const tracked = deps.store.get(known.session.id, f.id);
  if (tracked?.replacement !== undefined) stream.button({ command: InternalCommands.applyFix, arguments: [known.session.id, f.id], title: vscode.l10n.t('Apply Fix') });
  return { metadata: { sessionId: known.session.id } };
}

/** The finding `/explain` is about: number n of the last list, else the one at the active editor's cursor. */
function findingFor(deps: ChatDeps, memory: ChatMemory, prompt: string): { known: KnownFinding; question: string } | undefined {
  const numbered = /^\s*#?(\d+)\b\s*(.*)$/s.exec(prompt);
  const pick = (l: Listed | undefined) => (l ? deps.followUps.find(l.sessionId, l.findingId) : undefined);
  if (numbered) {
    const known = pick(memory.listed[Number(numbered[1]) - 1]);
    return known ? { known, question: numbered[2]?.trim() ?? '' } : undefined;
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const line = editor.selection.active.line;
  const here = deps.store.forDocument(editor.document.uri).filter((t) => t.finding && !t.hidden && t.range.start <= line && line <= t.range.end);
  const known = here.map((t) => pick({ sessionId: t.sessionId, findingId: t.id })).find((k) => k !== undefined);
  return known ? { known, question: prompt.trim() } : undefined;
}

/** The answer is Markdown from a model: written line by line once each line is complete, made unable to link. */
function lineWriter(stream: ChatStream): { add: (delta: string) => void; flush: (all: boolean) => void } {
  let text = '';
  let written = 0;
  const flush = (all: boolean) => {
    const complete = all ? text : text.slice(0, text.lastIndexOf('\n') + 1);
    const lines = proseMarkdown(complete).split('\n');
    const upTo = all ? lines.length : lines.length - 1;
    if (upTo > written) stream.markdown(md(lines.slice(written, upTo).join('\n') + '\n'));
    written = Math.max(written, upTo);
  };
  return {
    add: (delta) => {
      text += delta;
      flush(false);
    },
    flush,
  };
}
