import { strict as assert } from 'node:assert';
import { definitionCandidate, type ContextCandidate } from '../../../src/core/context/candidates';
import { CostLedger } from '../../../src/core/cost/ledger';
import { ListedPrices } from '../../../src/core/cost/listedPrices';
import { createGateway, type GatewayClient } from '../../../src/core/gateway/client';
import { loadPromptContext } from '../../../src/core/prompt/shape';
import { ReviewPipeline } from '../../../src/core/pipeline/pipeline';
import type { PlannedReview } from '../../../src/core/review/reviewRequest';
import { runReview } from '../../../src/core/review/runReview';
import { type ReviewTarget, singleTarget } from '../../../src/core/domain/target';
import { parseSettings } from '../../../src/core/settings/parse';
import { TempRepo } from '../changes/gitRepo';

const KEY = 'sk-test-language-server-0123456789';
const SECRET = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';

/** The editor's language-server source as core sees it: candidates per batch, or none in time. */
describe('context from a language server: core ranks, filters and redacts its candidates, and falls back to tree-sitter', function () {
  this.timeout(60_000);
  let repo: TempRepo;
  let gateway: GatewayClient;
  beforeEach(() => {
    repo = new TempRepo();
    repo
      .write('src/a.ts', 'import { helper } from "./helper";\nexport const x = helper(1);\n')
      .write('src/helper.ts', `export function helper(n: number): number {\n  const token = "${SECRET}";\n  return n + token.length;\n}\n`)
      .write('keys/private.ts', 'export function helper(): string {\n  return "private";\n}\n')
      .commit();
  });
  afterEach(() => {
    gateway.dispose();
    repo.dispose();
  });

  async function plan(languageServer: (batch: ReviewTarget) => Promise<readonly ContextCandidate[] | undefined>): Promise<{ plan: PlannedReview | undefined; asked: ReviewTarget[] }> {
    const settings = parseSettings({ gateway: { baseUrl: 'http://127.0.0.1:9' }, privacy: { exclude: ['keys/**'] } }).settings;
    const listedPrices = new ListedPrices();
    const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
    gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger, listedPrices });
    const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger, listedPrices });
    const context = await loadPromptContext({ settings, fs: undefined, trusted: true, useRules: true });
    const asked: ReviewTarget[] = [];
    let seen: PlannedReview | undefined;
    await runReview(pipeline, {
      work: { target: singleTarget({ file: '/abs/src/a.ts', language: 'typescript', text: 'export const x = helper(1);', startLine: 2, endLine: 2 }, 'selection'), relativeFile: 'src/a.ts' },
      context,
      codeContext: {
        root: repo.dir,
        cacheDir: undefined,
        maxTokens: 3000,
        maxFileBytes: 1 << 20,
        languageServer: async (batch) => {
          asked.push(batch);
          return languageServer(batch);
        },
      },
      options: { language: 'en' },
      dryRun: true,
      confirm: {
        shaped: () => 'proceed',
        planned: (p) => {
          seen = p;
          return 'cancel';
        },
      },
    });
    return { plan: seen, asked };
  }

  const candidate = (file: string, kind: 'function' | 'constant' = 'function') =>
    definitionCandidate({ file, language: 'typescript', startLine: 1, endLine: 4, signatureEnd: 1, symbol: 'helper (from the server)', kind, forFile: 'src/a.ts', called: true, ambiguous: false });

  it('sends the definition the server pointed at, redacted, and never one from an excluded file', async () => {
    const { plan: p, asked } = await plan(() => Promise.resolve([candidate('keys/private.ts'), candidate('src/helper.ts')]));
    assert.deepEqual(asked.map((b) => b.regions.map((r) => [r.file, r.startLine])), [[['src/a.ts', 2]]]);
    const context = p?.shaped.target.context ?? [];
    assert.deepEqual(context.map((c) => [c.file, c.startLine, c.endLine, c.symbol, c.kind]), [['src/helper.ts', 1, 4, 'helper (from the server)', 'definition']]);
    assert.ok(!context[0]?.text.includes(SECRET), 'the secret in the definition is redacted');
    assert.ok(p?.shaped.prompt.redacted);
  });

  it('a server that gives nothing in time (or only excluded files) leaves the batch to the tree-sitter index', async () => {
    for (const answer of [undefined, [candidate('keys/private.ts')]]) {
      const { plan: p } = await plan(() => Promise.resolve(answer));
      const context = p?.shaped.target.context ?? [];
      assert.deepEqual(context.map((c) => [c.file, c.symbol, c.kind]), [['src/helper.ts', 'helper', 'definition']], JSON.stringify(answer));
      assert.ok(!context[0]?.text.includes(SECRET));
    }
  });
});
