import { strict as assert } from 'node:assert';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { runCli } from '../../../src/cli/run';
import { loadCorpus, type Corpus } from '../../../src/core/eval/corpus';
import { corpusOracles, FAIL_PREFIX, ORACLE_COST_USD } from '../../fixtures/gateway/oracle';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { isVerifierRequest, verifierPersona, VERIFIER_COST_USD } from '../../fixtures/gateway/verifier';

const root = resolve(__dirname, '..', '..', '..');
const shipped = join(root, 'eval', 'corpus');
const KEY = 'sk-eval-verify-key-0123456789';

const figures = z.object({ precision: z.number().nullable(), recall: z.number().nullable(), f1: z.number().nullable(), costUsd: z.number() });
const docSchema = z.object({ runs: z.array(z.unknown()), verification: z.array(z.object({ agent: z.string(), model: z.string(), without: figures, with: figures, verifierUsd: z.number() })) });

describe('quorum eval --verify: precision, recall and F1 with and without verification, and its cost', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  let corpus: Corpus;

  before(async () => {
    corpus = await loadCorpus(shipped);
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 100_000, oracles: corpusOracles(shipped) });
    // The persona refutes the noisy oracle's unrelated "Variable naming" finding and confirms the rest.
    tg.script(verifierPersona());
  });
  after(() => tg.close());

  async function evalRun(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['eval', '--agents', 'security', '--model', 'security=oracle-noisy', '--max-concurrency', '8', ...argv], env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url },
      version: '0', signal: new AbortController().signal, cwd: root, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }

  it('scores the same answers both ways: the refuted noise goes, precision rises, recall stays; the verifier\'s cost is counted', async () => {
    tg.requests.length = 0;
    const r = await evalRun('--verify', 'cross-model', '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const [v] = docSchema.parse(JSON.parse(r.stdout)).verification;
    assert.ok(v);
    const n = corpus.cases.length;
    const failing = corpus.cases.filter((c) => c.id.startsWith(FAIL_PREFIX)).length;
    const clean = corpus.cases.filter((c) => c.expected.length === 0 && !c.id.startsWith(FAIL_PREFIX)).length;
    const flawed = corpus.cases.filter((c) => c.expected.length > 0 && !c.id.startsWith(FAIL_PREFIX)).length;
    const security = (cs: typeof corpus.cases) => cs.reduce((s, c) => s + c.expected.filter((e) => e.kind === 'security').length, 0);
    const S = security(corpus.cases);
    const tp = S - security(corpus.cases.filter((c) => c.id.startsWith(FAIL_PREFIX)));
    assert.equal(v.without.precision, tp / (tp + flawed + clean));
    assert.equal(v.with.precision, 1);
    assert.equal(v.with.recall, v.without.recall);
    assert.equal(v.without.recall, tp / S);
    assert.ok((v.with.f1 ?? 0) > (v.without.f1 ?? 1));
    // One verifier request per answered case, on a model other than the reviewer's.
    const verifierRequests = tg.requests.filter((q) => q.path.endsWith('/chat/completions') && isVerifierRequest(q));
    assert.equal(verifierRequests.length, n - failing);
    assert.ok(verifierRequests.every((q) => q.model !== 'oracle-noisy'));
    assert.equal(v.verifierUsd, (n - failing) * VERIFIER_COST_USD);
    assert.equal(v.with.costUsd, v.without.costUsd + v.verifierUsd);
    assert.equal(v.without.costUsd, (n - failing) * ORACLE_COST_USD);
    // The text table prints them side by side.
    const text = await evalRun('--verify', 'cross-model');
    assert.match(text.stdout, /Without -> with verification:\nagent\s+model\s+precision\s+recall\s+F1\s+verifier cost/);
    assert.match(text.stdout, /security\s+oracle-noisy\s+0\.\d{3} -> 1\.000\s+(\d\.\d{3}) -> \1/);
  });

  it('without --verify nothing is sent to a verifier and the document has no verification', async () => {
    tg.requests.length = 0;
    const r = await evalRun('--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { verification?: unknown }).verification, undefined);
    assert.equal(tg.requests.filter((q) => isVerifierRequest(q)).length, 0);
    assert.equal((await evalRun('--verify', 'sometimes')).code, 2);
  });
});
