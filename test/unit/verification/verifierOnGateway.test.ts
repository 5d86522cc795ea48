import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import { ListedPrices } from '../../../src/core/cost/listedPrices';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { parseSettings } from '../../../src/core/settings/parse';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import { singleTarget } from '../../../src/core/domain/target';
import type { Finding } from '../../../src/core/domain/finding';
import type { ReviewEvent } from '../../../src/core/domain/events';
import type { ReviewSummary } from '../../../src/core/domain/result';
import { verifierChoice } from '../../../src/core/verification/verifierModel';
import { jsonOutputSchema, toJsonOutput } from '../../../src/core/report/json';
import { formatText } from '../../../src/core/report/readable';
import { startTestGateway, type RecordedRequest, type Reply, type TestGateway } from '../../fixtures/gateway/server';
import { isVerifierRequest, verifierPersona } from '../../fixtures/gateway/verifier';
import { reviewThrough } from '../../fixtures/review';

/**
 * Issue 30, item 5: the verifier runs on a model the gateway has. Against the loopback gateway: one that lists
 * several models, one that lists a single model (LM Studio, Ollama with one model pulled), one where an agent's
 * model failed; and the verdict credited to the model the gateway says answered.
 */

const KEY = 'sk-test-verifier-gateway-0123456789';
const FINDING = { severity: 'high', title: 'Command injection', explanation: 'cmd reaches a shell.', startLine: 2, endLine: 2, confidence: 0.8 };
const CODE = 'import os\nos.system("sh -c " + input())\n';

function findingsReply(): Reply {
  return { text: JSON.stringify({ findings: [FINDING] }) };
}

describe('the verifier on a model the gateway has (loopback gateway)', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let gateway: GatewayClient | undefined;
  let answerAs: string | undefined;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1 });
  });
  after(() => tg.close());
  afterEach(() => {
    gateway?.dispose();
    gateway = undefined;
    answerAs = undefined;
  });

  function script(failing: readonly string[] = []): void {
    const persona = verifierPersona();
    tg.script((rec: RecordedRequest) => {
      if (!rec.path.endsWith('/chat/completions')) return undefined;
      if (rec.model && failing.includes(rec.model)) return { kind: 'error', status: 404, message: `model '${rec.model}' not found, try pulling it first`, type: 'not_found_error', code: 'model_not_found' };
      const verdict = persona(rec);
      if (verdict) return answerAs && verdict.kind === undefined ? { ...verdict, model: answerAs } : verdict;
      return findingsReply();
    });
  }

  async function review(models: string[], agents: Record<string, string>, verify: 'cross-model' | 'same-model' = 'cross-model'): Promise<{ summary: ReviewSummary; events: ReviewEvent[]; verifierModels: (string | undefined)[] }> {
    tg.setOptions({ models });
    tg.requests.length = 0;
    const settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0 }, review: { verify } }).settings;
    const listedPrices = new ListedPrices();
    const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, listedPrices });
    const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger, listedPrices });
    const target = singleTarget({ file: 'app.py', language: 'python', text: CODE, startLine: 1, endLine: 2 });
    const events: ReviewEvent[] = [];
    const summary = await reviewThrough(pipeline, target, { language: 'en', agents: Object.keys(agents), modelOverrides: agents, noCache: true }, (e) => events.push(e));
    const verifierModels = tg.requests.filter((r) => r.path.endsWith('/chat/completions') && isVerifierRequest(r)).map((r) => r.model);
    return { summary, events, verifierModels };
  }

  const verifierOf = (s: ReviewSummary) => s.agents.find((a) => a.agent === 'verifier');

  it('its result plays the verifier, the reviewers\' results the reviewer: a face asks the role, not the id', async () => {
    script();
    const { summary } = await review(['gpt-4.1', 'gemini-2.5-flash', 'mistral-small-latest'], { analyst: 'gpt-4.1', security: 'gemini-2.5-flash' });
    assert.deepEqual(summary.agents.map((a) => [a.agent, a.role]), [['analyst', 'reviewer'], ['security', 'reviewer'], ['verifier', 'verifier']]);
    assert.match(formatText(summary), /verifier \(mistral-small-latest\): ok, [^\n]*1 verdict/);
  });

  it('several models listed: picks one that reviewed nothing and that the gateway has (not a built-in default it lacks, not an embedding model)', async () => {
    script();
    const { summary, verifierModels } = await review(['text-embedding-3-small', 'gpt-4.1', 'gemini-2.5-flash', 'mistral-small-latest'], { analyst: 'gpt-4.1', security: 'gemini-2.5-flash' });
    assert.deepEqual(verifierModels, ['mistral-small-latest']);
    assert.equal(summary.findings[0]?.verification?.by, 'mistral-small-latest');
    assert.equal(verifierOf(summary)?.notice, undefined);
    assert.equal(tg.requests.filter((r) => r.path.endsWith('/models')).length, 1, '/models read once');
  });

  it('credits the verdict to the model the gateway says answered, not the one asked for', async () => {
    script();
    answerAs = 'mistral-small-2506';
    const { summary, verifierModels } = await review(['gpt-4.1', 'mistral-small-latest'], { analyst: 'gpt-4.1' });
    assert.deepEqual(verifierModels, ['mistral-small-latest']);
    assert.equal(summary.findings[0]?.verification?.by, 'mistral-small-2506');
    assert.equal(verifierOf(summary)?.model, 'mistral-small-2506');
  });

  it('an answer from a model that raised the finding (a server that answers any id with its loaded model) is said to be the same model', async () => {
    script();
    answerAs = 'gpt-4.1';
    const { summary } = await review(['gpt-4.1', 'mistral-small-latest'], { analyst: 'gpt-4.1' });
    assert.equal(summary.findings[0]?.verification?.by, 'gpt-4.1');
    assert.deepEqual(verifierOf(summary)?.notice, { code: 'same-model', model: 'gpt-4.1' });
  });

  it('one model listed (a local server), cross-model: nothing is sent to a model it lacks; the verifier says it had no other model', async () => {
    script();
    const local = 'qwen2.5-coder-7b-instruct';
    const { summary, events, verifierModels } = await review([local], { analyst: local, security: local });
    assert.deepEqual(verifierModels, []);
    const verifier = verifierOf(summary);
    assert.deepEqual([verifier?.status, verifier?.notice], ['ok', { code: 'no-other-model', model: local }]);
    assert.equal(summary.findings[0]?.verification, undefined);
    assert.equal(summary.findings[0]?.unverified, undefined, 'not checked is not "the verifier failed"');
    assert.ok(events.some((e) => e.type === 'done' && e.agent === 'verifier'), 'the panel gets the verifier card with its note');
    const text = formatText(summary);
    assert.match(text, /verifier \(qwen2\.5-coder-7b-instruct\): ok.* not checked: the gateway has no model but qwen2\.5-coder-7b-instruct, which raised these findings/);
    const json = jsonOutputSchema.parse(toJsonOutput(summary));
    assert.deepEqual(json.agents.find((a) => a.id === 'verifier')?.notice, { code: 'no-other-model', model: local });
  });

  it('one model listed, same-model: the same model checks, and it says so plainly', async () => {
    script();
    const local = 'llama3.2';
    const { summary, verifierModels } = await review([local], { analyst: local }, 'same-model');
    assert.deepEqual(verifierModels, [local]);
    assert.equal(summary.findings[0]?.verification?.by, local);
    assert.deepEqual(verifierOf(summary)?.notice, { code: 'same-model', model: local });
    assert.match(formatText(summary), /verifier \(llama3\.2\): ok, 1 verdict - Checked on llama3\.2, the same model that raised these findings/);
  });

  it('an agent failed on its model: the verifier is never sent to that model', async () => {
    script(['llama3.2']);
    const { summary, verifierModels } = await review(['llama3.2', 'gemini-2.5-flash'], { analyst: 'llama3.2', security: 'gemini-2.5-flash' });
    assert.equal(summary.agents.find((a) => a.agent === 'analyst')?.status, 'error');
    assert.deepEqual(verifierModels, [], 'not llama3.2, which failed; gemini raised the finding');
    assert.deepEqual(verifierOf(summary)?.notice, { code: 'no-other-model', model: 'gemini-2.5-flash' });
    // With a third model listed, that one checks.
    const again = await review(['llama3.2', 'gemini-2.5-flash', 'phi4'], { analyst: 'llama3.2', security: 'gemini-2.5-flash' });
    assert.deepEqual(again.verifierModels, ['phi4']);
  });
});

describe('verifierChoice without the gateway\'s list', () => {
  const finding = (agents: string[]): Finding => ({ id: 'x', file: 'a.py', agents, severity: 'high', title: 't', explanation: 'e', startLine: 1, endLine: 1, confidence: 0.8 });

  it('never picks a model on which an agent failed and none succeeded', () => {
    const f = finding(['security']);
    const agents = [
      { agent: 'analyst', model: 'not-pulled', status: 'error' as const },
      { agent: 'security', model: 'gemini-2.5-flash', status: 'ok' as const },
    ];
    assert.deepEqual(verifierChoice(f, [f], agents, 'cross-model', ''), { model: 'gpt-4.1', sameModel: false });
    // A model that failed for one agent and answered another is there.
    const mixed = [...agents, { agent: 'architecture', model: 'not-pulled', status: 'ok' as const }];
    assert.deepEqual(verifierChoice(f, [f], mixed, 'cross-model', ''), { model: 'not-pulled', sameModel: false });
  });
});
