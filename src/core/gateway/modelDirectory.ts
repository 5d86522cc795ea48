import type { QuorumSettings } from '../settings/schema';
import type { Connection } from './connection';
import { failureFromSdk } from './failures';
import { parseModelInfo, parseModels, withModelInfo } from './models';
import type { GatewayStats } from './options';
import { closestModels } from './suggest';
import { GatewayError, type ModelInfo } from './types';

/** The gateway's `/models`: fetched on demand, kept a while for the "did you mean" of an unknown model. */
export class ModelDirectory {
  private cache: { at: number; baseUrl: string; ids: string[] } | undefined;
  /** Gateways that answered `/model/info` with no list (all but LiteLLM): not asked again in this session. */
  private readonly withoutModelInfo = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly stats: GatewayStats,
    private readonly cacheMs: number,
    /** Told every list read, with the gateway it came from (the listed prices learn from it). */
    private readonly onListed: (baseUrl: string, models: readonly ModelInfo[]) => void = () => undefined,
  ) {}

  async fetch(settings: QuorumSettings, key: string, signal: AbortSignal): Promise<ModelInfo[]> {
    const client = await this.connection.sdkFor(settings, key);
    this.stats.httpRequests++;
    const timeout = Math.min(30_000, settings.limits.deadlineSeconds * 1000);
    let json: unknown;
    try {
      const response = await client.models.list({ signal, timeout, maxRetries: 0 }).asResponse();
      const text = await response.text();
      json = JSON.parse(text);
    } catch (e) {
      if (e instanceof SyntaxError) throw new GatewayError({ code: 'bad-response', message: 'The gateway answered /models with something that is not JSON' });
      const f = failureFromSdk(e, '/models', signal, settings);
      if (f.error.status === 404 || f.error.status === 405) {
        throw new GatewayError({ code: 'bad-response', message: `The gateway does not offer /models (HTTP ${f.error.status}); type the model id instead`, status: f.error.status });
      }
      throw f.error;
    }
    const listed = parseModels(json);
    if (!listed) throw new GatewayError({ code: 'bad-response', message: 'The gateway answered /models without a list of models' });
    const base = settings.gateway.baseUrl;
    const info = listed.some((m) => !m.price) && !this.withoutModelInfo.has(base) ? await this.modelInfo(client, signal, timeout) : undefined;
    if (info === undefined && !signal.aborted) this.withoutModelInfo.add(base);
    const out = info ? withModelInfo(listed, info) : listed;
    this.cache = { at: Date.now(), baseUrl: settings.gateway.baseUrl, ids: out.map((m) => m.id) };
    this.onListed(settings.gateway.baseUrl, out);
    return out;
  }

  /**
   * LiteLLM's `/model/info` (its prices and context windows, from its model cost map and the proxy's config), read
   * beside `/models` when that lists a model without a price; undefined from any other gateway (a 404, then not
   * asked again in this session) or on any failure: it only adds figures, it never fails the list.
   */
  private async modelInfo(client: Awaited<ReturnType<Connection['sdkFor']>>, signal: AbortSignal, timeout: number): Promise<ReturnType<typeof parseModelInfo>> {
    this.stats.httpRequests++;
    try {
      const json: unknown = await client.get('/model/info', { signal, timeout, maxRetries: 0 });
      return parseModelInfo(json);
    } catch {
      return undefined;
    }
  }

  /** The error of an unknown model, with the closest listed ids as suggestions (unchanged when `/models` fails). */
  async withSuggestions(error: GatewayError, model: string, settings: QuorumSettings, key: string): Promise<GatewayError> {
    try {
      const ids = await this.knownIds(settings, key);
      const suggestions = closestModels(model, ids);
      const hint = suggestions.length > 0 ? `; did you mean ${suggestions.slice(0, 3).join(', ')}?` : '';
      return new GatewayError({ ...error.toJSON(), suggestions, message: `${error.message}${hint}` });
    } catch {
      return error;
    }
  }

  private async knownIds(settings: QuorumSettings, key: string): Promise<string[]> {
    const base = settings.gateway.baseUrl;
    if (this.cache && this.cache.baseUrl === base && Date.now() - this.cache.at < this.cacheMs) return this.cache.ids;
    const models = await this.fetch(settings, key, AbortSignal.timeout(Math.min(10_000, settings.limits.idleTimeoutSeconds * 1000)));
    return models.map((m) => m.id);
  }
}
