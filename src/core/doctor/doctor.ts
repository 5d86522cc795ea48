import { contextWindowFor } from '../cost/contextWindows';
import { resolveAgents } from '../agents/registry';
import { priceFor, type ListedPriceTable } from '../cost/prices';
import type { QuorumSettings } from '../settings/schema';
import { normalizeBaseUrl } from '../gateway/baseUrl';
import type { GatewayClient } from '../gateway/client';
import type { RequestShape, ShapeParam } from '../gateway/shape';
import { GatewayError, type GatewayErrorData } from '../gateway/types';

/**
 * WHAT THIS GATEWAY DOES, as `quorum doctor` and the editor's Test Connection say it: its models, one tiny
 * streamed request per distinct agent model (is the usage reported, and where; is JSON mode honoured; which
 * model answered; the round trip), the request shape each model was sent after what it refused, and whether
 * Quorum knows each agent model's price and context window. Data only: each face words it.
 */

export interface ProbeResult {
  model: string;
  ok: boolean;
  latencyMs: number;
  /** The model the gateway says answered (LM Studio answers with whatever model it has loaded). */
  answeredBy?: string;
  usage?: 'reported' | 'estimated';
  /** Where the usage came: the field, and whether on every chunk or once. */
  usageVia?: { field: string; everyChunk: boolean };
  /** `honoured`: a JSON object came back; `ignored`: the request asked for JSON and got prose; `refused`: the
   *  gateway refused `response_format` (Quorum asks in the prompt only); `unknown`: no text to judge. */
  json?: 'honoured' | 'ignored' | 'refused' | 'unknown';
  attempts?: number;
  error?: GatewayErrorData;
  /** What the model is sent now, after what it refused. */
  shape: RequestShape;
  refused: ShapeParam[];
}

interface AgentModelFacts {
  agent: string;
  model: string;
  /** Where its price comes from (`settings`, `default` table, `listed` by the gateway); undefined: unknown. */
  priceSource?: string;
  inputPerMTok?: number;
  outputPerMTok?: number;
  contextWindow: number;
}

export interface DoctorReport {
  baseUrl: string;
  models: { ok: true; ids: string[]; latencyMs: number } | { ok: false; error: GatewayErrorData; latencyMs: number };
  probes: ProbeResult[];
  agents: AgentModelFacts[];
}

const PROBE_PROMPT = 'Reply with exactly this JSON object and nothing else: {"ok": true}';

function errorData(e: unknown): GatewayErrorData {
  if (e instanceof GatewayError) return e.toJSON();
  return { code: 'network', message: e instanceof Error ? e.message : String(e) };
}

function jsonVerdict(text: string, refused: ShapeParam[]): ProbeResult['json'] {
  if (refused.includes('response_format')) return 'refused';
  const t = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  if (t === '') return 'unknown';
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? 'honoured' : 'ignored';
  } catch {
    return 'ignored';
  }
}

async function probe(gateway: GatewayClient, settings: QuorumSettings, model: string, signal: AbortSignal | undefined): Promise<ProbeResult> {
  const t0 = Date.now();
  const it = gateway.stream(
    { model, messages: [{ role: 'user', content: PROBE_PROMPT }], maxTokens: 64, temperature: 0, responseFormat: 'json_object', tag: { agent: 'doctor' } },
    signal ? { signal } : {},
  );
  const learned = () => gateway.shapes.learnedFor(settings.gateway.baseUrl).find((l) => l.model === model)?.refused ?? [];
  try {
    let r = await it.next();
    while (!r.done) r = await it.next();
    const result = r.value;
    const refused = learned();
    return {
      model,
      ok: true,
      latencyMs: Date.now() - t0,
      answeredBy: result.model,
      usage: result.usageSource,
      ...(result.usageVia ? { usageVia: { field: result.usageVia.field, everyChunk: result.usageVia.chunks > 1 } } : {}),
      json: jsonVerdict(result.text, refused),
      attempts: result.attempts,
      shape: gateway.shapes.shape(settings.gateway.baseUrl, model),
      refused,
    };
  } catch (e) {
    return { model, ok: false, latencyMs: Date.now() - t0, error: errorData(e), shape: gateway.shapes.shape(settings.gateway.baseUrl, model), refused: learned() };
  }
}

/** The agents' models, their price and context window as Quorum knows them (`listed`: the gateway's `/models` prices). */
function agentModelFacts(settings: QuorumSettings, listed: ListedPriceTable = {}): AgentModelFacts[] {
  return resolveAgents(settings).agents.map((a) => {
    const price = priceFor(a.model, settings.prices, listed);
    return {
      agent: a.id,
      model: a.model,
      ...(price ? { priceSource: price.source, inputPerMTok: price.price.input, outputPerMTok: price.price.output } : {}),
      contextWindow: contextWindowFor(a.model),
    };
  });
}

/**
 * Asks the gateway what it does; never throws for the gateway's failures (they are in the report). The tiny
 * requests go first, then `/models` (whose answer also teaches the listed prices).
 */
export async function diagnoseGateway(gateway: GatewayClient, settings: QuorumSettings, options: { signal?: AbortSignal; listed?: () => ListedPriceTable } = {}): Promise<DoctorReport> {
  const distinct = [...new Set(agentModelFacts(settings).map((a) => a.model))].slice(0, 6);
  const probes = await Promise.all(distinct.map((m) => probe(gateway, settings, m, options.signal)));
  const t0 = Date.now();
  let models: DoctorReport['models'];
  try {
    const list = await gateway.listModels(options.signal ? { signal: options.signal } : {});
    models = { ok: true, ids: list.map((m) => m.id), latencyMs: Date.now() - t0 };
  } catch (e) {
    models = { ok: false, error: errorData(e), latencyMs: Date.now() - t0 };
  }
  return { baseUrl: normalizeBaseUrl(settings.gateway.baseUrl), models, probes, agents: agentModelFacts(settings, options.listed?.()) };
}
