import type * as vscode from 'vscode';
import type { ChangesCommands } from '../changes/changesCommands';
import type { FindingStore } from '../findings/findingStore';
import type { FollowUps } from '../findings/followUps';
import type { ReviewController } from '../review/reviewController';
import type { Finding } from '../../core/domain/finding';
import { escapeMarkdown } from '../../shared/untrustedText';
import { severityLabel, untrustedMarkdown } from '../threads/threadMarkdown';

/** What the chat participant works with. */
export interface ChatDeps {
  controller: ReviewController;
  changes: ChangesCommands;
  store: FindingStore;
  followUps: FollowUps;
}

/** The parts of a chat response stream Quorum writes (a test records them). */
export type ChatStream = Pick<vscode.ChatResponseStream, 'markdown' | 'anchor' | 'button' | 'progress'>;

/** A finding line of the chat's list: what `/explain <n>` refers to. */
export interface Listed {
  sessionId: string;
  findingId: string;
}

/** What the participant remembers between requests: the findings of the last list, in order. */
export interface ChatMemory {
  listed: Listed[];
}

export const md = (text: string) => untrustedMarkdown(text);

/** `**Critical** · title · security + analyst `: a finding's heading in the chat (its words escaped), before its link. */
export function findingHeading(f: Pick<Finding, 'severity' | 'title' | 'agents'>): string {
  return `**${escapeMarkdown(severityLabel(f.severity))}** · ${escapeMarkdown(f.title)} · ${escapeMarkdown(f.agents.join(' + '))} `;
}

/** Runs `work` with a signal that aborts when the chat request is cancelled. */
export async function untilCancelled<T>(token: vscode.CancellationToken, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    return await work(abort.signal);
  } finally {
    sub.dispose();
  }
}
