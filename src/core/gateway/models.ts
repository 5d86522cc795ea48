import * as z from 'zod';
import { parseListedPrice } from '../cost/listedPrices';
import type { ModelInfo } from './types';

/** Reading a gateway's `/models` answer: OpenAI's `{data: [...]}`, a `{models: [...]}` or a bare list of ids or objects. */
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
    const ctx = m.data.context_window ?? m.data.context_length;
    if (ctx) info.contextWindow = ctx;
    const price = parseListedPrice(raw);
    if (price) info.price = price;
    out.push(info);
  }
  return out;
}
