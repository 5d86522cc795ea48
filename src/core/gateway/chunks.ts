import * as z from 'zod';
import type { FinishReason, Usage } from './types';

/**
 * Reading chat-completion chunks (and whole non-streamed completions) defensively: every field optional,
 * numbers checked, unknown fields ignored. Gateways differ in where they put cached and reasoning tokens.
 */

const count = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().finite().nonnegative()).optional().catch(undefined);
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

const errorSchema = z.looseObject({
  message: z.string().optional().catch(undefined),
  type: z.string().nullish().catch(undefined),
  code: z.union([z.string(), z.number()]).nullish().catch(undefined),
  status: z.number().optional().catch(undefined),
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
  error: z.unknown().optional(),
});

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
  if (raw === undefined || raw === null || raw === false) return undefined;
  if (typeof raw === 'string') return { message: raw };
  const e = errorSchema.safeParse(raw);
  if (!e.success) return { message: 'the gateway sent an error without details' };
  const out: StreamErrorObject = { message: e.data.message ?? 'the gateway sent an error without details' };
  if (e.data.type) out.type = e.data.type;
  if (e.data.code !== undefined && e.data.code !== null) out.code = e.data.code;
  if (e.data.status !== undefined) out.status = e.data.status;
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
  if (c.data.usage !== undefined && c.data.usage !== null) {
    const usage = parseUsage(c.data.usage);
    if (usage) out.usage = usage;
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
