import { strict as assert } from 'node:assert';
import { CostLedger } from '../../../src/core/cost/ledger';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { loadPromptContext, type PromptContext } from '../../../src/core/prompt/shape';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import type { ReviewOutcome } from '../../../src/core/review/reviewRequest';
import { runReview } from '../../../src/core/review/runReview';
import { type ReviewTarget, singleTarget } from '../../../src/core/domain/target';
import { parseSettings } from '../../../src/core/settings/parse';
import type { QuorumSettings } from '../../../src/core/settings/schema';
import { editorConfirm, type EditorConfirmSteps } from '../../../src/vscode/review/editorConfirm';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-test-editor-confirm-0123456789';

/** The editor's review flow without VS Code: its confirm steps, recorded, over the review use case and a loopback gateway. */
describe('the editor\'s confirm over runReview (the controller\'s order, without VS Code)', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let gateway: GatewayClient;
  let settings: QuorumSettings;
  let pipeline: ReviewPipeline;
  let context: PromptContext;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
  });
  after(() => tg.close());
  beforeEach(async () => {
    tg.requests.length = 0;
    tg.script(() => ({ text: '{"findings":[]}' }));
    settings = parseSettings({ gateway: { baseUrl: tg.url }, limits: { maxRetries: 0 } }).settings;
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger: new CostLedger(() => settings.prices) });
    pipeline = new ReviewPipeline({ gateway, settings: () => settings });
    context = await loadPromptContext({ settings, fs: undefined, trusted: true, useRules: true });
  });
  afterEach(() => gateway.dispose());

  const code = singleTarget({ file: 'src/a.ts', language: 'typescript', text: 'export const a = 1;', startLine: 1, endLine: 1 });

  /** Steps that record their calls and answer as told. */
  function steps(answers: { key?: boolean; confirm?: boolean; budget?: boolean } = {}) {
    const calls: string[] = [];
    const called = <T>(call: string, answer: T): Promise<T> => {
      calls.push(call);
      return Promise.resolve(answer);
    };
    const s: EditorConfirmSteps = {
      ensureKey: () => called('key', answers.key ?? true),
      tooLargeForEveryModel: () => called('too-large', undefined),
      confirmPlan: () => called('confirm', answers.confirm ?? true),
      budgetAllows: () => called('budget', answers.budget ?? true),
      proceeding: () => called('session', undefined),
    };
    return { s, calls };
  }
  const review = (target: ReviewTarget, s: EditorConfirmSteps, options = {}): Promise<ReviewOutcome> =>
    runReview(pipeline, { work: { target, relativeFile: target.regions[0]?.file ?? '' }, context, options: { language: 'en', agents: ['analyst'], ...options }, confirm: editorConfirm(s) });
  const chats = () => tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

  it('asks for the key, then the plan\'s question, then the budgets, then opens the session; the review runs', async () => {
    const { s, calls } = steps();
    const outcome = await review(code, s);
    assert.equal(outcome.status, 'reviewed');
    assert.deepEqual(calls, ['key', 'confirm', 'budget', 'session']);
    assert.equal(chats(), 1);
  });

  it('a file never sent is refused before the key is asked for', async () => {
    const { s, calls } = steps();
    const outcome = await review(singleTarget({ file: '.env', language: 'dotenv', text: 'A=1', startLine: 1, endLine: 1 }), s);
    assert.equal(outcome.status, 'excluded');
    assert.deepEqual(calls, []);
    assert.equal(tg.requests.length, 0);
  });

  for (const [what, answers, asked] of [
    ['no key', { key: false }, ['key']],
    ['the file-count question declined', { confirm: false }, ['key', 'confirm']],
    ['the budget declined', { budget: false }, ['key', 'confirm', 'budget']],
  ] as const) {
    it(`${what}: nothing is sent and no session opens`, async () => {
      const { s, calls } = steps(answers);
      const outcome = await review(code, s);
      assert.equal(outcome.status, 'declined');
      assert.deepEqual(calls, asked);
      assert.equal(chats(), 0);
    });
  }

  it('a prompt no model can take is said once, before any question, and nothing is sent', async () => {
    const { s, calls } = steps();
    const huge = singleTarget({ file: 'src/big.ts', language: 'typescript', text: 'export const x = "word word word word";\n'.repeat(9_000), startLine: 1, endLine: 9_000 });
    const outcome = await review(huge, s, { modelOverrides: { analyst: 'gpt-4' } });
    assert.equal(outcome.status, 'declined');
    assert.deepEqual(calls, ['key', 'too-large']);
    assert.equal(chats(), 0);
  });
});
