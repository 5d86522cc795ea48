import { strict as assert } from 'node:assert';
import { join, resolve } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { loadCorpus } from '../../../src/core/eval/corpus';
import { kindsOf } from '../../../src/core/eval/match';
import { evalJsonSchema } from '../../../src/core/eval/report';
import { corpusOracles } from '../../fixtures/gateway/oracle';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-test-eval-context-0123456789';
const root = resolve(__dirname, '..', '..', '..');
/** A case whose bug (a call without a required argument) shows only with the callee's definition from another file. */
const corpusDir = join(root, 'test', 'fixtures', 'eval-context');
/** The corpus `quorum eval` runs without --corpus; one of its cases (js-swapped-arguments) needs billing.js's definition. */
const shippedDir = join(root, 'eval', 'corpus');

async function quorum(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, ...env }, version: '0.0.0', signal: new AbortController().signal, cwd: root,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

/** The shipped corpus's oracles under other ids (the fixture corpus's `oracle-context` keeps its own). */
const prefixed = <T>(oracles: Record<string, T>, prefix: string): Record<string, T> => Object.fromEntries(Object.entries(oracles).map(([id, o]) => [`${prefix}${id}`, o]));

const userOf = (r: RecordedRequest) => ((r.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

describe('quorum eval with context (a bug visible only with a definition from another file)', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: { ...corpusOracles(corpusDir), ...prefixed(corpusOracles(shippedDir), 'shipped-') } });
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

  it('the shipped corpus (the default of quorum eval) holds such a case: found with its context, missed with --context off', async () => {
    const corpus = await loadCorpus(shippedDir);
    const flawed = corpus.cases.filter((c) => c.expected.length > 0).length;
    const caseRequest = () => tg.requests.find((r) => r.path.endsWith('/chat/completions') && userOf(r).includes('js-swapped-arguments/checkout.js'));

    // No --corpus: the corpus quorum eval finds beside its build (the repository's eval/corpus in development).
    const on = await quorum(['eval', '--compare', 'analyst=shipped-oracle-context', '--format', 'json'], { QUORUM_BASE_URL: tg.url });
    assert.equal(on.code, 0, on.stderr);
    assert.match(on.stderr, new RegExp(`over ${corpus.cases.length} cases`));
    const withContext = evalJsonSchema.parse(JSON.parse(on.stdout)).runs[0];
    assert.equal(withContext?.recall, 1, 'every flawed case found, the cross-file one too');
    const sent = userOf(caseRequest() as RecordedRequest);
    assert.match(sent, /File: js-swapped-arguments\/billing\.js \(definition chargeCustomer, lines \d+-\d+\)/);
    assert.ok(sent.includes('export async function chargeCustomer(customerId, amountCents)'));

    tg.requests.length = 0;
    const off = await quorum(['eval', '--compare', 'analyst=shipped-oracle-context', '--format', 'json', '--context', 'off'], { QUORUM_BASE_URL: tg.url });
    assert.equal(off.code, 0, off.stderr);
    const without = evalJsonSchema.parse(JSON.parse(off.stdout)).runs[0];
    assert.ok(!userOf(caseRequest() as RecordedRequest).includes('Context (read-only'));
    // The one finding that needs the context, and only that one, is missed: recall (n - 1) / n of the analyst's n.
    const scored = corpus.cases.reduce((n, c) => n + c.expected.filter((f) => kindsOf('analyst').includes(f.kind)).length, 0);
    assert.ok(flawed > 0 && scored > 1);
    assert.equal(without?.recall, (scored - 1) / scored);
  });
});
