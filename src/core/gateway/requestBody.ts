import type OpenAI from 'openai';
import { copyError } from './attemptFailure';
import type { ErrorBody } from './errorBody';
import type { Failure } from './errors';
import { refusedParams, SHAPE_PARAMS, type RequestShape, type ShapeParam } from './shape';
import type { ChatRequest } from './types';

/** The chat request as this gateway and model take it, and what a refusal of its fields means for the retry. */

/** The request in the shape this gateway and model take (see `shape.ts`). */
export function requestBody(model: string, request: ChatRequest, shape: RequestShape, withFormat: boolean): OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming {
  const max = request.maxTokens;
  return {
    model,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    stream: true,
    ...(shape.streamOptions ? { stream_options: { include_usage: true } } : {}),
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- OpenAI deprecated it, but Mistral, relays and older servers take only max_tokens (shape.ts learns which)
    ...(max !== undefined && shape.tokens === 'max_tokens' ? { max_tokens: max } : {}),
    ...(max !== undefined && shape.tokens === 'max_completion_tokens' ? { max_completion_tokens: max } : {}),
    ...(request.temperature !== undefined && shape.temperature ? { temperature: request.temperature } : {}),
    ...(withFormat ? { response_format: { type: 'json_object' as const } } : {}),
  };
}

/** The optional fields a request body carries. */
export function sentParams(body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming): ShapeParam[] {
  return SHAPE_PARAMS.filter((p) => p in body);
}

/** A 400/422 that refuses fields the request carried: marked `refused` (a `response_format` refusal as well). */
export function withRefusals(failure: Failure, body: ErrorBody | undefined, sent: ShapeParam[]): Failure {
  const status = failure.error.status;
  if (status !== 400 && status !== 422) return failure;
  const refused = refusedParams(body ?? { message: failure.error.detail ?? '', fields: [] }, sent);
  if (failure.responseFormatRejected && sent.includes('response_format') && !refused.includes('response_format')) refused.push('response_format');
  if (refused.length === 0) return failure;
  const error = failure.error.code === 'model-not-found' ? copyError(failure.error, { code: 'bad-response' }) : failure.error;
  return { ...failure, error, refused, responseFormatRejected: false, retryable: false, fallbackAllowed: true };
}

