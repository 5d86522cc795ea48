import { strict as assert } from 'node:assert';
import { PROMPT_VERSION } from '../../../src/core/agents/prompts';
import { findCycle, resolveAgents, selectAgents, topologicalOrder } from '../../../src/core/agents/registry';
import { parseSettings } from '../../../src/core/settings/parse';

const settingsOf = (raw: unknown) => parseSettings(raw).settings;

describe('agent registry', () => {
  it('gives the four built-ins with their default models, coding depending on the three reviewers', () => {
    const { agents, issues } = resolveAgents(settingsOf({}));
    assert.deepEqual(issues, []);
    assert.deepEqual(agents.map((a) => [a.id, a.model, a.output]), [
      ['analyst', 'gpt-4.1', 'findings'],
      ['architecture', 'claude-sonnet-4.5', 'findings'],
      ['security', 'gemini-2.5-flash', 'findings'],
      ['coding', 'deepseek-v3.2', 'code'],
    ]);
    assert.deepEqual(agents.find((a) => a.id === 'coding')?.dependsOn, ['analyst', 'architecture', 'security']);
    assert.ok(agents.every((a) => a.promptVersion === PROMPT_VERSION && a.systemPrompt.length > 50));
  });

  it('applies model and prompt overrides; an overridden prompt gets its own version', () => {
    const { agents } = resolveAgents(settingsOf({ agents: { security: { model: 'gpt-4o-mini', systemPrompt: 'Only OWASP top 10.', fallbackModel: 'gpt-4.1' } } }));
    const security = agents.find((a) => a.id === 'security');
    assert.equal(security?.model, 'gpt-4o-mini');
    assert.equal(security?.fallbackModel, 'gpt-4.1');
    assert.equal(security?.systemPrompt, 'Only OWASP top 10.');
    assert.notEqual(security?.promptVersion, PROMPT_VERSION);
  });

  it('drops disabled built-ins and the dependencies on them', () => {
    const { agents, issues } = resolveAgents(settingsOf({ agents: { security: { enabled: false } } }));
    assert.deepEqual(issues, []);
    assert.deepEqual(agents.map((a) => a.id), ['analyst', 'architecture', 'coding']);
    assert.deepEqual(agents.find((a) => a.id === 'coding')?.dependsOn, ['analyst', 'architecture']);
  });

  it('adds custom agents and reports unknown dependencies as fatal', () => {
    const { agents, issues } = resolveAgents(settingsOf({
      customAgents: [
        { id: 'docs', title: 'Docs', systemPrompt: 'Check comments.', model: 'gpt-4.1-mini', dependsOn: ['analyst'] },
        { id: 'perf', title: 'Perf', systemPrompt: 'Check speed.', model: 'gpt-4.1-mini', dependsOn: ['nope', 'docs'] },
      ],
    }));
    assert.deepEqual(agents.map((a) => a.id), ['analyst', 'architecture', 'security', 'coding', 'docs', 'perf']);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]?.code, 'unknown-dependency');
    assert.equal(issues[0]?.agent, 'perf');
    assert.deepEqual(issues[0]?.related, ['nope']);
    assert.equal(issues[0]?.path, 'customAgents.1.dependsOn');
    assert.match(issues[0]?.message ?? '', /"nope"/);
    assert.equal(issues[0]?.fatal, true);
  });

  it('reports a cycle with its agents in order', () => {
    const { issues } = resolveAgents(settingsOf({
      customAgents: [
        { id: 'a', title: 'A', systemPrompt: 'x', model: 'm', dependsOn: ['b'] },
        { id: 'b', title: 'B', systemPrompt: 'x', model: 'm', dependsOn: ['c'] },
        { id: 'c', title: 'C', systemPrompt: 'x', model: 'm', dependsOn: ['a'] },
      ],
    }));
    const cycle = issues.find((i) => i.code === 'cycle');
    assert.ok(cycle?.fatal);
    assert.deepEqual(new Set(cycle?.related), new Set(['a', 'b', 'c']));
    assert.match(cycle?.message ?? '', /a -> b -> c -> a|b -> c -> a -> b|c -> a -> b -> c/);
  });

  it('reports a custom agent that reuses an id and ignores it', () => {
    const { agents, issues } = resolveAgents(settingsOf({ customAgents: [{ id: 'security', title: 'Mine', systemPrompt: 'x', model: 'm' }] }));
    assert.equal(agents.filter((a) => a.id === 'security').length, 1);
    assert.equal(agents.find((a) => a.id === 'security')?.title, 'Security');
    assert.deepEqual(issues.map((i) => [i.code, i.fatal]), [['duplicate-id', false]]);
  });

  it('gives each agent its role: the table\'s for the built-ins, a custom agent\'s from its role or its output', () => {
    const { agents, issues } = resolveAgents(settingsOf({
      customAgents: [
        { id: 'perf', title: 'Perf', systemPrompt: 'x', model: 'm' },
        { id: 'fixer', title: 'Fixer', systemPrompt: 'x', model: 'm', role: 'coder' },
        { id: 'old-fixer', title: 'Old', systemPrompt: 'x', model: 'm', output: 'code' },
        { id: 'docs', title: 'Docs', systemPrompt: 'x', model: 'm', role: 'reviewer', output: 'findings' },
      ],
    }));
    assert.deepEqual(issues, []);
    assert.deepEqual(agents.map((a) => [a.id, a.role, a.output]), [
      ['analyst', 'reviewer', 'findings'],
      ['architecture', 'reviewer', 'findings'],
      ['security', 'reviewer', 'findings'],
      ['coding', 'coder', 'code'],
      ['perf', 'reviewer', 'findings'],
      ['fixer', 'coder', 'code'],
      ['old-fixer', 'coder', 'code'],
      ['docs', 'reviewer', 'findings'],
    ]);
  });

  it('refuses a custom agent whose role and output disagree, or that plays the verifier', () => {
    const { settings, issues } = parseSettings({
      customAgents: [
        { id: 'odd', title: 'Odd', systemPrompt: 'x', model: 'm', role: 'coder', output: 'findings' },
        { id: 'judge', title: 'Judge', systemPrompt: 'x', model: 'm', role: 'verifier' },
      ],
    });
    assert.deepEqual(settings.customAgents, []);
    assert.deepEqual(issues.map((i) => i.path).sort(), ['customAgents.0.output', 'customAgents.1.role']);
  });

  it('keeps the verifier\'s id for the verifier: a custom agent named so is ignored', () => {
    const { agents, issues } = resolveAgents(settingsOf({ customAgents: [{ id: 'verifier', title: 'Mine', systemPrompt: 'x', model: 'm' }] }));
    assert.equal(agents.some((a) => a.id === 'verifier'), false);
    assert.deepEqual(issues.map((i) => [i.code, i.path]), [['duplicate-id', 'customAgents.0.id']]);
  });

  it('finds self-dependencies and orders agents after their dependencies', () => {
    assert.deepEqual(findCycle([{ id: 'x', dependsOn: ['x'] }]), ['x']);
    assert.equal(findCycle([{ id: 'x', dependsOn: ['y'] }, { id: 'y', dependsOn: [] }]), undefined);
    const order = topologicalOrder([
      { id: 'c', dependsOn: ['a', 'b'] },
      { id: 'a', dependsOn: [] },
      { id: 'd', dependsOn: ['c'] },
      { id: 'b', dependsOn: ['a'] },
    ]).map((a) => a.id);
    assert.deepEqual(order, ['a', 'b', 'c', 'd']);
    assert.throws(() => topologicalOrder([{ id: 'x', dependsOn: ['y'] }, { id: 'y', dependsOn: ['x'] }]), /cycle/);
  });

  it('selects a subset and drops dependencies on agents left out', () => {
    const { agents } = resolveAgents(settingsOf({}));
    const picked = selectAgents(agents, ['coding', 'security', 'ghost']);
    assert.deepEqual(picked.agents.map((a) => a.id), ['security', 'coding']);
    assert.deepEqual(picked.agents.find((a) => a.id === 'coding')?.dependsOn, ['security']);
    assert.deepEqual(picked.unknown, ['ghost']);
    assert.deepEqual(agents.find((a) => a.id === 'coding')?.dependsOn, ['analyst', 'architecture', 'security'], 'the input is not changed');
  });
});
