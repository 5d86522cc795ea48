import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_KEY, startEmulator } from '../../fixtures/gateway/emulators/emulator';
import { llamaCpp } from '../../fixtures/gateway/emulators/local';
import { mistral } from '../../fixtures/gateway/emulators/mistral';
import { azure, openai } from '../../fixtures/gateway/emulators/openai';
import type { TestGateway } from '../../fixtures/gateway/server';
import { cliPath, ensureBuilt, root } from './ensureBuilt';

const fixture = join(root, 'test', 'fixtures', 'code', 'users.py');

function quorum(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', LANG: 'en_US.UTF-8', QUORUM_API_KEY: EMULATOR_KEY, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'quorum-gwcli-')), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const reviewArgs = (gw: TestGateway, model: string, ...extra: string[]) => [
  'review', fixture, '--base-url', gw.url, '--verify', 'off', '--context', 'off', '--format', 'json',
  ...['analyst', 'architecture', 'security', 'coding'].flatMap((a) => ['--model', `${a}=${model}`]), ...extra,
];

describe('quorum (the built binary) against real gateways\' documented behaviour: exit codes and messages', function () {
  this.timeout(60_000);
  let gw: TestGateway | undefined;
  before(() => ensureBuilt());
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  it('GPT-5 on OpenAI: a review, exit 0, no "Unsupported parameter"', async () => {
    gw = await startEmulator(openai);
    const run = await quorum(reviewArgs(gw, 'gpt-5'));
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /Unsupported parameter|failed/);
    const out = JSON.parse(run.stdout) as { agents: { model: string; attempts: number }[] };
    assert.deepEqual(out.agents.map((a) => [a.model, a.attempts]), [['gpt-5', 1], ['gpt-5', 1], ['gpt-5', 1], ['gpt-5', 1]]);
  });

  it('Mistral: the 422 extra_forbidden is learned and the review passes, exit 0', async () => {
    gw = await startEmulator(mistral);
    const run = await quorum(reviewArgs(gw, 'mistral-large-latest'));
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /without details|failed/);
  });

  it('llama.cpp: a stream that fails mid-answer is a failed agent with the server\'s words, exit 3', async () => {
    gw = await startEmulator(llamaCpp({ failMidStream: true }));
    const run = await quorum(reviewArgs(gw, 'qwen2.5-coder-7b-instruct-q4_k_m.gguf', '--agents', 'analyst'), { QUORUM_API_KEY: '' });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /\[analyst\] failed: server - .*exceed the context size/);
  });

  it('Azure: the 429 with Retry-After: 6 is waited out, exit 0', async function () {
    this.timeout(40_000);
    gw = await startEmulator(azure({ throttleFirst: true }));
    const run = await quorum(reviewArgs(gw, 'gpt-4o', '--agents', 'analyst'));
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /quota/);
  });

  it('quorum doctor says what the gateway does on one screen: models, usage, JSON mode, the request shape, prices', async () => {
    gw = await startEmulator(openai);
    const run = await quorum(['doctor', '--base-url', gw.url, '--model', 'analyst=gpt-5', '--model', 'security=o4-mini']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Models: 6 listed/);
    assert.match(run.stdout, /gpt-5: answered in/);
    assert.match(run.stdout, /usage reported in `usage` on the last chunk/);
    assert.match(run.stdout, /JSON mode honoured/);
    assert.match(run.stdout, /gpt-5[\s\S]*sent as max_completion_tokens, no temperature/);
    assert.match(run.stdout, /analyst: gpt-5 — /);
    assert.ok(run.stdout.split('\n').length < 40, 'one screen');
    await gw.close();
    gw = await startEmulator(mistral);
    const m = await quorum(['doctor', '--base-url', gw.url, '--model', 'analyst=mistral-large-latest', '--model', 'architecture=mistral-large-latest', '--model', 'security=mistral-large-latest', '--model', 'coding=mistral-large-latest']);
    assert.equal(m.code, 0, m.stderr);
    assert.match(m.stdout, /in 2 attempts/);
    assert.match(m.stdout, /learned: it refuses stream_options/);
    const wrong = await quorum(['doctor', '--base-url', gw.url], { QUORUM_API_KEY: 'sk-wrong-0000000000000' });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stdout, /FAILED \(auth, HTTP 401\)/);
    assert.ok(!wrong.stdout.includes('sk-wrong-0000000000000'));
  });
});
