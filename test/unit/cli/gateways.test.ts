import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { anthropic, google } from '../../fixtures/gateway/emulators/compat';
import { EMULATOR_KEY, has, startEmulator, type Emulator } from '../../fixtures/gateway/emulators/emulator';
import { llamaCpp, lmStudio, ollama, vllm } from '../../fixtures/gateway/emulators/local';
import { mistral } from '../../fixtures/gateway/emulators/mistral';
import { azure, openai } from '../../fixtures/gateway/emulators/openai';
import { liteLlm, relay } from '../../fixtures/gateway/emulators/relays';
import { deepSeek, groq, openRouter } from '../../fixtures/gateway/emulators/routers';
import type { TestGateway } from '../../fixtures/gateway/server';
import { root } from './ensureBuilt';

const fixture = join(root, 'test', 'fixtures', 'code', 'users.py');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `quorum review` in-process through the real gateway client, against one emulator. */
async function review(gw: TestGateway, models: string[], options: { key?: boolean; extra?: string[] } = {}): Promise<Run> {
  const agents = ['analyst', 'architecture', 'security', 'coding'];
  const argv = ['review', fixture, '--base-url', gw.url, '--format', 'json', '--verify', 'off', '--context', 'off', ...agents.flatMap((a, i) => ['--model', `${a}=${models[i % models.length] ?? ''}`]), ...(options.extra ?? [])];
  let stdout = '';
  let stderr = '';
  const env = { LANG: 'en_US.UTF-8', XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-gw-')), ...(options.key === false ? {} : { QUORUM_API_KEY: EMULATOR_KEY }) };
  const code = await runCli({ argv, env, version: '0.0.0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

function parsed(run: Run): JsonOutput {
  const out = jsonOutputSchema.safeParse(JSON.parse(run.stdout));
  assert.ok(out.success, run.stderr);
  return out.data;
}

const chats = (gw: TestGateway) => gw.requests.filter((q) => q.path.endsWith('/chat/completions'));

interface Case {
  emulator: () => Emulator;
  models: string[];
  key?: boolean;
  check?: (out: JsonOutput, gw: TestGateway) => void;
}

/** A review that passes through each of the fourteen gateways, and what it must show of that gateway's ways. */
const REVIEWS: Record<string, Case> = {
  'OpenAI (gpt-5, o3, o4-mini: max_completion_tokens, no temperature, one attempt each)': {
    emulator: () => openai,
    models: ['gpt-5', 'o3', 'o4-mini', 'gpt-4.1'],
    check: (out, gw) => {
      assert.ok(out.agents.every((a) => a.attempts === 1 && a.costSource !== 'estimated'), JSON.stringify(out.agents.map((a) => [a.model, a.attempts, a.costSource])));
      assert.ok(chats(gw).filter((q) => q.model !== 'gpt-4.1').every((q) => has(q, 'max_completion_tokens') && !has(q, 'max_tokens')));
    },
  },
  'Azure OpenAI v1 (deployments)': { emulator: () => azure(), models: ['gpt-4o', 'gpt-5'] },
  'OpenRouter (its own cost)': { emulator: () => openRouter, models: ['openai/gpt-4.1', 'anthropic/claude-sonnet-4.5', 'google/gemini-2.5-flash', 'deepseek/deepseek-v3.2'], check: (out) => assert.ok(out.agents.every((a) => a.costSource === 'reported')) },
  'LiteLLM proxy': { emulator: () => liteLlm(), models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] },
  'new-api relay': { emulator: () => relay(), models: ['gpt-4.1', 'claude-sonnet-4.5', 'gemini-2.5-flash', 'deepseek-v3.2'] },
  'Ollama (no key: no Authorization header)': {
    emulator: () => ollama(),
    models: ['llama3.2:latest'],
    key: false,
    check: (_out, gw) => assert.ok(gw.requests.every((q) => q.headers.authorization === undefined)),
  },
  'LM Studio (refuses json_object: retried without it, once)': {
    emulator: () => lmStudio,
    models: ['qwen2.5-7b-instruct'],
    key: false,
    check: (_out, gw) => assert.equal(chats(gw).filter((q) => has(q, 'response_format')).length <= 4, true),
  },
  'llama.cpp server (usage from timings)': { emulator: () => llamaCpp(), models: ['qwen2.5-coder-7b-instruct-q4_k_m.gguf'], key: false, check: (out) => assert.ok(out.agents.every((a) => a.costSource !== 'estimated' || a.usage.promptTokens === 40)) },
  vLLM: { emulator: () => vllm, models: ['Qwen/Qwen2.5-Coder-32B-Instruct'], key: false },
  "Google's OpenAI-compatible endpoint": { emulator: () => google, models: ['gemini-2.5-flash', 'gemini-2.5-pro'] },
  "Anthropic's OpenAI-compatible endpoint (fenced JSON)": { emulator: () => anthropic, models: ['claude-sonnet-4-5', 'claude-haiku-4-5'] },
  'Mistral (422 extra_forbidden: learned, usage from the last chunk)': {
    emulator: () => mistral,
    models: ['mistral-large-latest', 'codestral-latest'],
    check: (out, gw) => {
      assert.ok(out.agents.every((a) => a.status === 'ok' && a.costSource !== 'estimated'), JSON.stringify(out.agents));
      assert.ok(chats(gw).length <= 8, `at most one retry per agent: ${chats(gw).length}`);
    },
  },
  'DeepSeek (cache hits)': { emulator: () => deepSeek(), models: ['deepseek-chat'], check: (out) => assert.ok(out.agents.every((a) => a.usage.cachedTokens === 32)) },
  'Groq (x_groq usage)': { emulator: () => groq(), models: ['llama-3.3-70b-versatile'], check: (out) => assert.ok(out.agents.every((a) => a.costSource !== 'estimated' || a.usage.completionTokens > 0)) },
};

describe('a review through each gateway (loopback emulators of their documented behaviour)', function () {
  this.timeout(60_000);
  let gw: TestGateway | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  for (const [name, c] of Object.entries(REVIEWS)) {
    it(name, async () => {
      gw = await startEmulator(c.emulator());
      const run = await review(gw, c.models, { key: c.key });
      assert.equal(run.code, 0, run.stderr);
      const out = parsed(run);
      assert.ok(out.agents.every((a) => a.status === 'ok'), run.stderr);
      assert.ok(out.findings.length > 0, 'the findings came through');
      c.check?.(out, gw);
    });
  }

  it('Azure: a 429 that asks to retry after 6 seconds (and links "quotaincrease") is waited out and retried, not called a spent quota', async function () {
    this.timeout(40_000);
    gw = await startEmulator(azure({ throttleFirst: true }));
    const run = await review(gw, ['gpt-4o'], { extra: ['--agents', 'analyst'] });
    assert.equal(run.code, 0, run.stderr);
    const [first, second] = chats(gw);
    assert.equal(first?.status, 429);
    assert.ok(first && second && second.at - first.at >= 5_500, `waited ${second && first ? second.at - first.at : '?'} ms`);
    assert.equal(parsed(run).agents[0]?.attempts, 2);
  });

  it('a relay with no channel for the model: one attempt, exit 3, the relay\'s words and the model named', async () => {
    gw = await startEmulator(relay({ served: ['gpt-4.1'] }));
    const run = await review(gw, ['gpt-4.1', 'gpt-9'], { extra: ['--agents', 'analyst,architecture'] });
    assert.equal(run.code, 3, run.stderr);
    assert.equal(chats(gw).filter((q) => q.model === 'gpt-9').length, 1, 'not retried');
    assert.match(run.stderr, /\[architecture\] failed: model-not-found .*无可用渠道/);
  });

  it('Ollama: a model that is not pulled fails at once with its words; a stream that dies mid-answer is a failure, not a review', async () => {
    gw = await startEmulator(ollama());
    const missing = await review(gw, ['llama3'], { key: false, extra: ['--agents', 'analyst'] });
    assert.equal(missing.code, 3);
    assert.equal(chats(gw).length, 1);
    assert.match(missing.stderr, /try pulling it first/);
    await gw.close();
    gw = await startEmulator(ollama({ failMidStream: true }));
    const broken = await review(gw, ['llama3.2:latest'], { key: false, extra: ['--agents', 'analyst'] });
    assert.equal(broken.code, 3, broken.stderr);
    assert.match(broken.stderr, /llama runner process has terminated/);
    assert.equal(parsed(broken).findings.length, 0, 'a cut-off answer gives no findings');
  });

  it('quota, credits and budgets: DeepSeek 402, LiteLLM budget_exceeded exit 3 without retries', async () => {
    for (const e of [deepSeek({ broke: true }), liteLlm({ budgetSpent: true })]) {
      gw = await startEmulator(e);
      const run = await review(gw, [e.models[0] ?? ''], { extra: ['--agents', 'analyst'] });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /failed: quota/);
      assert.equal(chats(gw).length, 1);
      await gw.close();
      gw = undefined;
    }
  });

  it('a local server that asks for a key: "QUORUM_API_KEY is not set", exit 2, nothing sent', async () => {
    gw = await startEmulator({ ...vllm, apiKey: EMULATOR_KEY });
    const run = await review(gw, ['Qwen/Qwen2.5-Coder-32B-Instruct'], { key: false });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /QUORUM_API_KEY is not set.*answers 401/);
    assert.equal(chats(gw).length, 0);
  });
});
