import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { formatUsd } from '../../src/shared/format';
import type { QuorumApi } from '../../src/vscode/api';
import { ScriptedPrompter, quorum, setSetting } from './helpers';

const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, cachedTokens: 0, reasoningTokens: 0 });

describe('cost in the status bar, Show Cost, budgets', () => {
  let api: QuorumApi;
  let prompter: ScriptedPrompter;

  before(async () => {
    api = await quorum();
  });

  beforeEach(() => {
    prompter = new ScriptedPrompter();
    api.usePrompter(prompter);
    api.cost.reset();
  });

  after(async () => {
    api.usePrompter(undefined);
    await setSetting(api, 'budget.warnUsd', undefined);
    await setSetting(api, 'budget.monthlyUsd', undefined);
    api.cost.reset();
  });

  it('shows the session total of the ledger, by agent and model in the tooltip, estimated figures marked', () => {
    assert.equal(api.cost.statusBar.text, '$(pulse) $0.00');
    api.ledger.record({ model: 'gpt-4.1', tag: { agent: 'analyst', reviewId: 'r1' }, attempt: 1, usage: usage(1000, 500), usageSource: 'reported', outcome: 'ok' });
    api.ledger.record({ model: 'deepseek-v3.2', tag: { agent: 'coding', reviewId: 'r1' }, attempt: 1, usage: usage(2000, 1000), usageSource: 'estimated', outcome: 'ok' });
    api.ledger.record({ model: 'deepseek-v3.2', tag: { agent: 'coding', reviewId: 'r1' }, attempt: 2, usage: usage(0, 0), outcome: 'failed' });
    const total = api.ledger.totals().session.costUsd;
    // gpt-4.1: 1000 × $2 + 500 × $8 per MTok; deepseek-v3.2: 2000 × $0.2288 + 1000 × $0.3432 per MTok (the catalogue's,
    // @pydantic/genai-prices; the old table said $0.28 and $0.42).
    assert.ok(Math.abs(total - (0.002 + 0.004 + 0.0004576 + 0.0003432)) < 1e-12);
    assert.equal(api.cost.statusBar.text, `$(pulse) ${formatUsd(total)}`);
    // Untrusted names (agents, models) are Markdown-escaped in the tooltip; compare what the reader sees.
    const tip = api.cost.statusBar.tooltipText.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    for (const part of ['analyst', 'coding', 'gpt-4.1', 'deepseek-v3.2', '3,000 in', 'requests: 2, retries: 1', 'estimated', 'This month']) assert.ok(tip.includes(part), `${part} in ${tip}`);
    assert.equal(api.cost.statusBar.warning, false);
  });

  it('turns to a warning past quorum.budget.warnUsd', async () => {
    await setSetting(api, 'budget.warnUsd', 0.01);
    api.ledger.record({ model: 'gpt-4.1', tag: { agent: 'analyst' }, attempt: 1, usage: usage(1000, 100), reportedCostUsd: 0.009, outcome: 'ok' });
    assert.equal(api.cost.statusBar.warning, false);
    api.ledger.record({ model: 'gpt-4.1', tag: { agent: 'analyst' }, attempt: 1, usage: usage(1000, 100), reportedCostUsd: 0.002, outcome: 'ok' });
    assert.equal(api.cost.statusBar.warning, true);
    assert.ok(api.cost.statusBar.tooltipText.includes('Past the warning level of $0.0100'));
  });

  it('Show Cost lists agents and models and resets the session on request; month-to-date survives the reset', async () => {
    api.ledger.record({ model: 'claude-sonnet-4.5', tag: { agent: 'architecture' }, attempt: 1, usage: usage(1000, 1000), outcome: 'ok', usageSource: 'reported' });
    await api.cost.settled();
    const month = api.cost.view().monthUsd;
    assert.ok(month >= 0.018);
    prompter.onPick('cost.details', (items) => items.find((i) => i.label.includes('Reset session cost')));
    await vscode.commands.executeCommand('quorum.showCost');
    const items = prompter.calls.find((c) => c.id === 'cost.details')?.items ?? [];
    assert.ok(items.some((i) => i.label.includes('architecture') && i.description === '$0.0180'));
    assert.ok(items.some((i) => i.label.includes('claude-sonnet-4.5')));
    // Counts read right for one as for many.
    assert.ok(items.some((i) => i.label.includes('architecture') && i.detail === '1,000 in · 1,000 out · 0 cached · requests: 1 · retries: 0'), JSON.stringify(items.map((i) => i.detail)));
    assert.equal(api.ledger.totals().session.costUsd, 0);
    assert.equal(api.cost.statusBar.text, '$(pulse) $0.00');
    assert.equal(api.cost.view().monthUsd, month);
  });

  it('warns once when the month passes quorum.budget.monthlyUsd', async () => {
    await setSetting(api, 'budget.monthlyUsd', 0.0001);
    const warned = prompter.next((c) => c.id === 'cost.monthlyBudget');
    api.ledger.record({ model: 'gpt-4.1', tag: { agent: 'analyst' }, attempt: 1, usage: usage(100, 100), outcome: 'ok', usageSource: 'reported' });
    await api.cost.settled();
    const shown = await warned;
    assert.match(shown.text ?? '', /monthly budget/);
    assert.deepEqual(shown.actions, ['Show Cost']);
    api.ledger.record({ model: 'gpt-4.1', tag: { agent: 'analyst' }, attempt: 1, usage: usage(100, 100), outcome: 'ok', usageSource: 'reported' });
    await api.cost.settled();
    assert.equal(prompter.messagesWith('cost.monthlyBudget').length, 1);
    assert.equal(api.cost.statusBar.warning, true);
  });
});
