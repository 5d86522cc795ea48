import { strict as assert } from 'node:assert';
import type { AgentView, ReviewView, WebviewToHost } from '../../../src/shared/protocol';
import { emptyReview } from '../../../src/shared/reviewReducer';
import { ALL_COMMANDS, Commands, InternalCommands } from '../../../src/vscode/commands';
import { panelCommand, type PanelAction, type PanelState } from '../../../src/vscode/panel/panelCommands';

/** An agent's card that failed because the gateway does not know its model, with the ids it offered instead. */
function unknownModelCard(agent: string, suggestions: string[]): AgentView {
  return {
    agent, title: agent, model: 'gpt-4.2', state: 'failed', text: '', chunks: 0,
    outcome: {
      state: 'failed', model: 'gpt-4.2', text: '', cached: false,
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 },
      costUsd: 0, costSource: 'reported', latencyMs: 10, attempts: 1, findingCount: 0,
      error: { code: 'model-not-found', suggestions },
    },
  };
}

function view(): ReviewView {
  const v = emptyReview({
    sessionId: 'r-1', targetKey: 'file:///a.ts#1-9', startedAt: 0,
    target: { file: 'a.ts', language: 'typescript', startLine: 1, endLine: 9 },
    context: { enabled: true, root: 'file:///repo', items: [], tokens: 0, cut: [] },
  });
  v.agents.push(unknownModelCard('security', ['gpt-4.1', 'gpt-4o']));
  return v;
}

const live: PanelState = { sessionId: 'r-1', running: true, targetKey: 'file:///a.ts#1-9', view: view() };
/** A panel restored after a reload: its view, no review to act on. */
const restored: PanelState = { ...live, sessionId: undefined, running: false };

/** Every button the page has (each action message of the protocol). */
const BUTTONS: PanelAction[] = [
  { type: 'stop' },
  { type: 'rerun', noCache: true },
  { type: 'reveal', findingId: 'f1' },
  { type: 'previewFix', findingId: 'f1' },
  { type: 'applyFix', findingId: 'f1' },
  { type: 'dismiss', findingId: 'f1' },
  { type: 'dismissInProject', findingId: 'f1' },
  { type: 'previewImproved' },
  { type: 'applyImproved' },
  { type: 'setApiKey' },
  { type: 'switchModel', agent: 'security' },
  { type: 'openContext', file: 'src/rates.ts', startLine: 3, endLine: 8 },
];

describe("the review panel's buttons: each runs one of the extension's commands (panel/panelCommands.ts)", () => {
  it('covers every action message of the protocol', () => {
    const own: WebviewToHost['type'][] = ['ready', 'resync', 'export', 'copyImproved', 'openLink', 'log'];
    // The protocol's union, listed through a value of each type: a new message type must be placed on one side.
    const everyType: Record<WebviewToHost['type'], true> = {
      ready: true, resync: true, stop: true, rerun: true, export: true, reveal: true, previewFix: true, applyFix: true, dismiss: true,
      dismissInProject: true, previewImproved: true, applyImproved: true, copyImproved: true, setApiKey: true, switchModel: true,
      openLink: true, openContext: true, log: true,
    };
    assert.deepEqual(Object.keys(everyType).filter((t) => !own.includes(t as WebviewToHost['type'])).sort(), BUTTONS.map((b) => b.type).sort());
  });

  it('a live review: every button runs a registered command, with the review and the finding it names', () => {
    const calls = BUTTONS.map((m) => panelCommand(m, live));
    for (const c of calls) assert.ok(c && ALL_COMMANDS.includes(c.command as (typeof ALL_COMMANDS)[number]), JSON.stringify(c));
    assert.deepEqual(calls, [
      { command: Commands.cancelReview, args: ['r-1'] },
      { command: InternalCommands.rerunReview, args: ['file:///a.ts#1-9', { noCache: true }] },
      { command: InternalCommands.revealFinding, args: ['r-1', 'f1'] },
      { command: InternalCommands.previewFix, args: ['r-1', 'f1'] },
      { command: InternalCommands.applyFix, args: ['r-1', 'f1'] },
      { command: InternalCommands.dismissFinding, args: ['r-1', 'f1'] },
      { command: InternalCommands.dismissInProject, args: ['r-1', 'f1'] },
      { command: InternalCommands.previewImprovedCode, args: ['r-1'] },
      { command: InternalCommands.applyImprovedCode, args: ['r-1'] },
      { command: Commands.setApiKey, args: [] },
      // An unknown model's card: the picker offers the gateway's closest ids first.
      { command: Commands.switchModel, args: ['security', ['gpt-4.1', 'gpt-4o']] },
      // The context's root is the host's own view's, never the page's.
      { command: InternalCommands.openContext, args: ['file:///repo', 'src/rates.ts', 3, 8] },
    ]);
  });

  it('a restored review (no session): finding and code buttons run nothing; Re-run, the key, models and context still do', () => {
    const routed = BUTTONS.filter((m) => panelCommand(m, restored) !== undefined).map((m) => m.type);
    assert.deepEqual(routed, ['rerun', 'setApiKey', 'switchModel', 'openContext']);
  });

  it('Stop runs only while the review runs; Switch Model for no agent (or one without suggestions) passes none', () => {
    assert.equal(panelCommand({ type: 'stop' }, { ...live, running: false }), undefined);
    assert.deepEqual(panelCommand({ type: 'switchModel' }, live), { command: Commands.switchModel, args: [undefined, undefined] });
    assert.deepEqual(panelCommand({ type: 'switchModel', agent: 'analyst' }, live), { command: Commands.switchModel, args: ['analyst', undefined] });
  });
});
