import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { isVerifierRequest, verifierPersona, VERIFIER_COST_USD } from '../../fixtures/gateway/verifier';

const KEY = 'sk-verify-test-key-0123456789';
const CODE = ['import os', 'def run(cmd):', '    os.system("sh -c " + cmd)', '', 'x = 1', 'y = 2', ''].join('\n');
const CRITICAL = { severity: 'critical', title: 'Command injection', explanation: 'cmd reaches a shell.', startLine: 3, endLine: 3, cwe: 'CWE-78', confidence: 0.9 };
const NAMING = { severity: 'low', title: 'Unclear naming of x', explanation: 'Name it.', startLine: 5, endLine: 5, confidence: 0.6 };
const MAYBE = { severity: 'medium', title: 'Maybe y is unused', explanation: 'y is never read.', startLine: 6, endLine: 6, confidence: 0.5 };
const REVIEW_COST = 2 ** -8;

describe('quorum review --verify: a verifier agent checks the merged findings (test gateway verifier persona)', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let file: string;
  let persona: ReturnType<typeof verifierPersona>;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1 });
    tg.script((rec) => persona(rec) ?? (rec.path.endsWith('/chat/completions') ? { text: JSON.stringify({ findings: [CRITICAL, NAMING, MAYBE] }), cost: REVIEW_COST } : undefined));
  });
  after(() => tg.close());
  beforeEach(() => {
    const dir = mkdtempSync(join(tmpdir(), 'quorum-verify-'));
    file = join(dir, 'app.py');
    writeFileSync(file, CODE);
    persona = verifierPersona();
    tg.requests.length = 0;
  });

  async function review(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['review', file, '--agents', 'security', '--no-cache', ...extra], env: { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, LANG: 'en_US.UTF-8' },
      version: '0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }
  const json = (stdout: string): JsonOutput => jsonOutputSchema.parse(JSON.parse(stdout));
  const verifierRequests = () => tg.requests.filter((r) => r.path.endsWith('/chat/completions') && isVerifierRequest(r));

  it('by default (cross-model) checks every finding on a model that raised none, hides the refuted one with its reason, marks the uncertain one, counts its cost', async () => {
    const r = await review('--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const out = json(r.stdout);
    const sent = verifierRequests();
    assert.equal(sent.length, 1, 'three findings, one request');
    assert.notEqual(sent[0]?.model, 'gemini-2.5-flash', 'never the model that raised the findings');
    assert.equal(sent[0]?.model, 'gpt-4.1');
    assert.deepEqual(out.findings.map((f) => [f.title, f.verification?.verdict]), [['Command injection', 'confirmed'], ['Maybe y is unused', 'uncertain']]);
    assert.equal(out.hiddenFindings, 1);
    // Confirmation raises confidence (0.9 → 0.95); uncertain keeps it.
    assert.deepEqual(out.findings.map((f) => f.confidence), [0.95, 0.5]);
    const verifier = out.agents.find((a) => a.id === 'verifier');
    assert.ok(verifier, 'agents has a verifier entry');
    assert.deepEqual([verifier.status, verifier.model, verifier.costUsd], ['ok', 'gpt-4.1', VERIFIER_COST_USD]);
    assert.equal(out.totals.costUsd, REVIEW_COST + VERIFIER_COST_USD);
    assert.equal(out.totals.requests, 2);
    // --show-hidden lists the refuted finding, with why.
    const shown = json((await review('--format', 'json', '--show-hidden')).stdout);
    const refuted = shown.findings.find((f) => f.title === 'Unclear naming of x');
    assert.deepEqual([refuted?.hidden, refuted?.hiddenReason, refuted?.verification?.verdict, refuted?.verification?.by], [true, 'refuted', 'refuted', 'gpt-4.1']);
    assert.match(refuted?.verification?.reason ?? '', /does not have the problem/);
    const text = await review('--show-hidden');
    assert.match(text.stdout, /Unclear naming of x .*refuted by gpt-4\.1: The code does not have the problem/);
    assert.match(text.stdout, /verifier \(gpt-4\.1\): ok, 3 verdicts/);
    assert.match(text.stdout, /1 finding hidden \(1 refuted by the verifier\)/);
  });

  it('--verify off sends nothing to a verifier; --verify same-model checks on the reviewer\'s model; --model verifier=… picks it', async () => {
    const off = json((await review('--format', 'json', '--verify', 'off')).stdout);
    assert.equal(verifierRequests().length, 0);
    assert.equal(off.agents.some((a) => a.id === 'verifier'), false);
    assert.equal(off.findings.length, 3);
    assert.equal(off.findings.some((f) => f.verification !== undefined || f.unverified), false);
    tg.requests.length = 0;
    await review('--format', 'json', '--verify', 'same-model');
    assert.deepEqual(verifierRequests().map((r) => r.model), ['gemini-2.5-flash']);
    tg.requests.length = 0;
    await review('--format', 'json', '--model', 'verifier=gpt-4o');
    assert.deepEqual(verifierRequests().map((r) => r.model), ['gpt-4o']);
    tg.requests.length = 0;
    // cross-model never uses a configured verifier model that raised the finding.
    await review('--format', 'json', '--model', 'verifier=gemini-2.5-flash');
    assert.deepEqual(verifierRequests().map((r) => r.model), ['gpt-4.1']);
    assert.equal((await review('--verify', 'maybe')).code, 2);
  });

  it('findings below quorum.review.verifyMinSeverity (default low) are not sent', async () => {
    const info = { ...NAMING, severity: 'info', title: 'Info naming note' };
    tg.script((rec) => persona(rec) ?? (rec.path.endsWith('/chat/completions') ? { text: JSON.stringify({ findings: [CRITICAL, info] }), cost: REVIEW_COST } : undefined));
    try {
      const out = json((await review('--format', 'json')).stdout);
      assert.deepEqual(out.findings.map((f) => [f.title, f.verification?.verdict ?? 'none']), [['Command injection', 'confirmed'], ['Info naming note', 'none']]);
    } finally {
      tg.script((rec) => persona(rec) ?? (rec.path.endsWith('/chat/completions') ? { text: JSON.stringify({ findings: [CRITICAL, NAMING, MAYBE] }), cost: REVIEW_COST } : undefined));
    }
  });

  for (const failure of ['fail', 'garbage'] as const) {
    it(`a verifier that ${failure === 'fail' ? 'fails' : 'answers no verdicts'} leaves the findings as they were, marked unverified; the review succeeds`, async () => {
      persona = verifierPersona({ [failure]: true });
      const r = await review('--format', 'json', '--fail-on', 'critical');
      const out = json(r.stdout);
      assert.equal(r.code, 1, 'exit 1 for the critical finding, not 3 for the verifier');
      assert.deepEqual(out.findings.map((f) => [f.title, f.confidence, f.unverified]), [['Command injection', 0.9, true], ['Maybe y is unused', 0.5, true], ['Unclear naming of x', 0.6, true]]);
      const verifier = out.agents.find((a) => a.id === 'verifier');
      assert.equal(verifier?.status, 'error');
      if (failure === 'garbage') {
        assert.equal(verifier.costUsd, VERIFIER_COST_USD, 'what it spent is counted');
        // The model's unreadable answer, like any agent's: the page and the notification offer Switch Model.
        assert.equal(verifier.error?.code, 'bad-response');
      }
      assert.equal((await review()).code, 0);
    });
  }
});
