import * as z from 'zod';
import { parseListedPrice } from '../cost/listedPrices';
import type { ModelInfo } from './types';

/**
 * Reading a gateway's `/models` answer: OpenAI's `{data: [...]}`, a `{models: [...]}` or a bare list of ids or
 * objects; with the context window the gateway gives (OpenRouter's `context_length`, others' `context_window`,
 * vLLM's `max_model_len`, llama.cpp's `meta`) and its price (core/cost/listedPrices.ts).
 */
const modelsSchema = z.union([
  z.looseObject({ data: z.array(z.unknown()) }).transform((o) => o.data),
  z.looseObject({ models: z.array(z.unknown()) }).transform((o) => o.models),
  z.array(z.unknown()),
]);
const modelEntrySchema = z.looseObject({
  id: z.string().min(1).max(300),
  owned_by: z.string().optional().catch(undefined),
  context_window: z.number().int().positive().optional().catch(undefined),
  context_length: z.number().int().positive().optional().catch(undefined),
  // vLLM's ModelCard (vllm/entrypoints/openai/protocol.py): the server's --max-model-len.
  max_model_len: z.number().int().positive().optional().catch(undefined),
  // llama.cpp's server (ggml-org/llama.cpp tools/server, `model_meta()`): `n_ctx` where the build sends it, else
  // the model's trained `n_ctx_train` (the server's window with `--ctx-size 0`, its default).
  meta: z.looseObject({ n_ctx: z.number().int().positive().optional().catch(undefined), n_ctx_train: z.number().int().positive().optional().catch(undefined) }).optional().catch(undefined),
});

/** The models in a `/models` answer, or undefined when it is not a list of models. */
export function parseModels(json: unknown): ModelInfo[] | undefined {
  const list = modelsSchema.safeParse(json);
  if (!list.success) return undefined;
  const out: ModelInfo[] = [];
  for (const raw of list.data) {
    const m = modelEntrySchema.safeParse(typeof raw === 'string' ? { id: raw } : raw);
    if (!m.success) continue;
    const info: ModelInfo = { id: m.data.id };
    if (m.data.owned_by) info.ownedBy = m.data.owned_by;
    const ctx = m.data.context_window ?? m.data.context_length ?? m.data.max_model_len ?? m.data.meta?.n_ctx ?? m.data.meta?.n_ctx_train;
    if (ctx) info.contextWindow = ctx;
    const price = parseListedPrice(raw);
    if (price) info.price = price;
    out.push(info);
  }
  return out;
}

/**
 * LiteLLM's `/model/info` (docs.litellm.ai/docs/proxy/model_management; BerriAI/litellm#16878 shows an answer):
 * `{data: [{model_name, litellm_params, model_info: {input_cost_per_token, output_cost_per_token,
 * cache_read_input_token_cost, max_input_tokens, …}}]}`, `model_name` being the id clients send. The price and
 * context window of each, by that id; undefined when the answer is not that list.
 */
const modelInfoSchema = z.looseObject({ data: z.array(z.unknown()) });
const modelInfoEntrySchema = z.looseObject({
  model_name: z.string().min(1).max(300),
  model_info: z.looseObject({ max_input_tokens: z.number().int().positive().nullish().catch(undefined) }).nullish().catch(undefined),
});

export function parseModelInfo(json: unknown): Map<string, Pick<ModelInfo, 'price' | 'contextWindow'>> | undefined {
  const parsed = modelInfoSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const out = new Map<string, Pick<ModelInfo, 'price' | 'contextWindow'>>();
  for (const raw of parsed.data.data) {
    const entry = modelInfoEntrySchema.safeParse(raw);
    if (!entry.success || out.has(entry.data.model_name)) continue;
    const info = entry.data.model_info;
    const price = info ? parseListedPrice(info) : undefined;
    const window = info?.max_input_tokens ?? undefined;
    out.set(entry.data.model_name, { ...(price ? { price } : {}), ...(window ? { contextWindow: window } : {}) });
  }
  return out;
}

/** `models` with what `/model/info` adds where `/models` gave no price or window (its own figures first). */
export function withModelInfo(models: readonly ModelInfo[], info: ReadonlyMap<string, Pick<ModelInfo, 'price' | 'contextWindow'>>): ModelInfo[] {
  return models.map((m) => {
    const more = info.get(m.id);
    if (!more) return m;
    return { ...m, ...(!m.price && more.price ? { price: more.price } : {}), ...(!m.contextWindow && more.contextWindow ? { contextWindow: more.contextWindow } : {}) };
  });
}
