import { strict as assert } from 'node:assert';
import { parseSettings } from '../../src/core/settings/parse';
import { DEFAULT_BASE_URL } from '../../src/core/settings/schema';

describe('settings', () => {
  it('fills every default from an empty object', () => {
    const { settings, issues } = parseSettings({});
    assert.deepEqual(issues, []);
    assert.equal(settings.gateway.baseUrl, DEFAULT_BASE_URL);
    assert.equal(settings.limits.maxConcurrent, 4);
    assert.equal(settings.limits.maxRetries, 4);
    assert.equal(settings.limits.idleTimeoutSeconds, 60);
    assert.equal(settings.agents.analyst.model, 'gpt-4.1');
    assert.equal(settings.agents.coding.model, 'deepseek-v3.2');
    assert.equal(settings.cache.ttlMinutes, 10);
    assert.equal(settings.review.mode, 'parallel');
  });

  it('reports invalid fields by path and falls back to their defaults, keeping the valid ones', () => {
    const { settings, issues } = parseSettings({
      gateway: { baseUrl: 'not a url', extraHeaders: { 'X-Team': 'core' } },
      limits: { maxConcurrent: 0, maxRetries: 2 },
      agents: { security: { model: 'bad model id' }, analyst: { model: 'gpt-4o' } },
    });
    assert.deepEqual(issues.map((i) => i.path).sort(), ['agents.security.model', 'gateway.baseUrl', 'limits.maxConcurrent']);
    assert.equal(settings.gateway.baseUrl, DEFAULT_BASE_URL);
    assert.deepEqual(settings.gateway.extraHeaders, { 'X-Team': 'core' });
    assert.equal(settings.limits.maxConcurrent, 4);
    assert.equal(settings.limits.maxRetries, 2);
    assert.equal(settings.agents.security.model, 'gemini-2.5-flash');
    assert.equal(settings.agents.analyst.model, 'gpt-4o');
  });

  it('drops an invalid custom agent and keeps the valid ones', () => {
    const good = { id: 'perf', title: 'Performance', systemPrompt: 'Find slow code.', model: 'gpt-4.1-mini' };
    const { settings, issues } = parseSettings({ customAgents: [{ id: 'Bad Id' }, good] });
    assert.equal(settings.customAgents.length, 1);
    assert.equal(settings.customAgents[0]?.id, 'perf');
    assert.ok(issues.some((i) => i.path.startsWith('customAgents.0')));
  });

  it('refuses an Authorization header in extra headers', () => {
    const { settings, issues } = parseSettings({ gateway: { extraHeaders: { authorization: 'Bearer x' } } });
    assert.deepEqual(settings.gateway.extraHeaders, {});
    assert.equal(issues[0]?.path, 'gateway.extraHeaders');
  });

  it('quorum.eval.corpus: a path (trimmed), empty by default; a control character or a non-string is reported by path and ignored', () => {
    assert.equal(parseSettings({}).settings.eval.corpus, '');
    assert.equal(parseSettings({ eval: { corpus: '  eval/team-corpus ' } }).settings.eval.corpus, 'eval/team-corpus');
    for (const corpus of ['eval/\u0000x', 'a\nb', 42, 'x'.repeat(1025)]) {
      const { settings, issues } = parseSettings({ eval: { corpus } });
      assert.equal(settings.eval.corpus, '', JSON.stringify(corpus));
      assert.deepEqual(issues.map((i) => i.path), ['eval.corpus']);
    }
  });

  it('never throws on garbage', () => {
    for (const raw of [null, 42, 'x', [], { limits: 'fast' }, { prices: { 'gpt-4.1': { input: -1 } } }]) {
      const { settings } = parseSettings(raw);
      assert.equal(settings.limits.maxConcurrent, 4);
    }
  });
});
