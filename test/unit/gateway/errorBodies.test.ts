import { strict as assert } from 'node:assert';
import { readErrorBody } from '../../../src/core/gateway/errorBody';
import { classifyHttp } from '../../../src/core/gateway/errors';
import { refusedParams, SHAPE_PARAMS } from '../../../src/core/gateway/shape';

/** Each body as the gateway documents or its users quote it (sources in test/fixtures/gateway/emulators/*). */
const MISTRAL_422 = '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted","input":{"include_usage":true}}]},"type":"invalid_request_message_error","param":null,"code":null}';
const MISTRAL_OLD = '{"object":"error","message":"{\\"detail\\":[{\\"type\\":\\"extra_forbidden\\",\\"loc\\":[\\"body\\",\\"max_completion_tokens\\"],\\"msg\\":\\"Extra inputs are not permitted\\",\\"input\\":0.0}]}","type":"internal_error_proxy","param":null,"code":"1000"}';
const VLLM_FLAT = '{"object":"error","message":"[{\'type\': \'extra_forbidden\', \'loc\': (\'body\', \'stream_options\'), \'msg\': \'Extra inputs are not permitted\'}]","type":"BadRequestError","param":null,"code":400}';
const GEMINI_ARRAY = '[{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \\"stream_options\\": Cannot find field.","status":"INVALID_ARGUMENT"}}]';
const LM_STUDIO = '{"error":"\'response_format.type\' must be \'json_schema\' or \'text\'"}';
const OPENAI_MAX_TOKENS = '{"error":{"message":"Unsupported parameter: \'max_tokens\' is not supported with this model. Use \'max_completion_tokens\' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}';
const FASTAPI = '{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required"}]}';
const NEW_API_503 = '{"error":{"message":"当前分组 default 下对于模型 gpt-9 无可用渠道 (request id: 2025120418000012)","type":"new_api_error","param":"","code":"model_not_found"}}';
const OPENROUTER = '{"error":{"code":400,"message":"Provider returned error","metadata":{"raw":"max_tokens: must be at most 8192","provider_name":"Anthropic"}}}';
const ANTHROPIC = '{"type":"error","error":{"type":"not_found_error","message":"model: claude-x"}}';
const RELAY_MSG = '{"code":1,"msg":"无可用渠道"}';

describe('gateway error bodies: every documented shape is read for its message', () => {
  it('reads OpenAI, LM Studio strings, Gemini arrays, flat vLLM/Mistral bodies, FastAPI details, relays and OpenRouter metadata', () => {
    assert.equal(readErrorBody(OPENAI_MAX_TOKENS)?.param, 'max_tokens');
    assert.equal(readErrorBody(OPENAI_MAX_TOKENS)?.code, 'unsupported_parameter');
    assert.equal(readErrorBody(LM_STUDIO)?.message, "'response_format.type' must be 'json_schema' or 'text'");
    const gemini = readErrorBody(GEMINI_ARRAY);
    assert.match(gemini?.message ?? '', /Unknown name "stream_options"/);
    assert.equal(gemini?.type, 'INVALID_ARGUMENT');
    assert.equal(gemini?.status, 400);
    const mistral = readErrorBody(MISTRAL_422);
    assert.equal(mistral?.message, 'stream_options: Extra inputs are not permitted');
    assert.deepEqual(mistral?.fields, ['stream_options']);
    assert.equal(mistral?.type, 'invalid_request_message_error');
    assert.deepEqual(readErrorBody(MISTRAL_OLD)?.fields, ['max_completion_tokens'], 'a JSON document inside the message string');
    assert.deepEqual(readErrorBody(VLLM_FLAT)?.fields, ['stream_options'], 'a Python repr of the pydantic list');
    assert.equal(readErrorBody(VLLM_FLAT)?.type, 'BadRequestError');
    assert.equal(readErrorBody(FASTAPI)?.message, 'messages: Field required');
    assert.equal(readErrorBody(NEW_API_503)?.message, '当前分组 default 下对于模型 gpt-9 无可用渠道 (request id: 2025120418000012)', 'request-id suffix kept');
    assert.equal(readErrorBody(RELAY_MSG)?.message, '无可用渠道');
    assert.equal(readErrorBody(OPENROUTER)?.message, 'Provider returned error: max_tokens: must be at most 8192');
    assert.equal(readErrorBody(ANTHROPIC)?.type, 'not_found_error');
    assert.equal(readErrorBody('upstream connect error\n')?.message, 'upstream connect error');
    assert.equal(readErrorBody('<html><body>502 Bad Gateway</body></html>'), undefined, 'an HTML page is no message');
    assert.equal(readErrorBody('{}')?.message, 'the gateway sent an error without details');
  });

  it('finds the refused field in each shape, and only fields that were sent', () => {
    const sent = [...SHAPE_PARAMS];
    const read = (text: string) => readErrorBody(text) ?? { message: '', fields: [] };
    assert.deepEqual(refusedParams(read(OPENAI_MAX_TOKENS), sent), ['max_tokens'], 'the refused one, not its replacement');
    assert.deepEqual(refusedParams(read(MISTRAL_422), sent), ['stream_options']);
    assert.deepEqual(refusedParams(read(MISTRAL_OLD), sent), ['max_completion_tokens']);
    assert.deepEqual(refusedParams(read(VLLM_FLAT), sent), ['stream_options']);
    assert.deepEqual(refusedParams(read(GEMINI_ARRAY), sent), ['stream_options']);
    assert.deepEqual(refusedParams(read(MISTRAL_422), ['max_tokens']), [], 'not sent: nothing to drop');
    assert.deepEqual(refusedParams({ message: "'max_tokens' is too large: 100000. This model supports at most 4096 completion tokens", fields: [] }, sent), [], 'a value out of range is no refusal of the field');
    const twoAtOnce = { message: 'stream_options: Extra inputs are not permitted; max_completion_tokens: Extra inputs are not permitted', fields: ['stream_options', 'max_completion_tokens'] };
    assert.deepEqual(refusedParams(twoAtOnce, sent), ['stream_options', 'max_completion_tokens']);
  });

  it('tells quota, credit and budget by status, type and code, never by a word in the prose', () => {
    const azure = classifyHttp({
      status: 429,
      model: 'gpt-4o',
      code: '429',
      waitMs: 6000,
      message: 'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.',
    });
    assert.equal(azure.error.code, 'rate-limited', 'Azure links a "quotaincrease" page on a per-minute limit');
    assert.equal(azure.retryable, true);
    assert.equal(azure.waitMs, 6000);
    const codes: [number, string | undefined, string | undefined, string][] = [
      [429, 'insufficient_quota', 'insufficient_quota', 'quota'],
      [403, 'new_api_error', 'insufficient_user_quota', 'quota'],
      [400, 'budget_exceeded', '400', 'quota'],
      [402, undefined, undefined, 'quota'],
      [429, 'requests', 'rate_limit_exceeded', 'rate-limited'],
      [429, 'throttling_error', '429', 'rate-limited'],
    ];
    for (const [status, type, code, want] of codes) {
      assert.equal(classifyHttp({ status, model: 'm', type, code, message: 'Your quota, budget or credit balance is involved' }).error.code, want, `${status} ${type} ${code}`);
    }
  });

  it('fails fast on what cannot succeed: no channel, model not pulled, NotFoundError, model_not_found, in any wording', () => {
    const cases: [number, string, string | undefined][] = [
      [503, '当前分组 default 下对于模型 gpt-9 无可用渠道', undefined],
      [503, 'No available channel for model gpt-9 under group default', undefined],
      [503, 'upstream says so', 'model_not_found'],
      [404, 'model "llama3" not found, try pulling it first', undefined],
      [400, 'litellm.NotFoundError: OpenAIException - The model `gpt-9` does not exist', undefined],
      [400, 'Invalid model name passed in model=gpt-9. Call `/v1/models` to view available models for your key.', undefined],
    ];
    for (const [status, message, code] of cases) {
      const f = classifyHttp({ status, model: 'gpt-9', message, code });
      assert.equal(f.error.code, 'model-not-found', message);
      assert.equal(f.retryable, false, message);
      assert.equal(f.fallbackAllowed, true, message);
      assert.equal(f.error.detail, message, 'the gateway\'s words are kept for the UI');
    }
    assert.equal(classifyHttp({ status: 503, model: 'm', message: 'The server is overloaded' }).retryable, true, 'an overloaded 503 is still retried');
  });
});
