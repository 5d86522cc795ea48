// Review makespan in `parallel` and `sequential` mode against the loopback test gateway with per-model latencies
// (analyst 3 s, architecture 4 s, security 2 s, coding 3 s by default; BENCH_SCALE=0.1 makes it ten times faster).
// Prints one JSON line per mode: {"mode","makespanMs","criticalPathMs","sumMs","overheadPct"}.
import { CostLedger } from '../src/core/cost/ledger';
import { createGateway } from '../src/core/gateway/client';
import { ReviewPipeline } from '../src/core/pipeline/pipeline';
import { loadPromptContext } from '../src/core/prompt/shape';
import { runReview } from '../src/core/review/runReview';
import { type ReviewTarget, singleTarget } from '../src/core/domain/target';
import { parseSettings } from '../src/core/settings/parse';
import { BUILTIN_AGENTS } from '../src/shared/builtinAgents';

const DEFAULT_MODELS = { analyst: BUILTIN_AGENTS.analyst.defaultModel, architecture: BUILTIN_AGENTS.architecture.defaultModel, security: BUILTIN_AGENTS.security.defaultModel, coding: BUILTIN_AGENTS.coding.defaultModel };
import { startTestGateway } from '../test/fixtures/gateway/server';

const KEY = 'sk-bench-key-000000';
const scale = Number(process.env.BENCH_SCALE ?? '1');
const latency: Record<string, number> = {
  [DEFAULT_MODELS.analyst]: 3000 * scale,
  [DEFAULT_MODELS.architecture]: 4000 * scale,
  [DEFAULT_MODELS.security]: 2000 * scale,
  [DEFAULT_MODELS.coding]: 3000 * scale,
};
const reply: Record<string, string> = {
  [DEFAULT_MODELS.analyst]: JSON.stringify({ findings: [{ severity: 'high', title: 'Unchecked index', explanation: 'items[i] may be undefined.', startLine: 3, endLine: 3, confidence: 0.8 }] }),
  [DEFAULT_MODELS.architecture]: JSON.stringify({ findings: [] }),
  [DEFAULT_MODELS.security]: JSON.stringify({ findings: [] }),
  [DEFAULT_MODELS.coding]: JSON.stringify({ rationale: 'Guarded the index.', improvedCode: 'function pick(items, i) {\n  return i < items.length ? items[i] : undefined;\n}' }),
};
const target: ReviewTarget = singleTarget({ file: 'bench.js', language: 'javascript', text: 'function pick(items, i) {\n  // pick one\n  return items[i];\n}', startLine: 1, endLine: 4 });

async function main(): Promise<void> {
  const tg = await startTestGateway({ apiKey: KEY, tokensPerSecond: 0 });
  tg.script((req) => (req.model && reply[req.model] !== undefined ? { text: reply[req.model], ttftMs: latency[req.model] } : undefined));
  const criticalPathMs = Math.max(latency[DEFAULT_MODELS.analyst] as number, latency[DEFAULT_MODELS.architecture] as number, latency[DEFAULT_MODELS.security] as number) + (latency[DEFAULT_MODELS.coding] as number);
  const sumMs = Object.values(latency).reduce((a, b) => a + b, 0);
  try {
    for (const mode of ['parallel', 'sequential'] as const) {
      // The agents' DAG is measured: no verifier after it.
      const settings = parseSettings({ gateway: { baseUrl: tg.url }, review: { mode, verify: 'off' }, limits: { maxConcurrent: 4 } }).settings;
      const ledger = new CostLedger();
      const gateway = createGateway({ settings: () => settings, apiKey: () => KEY, ledger });
      const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ledger });
      // The review use case, as every face runs it: a file outside any repository, sent as soon as it is planned.
      const context = await loadPromptContext({ settings, fs: undefined, trusted: true, useRules: false });
      const started = performance.now();
      const outcome = await runReview(pipeline, { work: { target }, context, options: { language: 'en', noCache: true }, confirm: { planned: () => 'proceed' } });
      const makespanMs = Math.round(performance.now() - started);
      gateway.dispose();
      const failed = outcome.status === 'reviewed' ? outcome.summary.agents.filter((a) => a.status !== 'ok').map((a) => a.agent) : [outcome.status];
      const expected = mode === 'parallel' ? criticalPathMs : sumMs;
      console.log(JSON.stringify({ mode, makespanMs, criticalPathMs, sumMs, overheadPct: Math.round(((makespanMs - expected) / expected) * 1000) / 10, ...(failed.length ? { failed } : {}) }));
    }
  } finally {
    await tg.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
