import * as z from 'zod';
import { field } from '../../shared/guards';
import { readErrorBody } from './errorBody';
import type { FinishReason } from './types';
import type { Usage } from '../domain/usage';

/**
 * Reading chat-completion chunks (and whole non-streamed completions) defensively: every field optional,
 * numbers checked, unknown fields ignored. Gateways differ in where they put cached and reasoning tokens.
 */

const count = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().nonnegative()).optional().catch(undefined);
const text = z.string().nullish().catch(undefined);

const usageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  input_tokens: count,
  output_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count }).nullish().catch(undefined),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish().catch(undefined),
  /** DeepSeek. */
  prompt_cache_hit_tokens: count,
  /** Anthropic-style gateways. */
  cache_read_input_tokens: count,
  /** Gateways that price the request themselves (OpenRouter and others), US dollars. */
  cost: count,
});


const choiceSchema = z.looseObject({
  index: z.number().optional().catch(undefined),
  delta: z.looseObject({ content: text, reasoning_content: text, reasoning: text }).nullish().catch(undefined),
  message: z.looseObject({ content: text, reasoning_content: text, reasoning: text }).nullish().catch(undefined),
  finish_reason: z.string().nullish().catch(undefined),
});

const chunkSchema = z.looseObject({
  model: z.string().optional().catch(undefined),
  choices: z.array(z.unknown()).nullish().catch(undefined),
  usage: z.unknown().optional(),
  /** Groq puts the usage of a stream in `x_groq.usage` of its last chunk. */
  x_groq: z.unknown().optional(),
  /** llama.cpp's server reports `timings.prompt_n` / `predicted_n` on its last chunk, with or without usage. */
  timings: z.unknown().optional(),
  error: z.unknown().optional(),
});

/** The usage a chunk reports, wherever its gateway puts it (read when `stream_options` was refused, too). */
function chunkUsage(d: z.infer<typeof chunkSchema>): { usage: ReportedUsage; field: UsageField } | undefined {
  if (d.usage !== undefined && d.usage !== null) {
    const usage = parseUsage(d.usage);
    if (usage) return { usage, field: 'usage' };
  }
  const groq = parseUsage(field(d.x_groq, 'usage'));
  if (groq) return { usage: groq, field: 'x_groq.usage' };
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const prompt = n(field(d.timings, 'prompt_n'));
  const predicted = n(field(d.timings, 'predicted_n'));
  const usage = prompt !== undefined && predicted !== undefined ? parseUsage({ prompt_tokens: prompt, completion_tokens: predicted }) : undefined;
  return usage ? { usage, field: 'timings' } : undefined;
}

/** Where a chunk carried its usage. */
export type UsageField = 'usage' | 'x_groq.usage' | 'timings';

export interface ReportedUsage extends Usage {
  /** `usage.cost` when the gateway priced the request. */
  costUsd?: number;
}

interface StreamErrorObject {
  message: string;
  type?: string;
  code?: string | number;
  status?: number;
}

interface ParsedChunk {
  content: string;
  reasoning: string;
  finishReason?: string;
  usage?: ReportedUsage;
  usageField?: UsageField;
  model?: string;
  error?: StreamErrorObject;
}

export function parseUsage(raw: unknown): ReportedUsage | undefined {
  const u = usageSchema.safeParse(raw);
  if (!u.success) return undefined;
  const d = u.data;
  const prompt = d.prompt_tokens ?? d.input_tokens;
  const completion = d.completion_tokens ?? d.output_tokens;
  if (prompt === undefined && completion === undefined && d.cost === undefined) return undefined;
  const promptTokens = Math.floor(prompt ?? 0);
  const completionTokens = Math.floor(completion ?? 0);
  const cached = d.prompt_tokens_details?.cached_tokens ?? d.prompt_cache_hit_tokens ?? d.cache_read_input_tokens ?? 0;
  const reasoning = d.completion_tokens_details?.reasoning_tokens ?? 0;
  const usage: ReportedUsage = {
    promptTokens,
    completionTokens,
    cachedTokens: Math.min(promptTokens, Math.floor(cached)),
    reasoningTokens: Math.min(completionTokens, Math.floor(reasoning)),
  };
  if (d.cost !== undefined) usage.costUsd = d.cost;
  return usage;
}

export function parseError(raw: unknown): StreamErrorObject | undefined {
  const body = readErrorBody(raw);
  if (!body) return undefined;
  const out: StreamErrorObject = { message: body.message };
  if (body.type) out.type = body.type;
  if (body.code !== undefined) out.code = body.code;
  if (body.status !== undefined) out.status = body.status;
  return out;
}

/** Parses one streamed chunk (or a whole completion) that has already been JSON-decoded. */
export function parseChunk(json: unknown): ParsedChunk | undefined {
  const c = chunkSchema.safeParse(json);
  if (!c.success) return undefined;
  const out: ParsedChunk = { content: '', reasoning: '' };
  if (c.data.model) out.model = c.data.model;
  const error = parseError(c.data.error);
  if (error) out.error = error;
  const usage = chunkUsage(c.data);
  if (usage) {
    out.usage = usage.usage;
    out.usageField = usage.field;
  }
  for (const raw of c.data.choices ?? []) {
    const choice = choiceSchema.safeParse(raw);
    // Only the first completion: a gateway that streams several (`n` > 1) must not interleave them.
    if (!choice.success || (choice.data.index !== undefined && choice.data.index !== 0)) continue;
    const part = choice.data.delta ?? choice.data.message;
    if (part) {
      out.content += part.content ?? '';
      out.reasoning += part.reasoning_content ?? part.reasoning ?? '';
    }
    if (choice.data.finish_reason) out.finishReason = choice.data.finish_reason;
  }
  return out;
}

export function toFinishReason(value: string | undefined): FinishReason {
  switch (value) {
    case 'stop':
    case 'length':
    case 'content_filter':
    case 'tool_calls':
    case 'error':
      return value;
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'function_call':
      return 'tool_calls';
    default:
      return 'unknown';
  }
}
