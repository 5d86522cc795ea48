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
