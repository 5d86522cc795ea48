import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { catalogPrice } from '../../../src/core/cost/catalog';
import { costOf } from '../../../src/core/cost/prices';
import { jsonOutputSchema } from '../../../src/core/report/json';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

/**
 * Issue 30, item 6: a reasoning model's reasoning tokens (`completion_tokens_details.reasoning_tokens`, part of
 * `completion_tokens`) are shown in the text and JSON outputs and priced as output, at the catalogue's o3 price.
 */
describe('quorum review on a reasoning model: reasoning tokens shown and priced as output (loopback gateway)', function () {
  this.timeout(30_000);
  const KEY = 'sk-reasoning-test-key-0123456789';
  let tg: TestGateway;
  let file: string;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, models: ['o3'] });
    tg.script((rec) => (rec.path.endsWith('/chat/completions') ? { reasoning: 'Let me look at each line of the code carefully before I answer.', text: JSON.stringify({ findings: [] }) } : undefined));
    const dir = mkdtempSync(join(tmpdir(), 'quorum-reasoning-'));
    file = join(dir, 'a.py');
    writeFileSync(file, 'x = 1\n');
  });
  after(() => tg.close());

  async function review(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['review', file, '--agents', 'analyst', '--model', 'analyst=o3', '--verify', 'off', '--no-cache', ...extra],
      env: { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, LANG: 'en_US.UTF-8' },
      version: '0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }

  it('counts them in the JSON usage, says them in the text, and bills them at the output price', async () => {
    const r = await review('--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const out = jsonOutputSchema.parse(JSON.parse(r.stdout));
    const analyst = out.agents.find((a) => a.id === 'analyst');
    const served = tg.served.at(-1)?.usage;
    assert.ok(served && served.completion_tokens_details.reasoning_tokens > 0, 'the gateway reported reasoning tokens');
    assert.equal(analyst?.usage.reasoningTokens, served.completion_tokens_details.reasoning_tokens);
    assert.equal(analyst?.usage.completionTokens, served.completion_tokens);
    const usage = { promptTokens: served.prompt_tokens, completionTokens: served.completion_tokens, cachedTokens: 0, reasoningTokens: served.completion_tokens_details.reasoning_tokens };
    assert.equal(analyst?.costUsd, costOf(catalogPrice('o3')!, usage));
    const text = await review();
    assert.match(text.stdout, new RegExp(`analyst \\(o3\\): ok.* ${served.prompt_tokens}\\+${served.completion_tokens} tokens \\(${served.completion_tokens_details.reasoning_tokens} reasoning\\)`));
  });
});
