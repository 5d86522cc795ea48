import { strict as assert } from 'node:assert';
import type { QuorumApi } from '../../src/vscode/api';
import { ScriptedPrompter, quorum, setSetting } from './helpers';

describe('settings: read live, invalid values reported once by name', () => {
  let api: QuorumApi;
  let prompter: ScriptedPrompter;

  before(async () => {
    api = await quorum();
    prompter = new ScriptedPrompter();
    api.usePrompter(prompter);
  });

  after(async () => {
    await setSetting(api, 'limits.maxConcurrent', undefined);
    await setSetting(api, 'review.language', undefined);
    api.usePrompter(undefined);
  });

  it('applies a valid change without a reload', async () => {
    await setSetting(api, 'limits.maxConcurrent', 7);
    assert.equal(api.settings.current.limits.maxConcurrent, 7);
  });

  it('reports an invalid value once with the setting\'s name and uses the default', async () => {
    await setSetting(api, 'limits.maxConcurrent', 0);
    assert.equal(api.settings.current.limits.maxConcurrent, 4);
    const reported = prompter.messagesWith('settings.invalid');
    assert.equal(reported.length, 1);
    assert.match(reported[0]?.text ?? '', /quorum\.limits\.maxConcurrent/);
    assert.deepEqual(reported[0]?.actions, ['Open Settings']);
    // Another, unrelated change re-reads the settings: the same invalid value is not reported again.
    await setSetting(api, 'review.language', 'ko');
    assert.equal(api.settings.current.review.language, 'ko');
    assert.equal(prompter.messagesWith('settings.invalid').length, 1);
    // A different invalid value is news.
    await setSetting(api, 'limits.maxConcurrent', 1000);
    assert.equal(prompter.messagesWith('settings.invalid').length, 2);
    assert.ok(api.settings.issues.some((i) => i.path === 'limits.maxConcurrent'));
  });
});
