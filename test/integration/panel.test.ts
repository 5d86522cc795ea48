import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AgentResult } from '../../src/core/domain/result';
import type { ReviewEvent } from '../../src/core/domain/events';
import type { HostToWebview, WebviewToHost } from '../../src/shared/protocol';
import type { PanelMessage } from '../../src/vscode/panel/reviewPanels';
import type { ReviewSessionHandle } from '../../src/vscode/panel/panelContract';
import { quorum } from './helpers';

/** A review session whose events the test scripts (no gateway, no pipeline). */
class ScriptedSession implements ReviewSessionHandle {
  private readonly log: ReviewEvent[] = [];
  private readonly emitter = new vscode.EventEmitter<ReviewEvent>();
  readonly onEvent = this.emitter.event;
  readonly startedAt = Date.now();
  readonly estimate = { perAgent: {}, costUsd: 0.0042, likelyUsd: 0.0011 };
  isDone = false;

  constructor(readonly id: string, readonly targetKey: string, readonly uri: vscode.Uri, initial: ReviewEvent[]) {
    this.log.push(...initial);
  }

  get target() {
    return { kind: 'selection' as const, label: `${this.uri.fsPath}:1-5`, regions: [{ file: this.uri.fsPath, language: 'typescript', startLine: 1, endLine: 5 }] };
  }

  events(): readonly ReviewEvent[] {
    return this.log;
  }

  emit(e: ReviewEvent): void {
    this.log.push(e);
    if (e.type === 'review-done') this.isDone = true;
    this.emitter.fire(e);
  }
}

function result(agent: string, text: string): AgentResult {
  return {
    agent, title: agent, role: 'reviewer', model: 'gpt-4.1', status: 'ok', text, findings: [],
    usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 },
    costUsd: 0.001, costSource: 'reported', latencyMs: 50, attempts: 1, cached: false,
  };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('review panel (inside VS Code)', () => {
  const posted: PanelMessage<HostToWebview>[] = [];
  const received: PanelMessage<WebviewToHost>[] = [];
  const subscriptions: vscode.Disposable[] = [];
  let uri: vscode.Uri;

  before(async () => {
    const api = await quorum();
    subscriptions.push(api.panels.onDidPostMessage((m) => posted.push(m)), api.panels.onDidReceiveMessage((m) => received.push(m)));
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the fixture workspace is open');
    uri = vscode.Uri.joinPath(folder.uri, 'sample.ts');
    await vscode.window.showTextDocument(uri);
  });

  after(async () => {
    for (const d of subscriptions) d.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens beside the editor, hears ready, sends a snapshot, then numbered events', async () => {
    const api = await quorum();
    const key = `${uri.toString()}#1-5`;
    const session = new ScriptedSession('it-1', key, uri, [
      { type: 'queued', reviewId: 'it-1', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', output: 'findings' },
      { type: 'queued', reviewId: 'it-1', agent: 'security', title: 'Security', model: 'gemini-2.5-flash', output: 'findings' },
      { type: 'started', reviewId: 'it-1', agent: 'analyst', model: 'gpt-4.1' },
      { type: 'delta', reviewId: 'it-1', agent: 'analyst', text: 'Looks ' },
    ]);
    api.panels.show(session);
    await until('ready', () => received.find((m) => m.targetKey === key && m.message.type === 'ready'));
    const snap = await until('snapshot', () => posted.find((m) => m.targetKey === key && m.message.type === 'snapshot' && m.message.review?.sessionId === 'it-1'));
    assert.equal(snap.message.type, 'snapshot');
    if (snap.message.type !== 'snapshot' || !snap.message.review) return;
    assert.deepEqual(snap.message.review.agents.map((a) => [a.agent, a.state, a.text]), [['analyst', 'running', 'Looks '], ['security', 'queued', '']]);
    assert.equal(snap.message.review.estimateUsd, 0.0042);
    assert.equal(snap.message.review.live, true);
    assert.equal(snap.message.strings.stop, vscode.l10n.t('Stop'));
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('quorum.review'));
    assert.ok(tab, 'a review panel tab is open');
    assert.notEqual(tab.group.viewColumn, vscode.ViewColumn.One, 'beside the editor');

    session.emit({ type: 'delta', reviewId: 'it-1', agent: 'analyst', text: 'good.' });
    session.emit({ type: 'done', reviewId: 'it-1', agent: 'analyst', result: result('analyst', 'Looks good.') });
    const batch = await until('events', () => posted.find((m) => m.targetKey === key && m.message.type === 'events' && m.message.seq > snap.message.seq));
    if (batch.message.type !== 'events') return;
    assert.equal(batch.message.seq, snap.message.seq + 1, 'events follow the snapshot without a gap');
    const kindsSent = () => posted.filter((m) => m.targetKey === key && m.message.type === 'events')
      .flatMap((m) => (m.message.type === 'events' ? m.message.events.map((e) => e.kind) : []));
    const all = await until('the done event', () => (kindsSent().includes('ended') ? kindsSent() : undefined));
    assert.deepEqual(all, ['delta', 'ended']);
    // The page validated and applied everything: it never asked for a resync.
    assert.equal(received.filter((m) => m.targetKey === key && m.message.type === 'resync').length, 0);
  });

  it('reuses the panel of the same target for a re-run and sends the new session\'s snapshot', async () => {
    const api = await quorum();
    const key = `${uri.toString()}#1-5`;
    const before = posted.length;
    const rerun = new ScriptedSession('it-2', key, uri, [
      { type: 'queued', reviewId: 'it-2', agent: 'coding', title: 'Coding', model: 'deepseek-v3.2', output: 'code' },
    ]);
    api.panels.show(rerun);
    const snap = await until('snapshot of the re-run', () => posted.slice(before).find((m) => m.message.type === 'snapshot' && m.message.review?.sessionId === 'it-2'));
    if (snap.message.type !== 'snapshot') return;
    assert.deepEqual(snap.message.review?.agents.map((a) => a.agent), ['coding']);
    assert.deepEqual(api.panels.openTargets().filter((k) => k === key), [key]);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('quorum.review'));
    assert.equal(tabs.length, 1, 'one panel per target');
  });

  it('sends a fresh snapshot when the hidden panel is shown again (the page reloads and says ready)', async () => {
    const api = await quorum();
    const key = `${uri.toString()}#1-5`;
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('quorum.review'));
    assert.ok(tab);
    const readies = received.filter((m) => m.targetKey === key && m.message.type === 'ready').length;
    // Cover the panel with an editor in its group, then bring it back.
    await vscode.window.showTextDocument(uri, { viewColumn: tab.group.viewColumn, preview: false });
    const before = posted.length;
    const again = new ScriptedSession('it-3', key, uri, [
      { type: 'queued', reviewId: 'it-3', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', output: 'findings' },
    ]);
    api.panels.show(again);
    await until('a second ready', () => (received.filter((m) => m.targetKey === key && m.message.type === 'ready').length > readies ? true : undefined));
    await until('snapshot after reload', () => posted.slice(before).find((m) => m.message.type === 'snapshot' && m.message.review?.sessionId === 'it-3'));
  });
});
