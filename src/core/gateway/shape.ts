import { normalizeBaseUrl } from './baseUrl';
import type { ErrorBody } from './errorBody';

/**
 * THE REQUEST SHAPE, per gateway and model: which of the optional fields of a chat request it takes.
 * Known families are sent right the first time — OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) refuse
 * `max_tokens` ("Use 'max_completion_tokens' instead") and any `temperature` but the default. Anything else is
 * learned from a refusal that names the field (OpenAI's `param`, a pydantic `loc` such as Mistral's
 * `extra_forbidden`, or the field's name in the message): the request is retried once without it (or with its
 * documented replacement), and the refusal is remembered for that gateway and model. What is refused only
 * grows, so a refusal that teaches nothing new is never retried: no loop.
 */

export const SHAPE_PARAMS = ['max_tokens', 'max_completion_tokens', 'temperature', 'stream_options', 'response_format'] as const;
export type ShapeParam = (typeof SHAPE_PARAMS)[number];

export interface RequestShape {
  tokens: 'max_tokens' | 'max_completion_tokens' | 'none';
  temperature: boolean;
  streamOptions: boolean;
  responseFormat: boolean;
}

/** OpenAI's reasoning families, also behind a provider prefix (`openai/gpt-5`, `azure/o3-mini`). */
const REASONING_FAMILY = /^(o1|o3|o4|gpt-5)([-.:_]|$)/i;

function isReasoningFamily(model: string): boolean {
  return REASONING_FAMILY.test(model.split('/').pop() ?? model);
}

/** The shape for a model, given what its gateway is known to refuse. */
export function shapeFor(model: string, refused: ReadonlySet<ShapeParam>): RequestShape {
  const family = isReasoningFamily(model);
  const order: ShapeParam[] = family ? ['max_completion_tokens', 'max_tokens'] : ['max_tokens', 'max_completion_tokens'];
  const tokens = order.find((p) => !refused.has(p));
  return {
    tokens: tokens === 'max_tokens' || tokens === 'max_completion_tokens' ? tokens : 'none',
    temperature: !family && !refused.has('temperature'),
    streamOptions: !refused.has('stream_options'),
    responseFormat: !refused.has('response_format'),
  };
}

/** Words and codes of a refusal of a field, as OpenAI, pydantic (Mistral, vLLM, LiteLLM), Google and Groq put them. */
const REFUSAL = /unsupported|not supported|does not support|extra[_ ]forbidden|extra (inputs?|fields?) (are |is )?not permitted|not permitted|unknown (name|field|parameter|argument|key)|unrecognized|unexpected (keyword|field|parameter|argument)|not allowed|cannot find field|invalid (parameter|field|argument)|is not a valid (parameter|field|argument)|only the default/i;

function mentions(text: string, name: string): number {
  const m = new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).exec(text);
  return m ? m.index : -1;
}

function named(value: string, sent: readonly ShapeParam[]): ShapeParam | undefined {
  return sent.find((p) => value === p || value.startsWith(`${p}.`) || value.endsWith(`.${p}`));
}

/** The fields of `sent` that an error refuses; empty when it is not a refusal of a field we sent. */
export function refusedParams(body: Pick<ErrorBody, 'message' | 'type' | 'code' | 'param' | 'fields'>, sent: readonly ShapeParam[]): ShapeParam[] {
  const text = `${body.message} ${body.type ?? ''} ${body.code ?? ''}`;
  if (!REFUSAL.test(text)) return [];
  const param = body.param ? named(body.param, sent) : undefined;
  if (param) return [param];
  const fromFields = [...new Set(body.fields.map((f) => named(f, sent)).filter((p): p is ShapeParam => p !== undefined))];
  if (fromFields.length > 0) return fromFields;
  const found = sent.map((p) => ({ p, at: mentions(body.message, p) })).filter((x) => x.at >= 0).sort((a, b) => a.at - b.at);
  // "'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead": the first is refused.
  if (found.length > 1 && /\binstead\b|\buse\b/i.test(body.message)) return found.slice(0, 1).map((x) => x.p);
  return found.map((x) => x.p);
}

/** Where learned shapes are kept between runs (the CLI's cache folder); the editor keeps them for the session. */
export interface ShapeStore {
  load(): Record<string, ShapeParam[]>;
  save(entries: Record<string, ShapeParam[]>): void;
}

/** One learned refusal, for the log and for `quorum doctor`. */
interface LearnedShape {
  model: string;
  refused: ShapeParam[];
}

/** What each gateway and model refused, shared by every request of a client (and its CLI runs, with a store). */
export class RequestShapes {
  private readonly learned = new Map<string, Set<ShapeParam>>();

  constructor(private readonly store?: ShapeStore) {
    let saved: Record<string, ShapeParam[]>;
    try {
      saved = store?.load() ?? {};
    } catch {
      saved = {};
    }
    for (const [key, params] of Object.entries(saved)) this.learned.set(key, new Set(params.filter((p) => (SHAPE_PARAMS as readonly string[]).includes(p))));
  }

  private static key(baseUrl: string, model: string): string {
    return `${normalizeBaseUrl(baseUrl)} ${model}`;
  }

  shape(baseUrl: string, model: string): RequestShape {
    return shapeFor(model, this.learned.get(RequestShapes.key(baseUrl, model)) ?? new Set());
  }

  /** Records refusals; returns those that were new (what a retry changes), empty when all were known. */
  refuse(baseUrl: string, model: string, params: readonly ShapeParam[]): ShapeParam[] {
    const key = RequestShapes.key(baseUrl, model);
    const set = this.learned.get(key) ?? new Set<ShapeParam>();
    const fresh = params.filter((p) => !set.has(p));
    if (fresh.length === 0) return [];
    for (const p of fresh) set.add(p);
    this.learned.set(key, set);
    try {
      this.store?.save(Object.fromEntries([...this.learned].map(([k, v]) => [k, [...v]])));
    } catch {
      // A cache folder that cannot be written: the shape is still kept for this run.
    }
    return fresh;
  }

  /** What was learned for one gateway, by model. */
  learnedFor(baseUrl: string): LearnedShape[] {
    const prefix = `${normalizeBaseUrl(baseUrl)} `;
    return [...this.learned].filter(([k, v]) => k.startsWith(prefix) && v.size > 0).map(([k, v]) => ({ model: k.slice(prefix.length), refused: [...v] }));
  }
}
