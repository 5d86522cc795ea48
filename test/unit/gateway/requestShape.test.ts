import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway } from '../../../src/core/gateway/client';
import { RequestShapes, shapeFor } from '../../../src/core/gateway/shape';
import { SHAPES_FILE, shapeFile } from '../../../src/core/gateway/shapeFile';
import { settingsSchema } from '../../../src/core/settings/schema';
import { EMULATOR_KEY, has, json, startEmulator, type Emulator } from '../../fixtures/gateway/emulators/emulator';
import { mistral } from '../../fixtures/gateway/emulators/mistral';
import { openai } from '../../fixtures/gateway/emulators/openai';
import type { TestGateway } from '../../fixtures/gateway/server';
import { ask, drain } from './helpers';

function client(gw: TestGateway, shapes = new RequestShapes()) {
  const logs: string[] = [];
  const settings = settingsSchema.parse({ gateway: { baseUrl: gw.url }, limits: { idleTimeoutSeconds: 2, deadlineSeconds: 10 } });
  const log = (m: string) => void logs.push(m);
  const c = createGateway({ settings: () => settings, apiKey: () => EMULATOR_KEY, shapes, logger: { info: log, warn: log, error: log }, tuning: { backoffBaseMs: 5, backoffMaxMs: 20 } });
  return { c, logs, shapes };
}
const chats = (gw: TestGateway) => gw.requests.filter((q) => q.path.endsWith('/chat/completions'));

describe('gateway client: the request shape, per gateway and model', function () {
  this.timeout(20_000);
  let gw: TestGateway | undefined;
  afterEach(async () => gw?.close());

  it('sends OpenAI reasoning models (o1/o3/o4/gpt-5, also behind a prefix) max_completion_tokens and no temperature, the first time', async () => {
    assert.deepEqual(shapeFor('openai/gpt-5', new Set()), { tokens: 'max_completion_tokens', temperature: false, streamOptions: true, responseFormat: true });
    assert.equal(shapeFor('gpt-4.1', new Set()).tokens, 'max_tokens');
    gw = await startEmulator(openai);
    const { c } = client(gw);
    for (const model of ['gpt-5', 'o3', 'o4-mini']) {
      const { result, error } = await drain(c.stream(ask(model, 'hi', { maxTokens: 100, temperature: 0.2 })));
      assert.equal(error, undefined, String(error));
      assert.equal(result?.attempts, 1, `${model}: right the first time`);
      assert.equal(result?.usage.reasoningTokens, 3);
    }
    for (const q of chats(gw)) {
      assert.equal(q.body?.max_completion_tokens, 100);
      assert.ok(!has(q, 'max_tokens') && !has(q, 'temperature'), JSON.stringify(q.body));
    }
    c.dispose();
  });

  it("learns Mistral's 422 extra_forbidden: one retry without the field, remembered, logged once, usage still read", async () => {
    gw = await startEmulator(mistral, () => 'fine');
    const { c, logs } = client(gw);
    const first = await drain(c.stream(ask('mistral-large-latest', 'hi', { maxTokens: 50 })));
    assert.equal(first.error, undefined, String(first.error));
    assert.equal(first.result?.attempts, 2);
    assert.equal(first.result?.usageSource, 'reported', 'usage from the last chunk, without stream_options');
    const second = await drain(c.stream(ask('mistral-large-latest', 'again', { maxTokens: 50 })));
    assert.equal(second.result?.attempts, 1, 'sent right from then on');
    assert.equal(chats(gw).length, 3);
    assert.ok(!has(chats(gw)[2]!, 'stream_options'));
    assert.equal(logs.filter((l) => /refused stream_options/.test(l)).length, 1, 'logged once');
    c.dispose();
  });

  it('answers the documented replacement, then nothing, and never loops on a gateway that refuses every token field', async () => {
    const stubborn: Emulator = {
      name: 'refuses everything',
      models: ['m'],
      apiKey: EMULATOR_KEY,
      chat: (req) => {
        const field = ['max_tokens', 'max_completion_tokens', 'stream_options'].find((f) => has(req, f));
        if (field) return json(400, { error: { message: `Unrecognized request argument supplied: ${field}`, type: 'invalid_request_error' } });
        return json(400, { error: { message: 'Unrecognized request argument supplied: max_tokens', type: 'invalid_request_error' } });
      },
    };
    gw = await startEmulator(stubborn);
    const { c } = client(gw);
    const { error } = await drain(c.stream(ask('m', 'hi', { maxTokens: 10 })));
    assert.ok(error);
    const sent = chats(gw).map((q) => ['max_tokens', 'max_completion_tokens', 'stream_options'].filter((f) => has(q, f)).join('+'));
    assert.deepEqual(sent, ['max_tokens+stream_options', 'max_completion_tokens+stream_options', 'stream_options', ''], 'each refusal teaches one change; a refusal of nothing sent stops');
    c.dispose();
  });

  it('keeps what it learned in the CLI cache folder, per gateway and model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quorum-shapes-'));
    gw = await startEmulator(mistral, () => 'fine');
    const a = client(gw, new RequestShapes(shapeFile(dir)));
    await drain(a.c.stream(ask('mistral-small-latest', 'hi', { maxTokens: 5 })));
    a.c.dispose();
    const saved = JSON.parse(readFileSync(join(dir, SHAPES_FILE), 'utf8')) as { shapes: Record<string, string[]> };
    assert.deepEqual(Object.values(saved.shapes), [['stream_options']]);
    assert.ok(!JSON.stringify(saved).includes(EMULATOR_KEY));
    const b = client(gw, new RequestShapes(shapeFile(dir)));
    const again = await drain(b.c.stream(ask('mistral-small-latest', 'hi', { maxTokens: 5 })));
    assert.equal(again.result?.attempts, 1, 'the next run sends it right the first time');
    b.c.dispose();
  });
});
