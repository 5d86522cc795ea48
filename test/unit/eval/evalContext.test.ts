import { strict as assert } from 'node:assert';
import { join, resolve } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { evalJsonSchema } from '../../../src/core/eval/report';
import { corpusOracles } from '../../fixtures/gateway/oracle';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-test-eval-context-0123456789';
const root = resolve(__dirname, '..', '..', '..');
/** A case whose bug (a call without a required argument) shows only with the callee's definition from another file. */
const corpusDir = join(root, 'test', 'fixtures', 'eval-context');

async function quorum(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, ...env }, version: '0.0.0', signal: new AbortController().signal, cwd: root,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

const userOf = (r: RecordedRequest) => ((r.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

describe('quorum eval with context (a bug visible only with a definition from another file)', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: corpusOracles(corpusDir) });
  });
  after(() => tg.close());
  beforeEach(() => (tg.requests.length = 0));

  it('finds the bug with the definition in the prompt, and misses it with --context off', async () => {
    const withContext = await quorum(['eval', '--corpus', corpusDir, '--compare', 'analyst=oracle-context', '--format', 'json'], { QUORUM_BASE_URL: tg.url });
    assert.equal(withContext.code, 0, withContext.stderr);
    const on = evalJsonSchema.parse(JSON.parse(withContext.stdout)).runs[0];
    assert.equal(on?.recall, 1);
    const chat = tg.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(chat.length, 1);
    assert.match(userOf(chat[0] as RecordedRequest), /File: js-missing-argument\/money\.js \(definition formatPrice, lines 2-4\)\n```javascript\n2 \| export function formatPrice\(cents, currency\) \{/);

    tg.requests.length = 0;
    const without = await quorum(['eval', '--corpus', corpusDir, '--compare', 'analyst=oracle-context', '--format', 'json', '--context', 'off'], { QUORUM_BASE_URL: tg.url });
    assert.equal(without.code, 0, without.stderr);
    const off = evalJsonSchema.parse(JSON.parse(without.stdout)).runs[0];
    assert.equal(off?.recall, 0);
    assert.ok(!userOf(tg.requests.find((r) => r.path.endsWith('/chat/completions')) as RecordedRequest).includes('Context (read-only'));
  });
});
