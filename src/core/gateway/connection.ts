import type OpenAI from 'openai';
import type { QuorumSettings } from '../settings/schema';
import { scrubSecrets } from '../redaction/redactor';
import type { GatewayLogger, GatewayOptions } from './options';
import { isLoopbackUrl } from './baseUrl';
import { loadSdk } from './openaiSdk';
import { GatewayError } from './types';

/** What the SDK is given as the key of a loopback gateway that needs none; never sent (see `fetchFor`). */
const NO_KEY = 'quorum-no-key';

type LogLevel = keyof GatewayLogger;

/**
 * What every request of the client needs to reach the gateway: the API key (read on each request), one
 * OpenAI SDK instance per base URL, key and headers (its own retries off), and a log that never shows the key.
 */
export class Connection {
  private sdk: { id: string; client: OpenAI } | undefined;
  /** The key most recently read, to scrub from anything a gateway echoes back into errors and logs. */
  lastKey: string | undefined;
  /**
   * The text of every error answer, by its `Headers` object: the SDK keeps only `body.error` of a JSON error
   * body (nothing of Mistral's, vLLM's or Gemini's shapes), but its `APIError.headers` is the response's own.
   */
  private readonly errorBodies = new WeakMap<object, Promise<string>>();

  constructor(
    private readonly apiKey: GatewayOptions['apiKey'],
    private readonly logger: GatewayLogger | undefined,
    private readonly fetchImpl?: typeof fetch,
    /** A base URL on this machine may go without a key (local servers); the faces turn it on. */
    private readonly keyOptionalOnLoopback = false,
  ) {}

  /** The key to send; a loopback gateway (Ollama, LM Studio, llama.cpp, vLLM on this machine) needs none. */
  async readKey(baseUrl?: string): Promise<string> {
    let key: string | undefined;
    try {
      key = await this.apiKey();
    } catch {
      key = undefined;
    }
    if (!key || key.trim() === '') {
      if (this.keyOptionalOnLoopback && baseUrl !== undefined && isLoopbackUrl(baseUrl)) return NO_KEY;
      throw new GatewayError({ code: 'auth', message: 'No API key is set for the gateway. Set one with "Quorum: Set Gateway API Key" (or QUORUM_API_KEY for the CLI).' });
    }
    this.lastKey = key.trim();
    return this.lastKey;
  }

  /** The text of the error answer whose headers these are (see `errorBodies`), when one was read. */
  errorBodyOf(headers: unknown): Promise<string> | undefined {
    return typeof headers === 'object' && headers !== null ? this.errorBodies.get(headers) : undefined;
  }

  /** The fetch the SDK uses: keeps error bodies whole, and sends no Authorization header without a key. */
  private fetchFor(key: string): typeof fetch {
    const base = this.fetchImpl ?? globalThis.fetch;
    return async (input, init) => {
      let sent = init;
      if (key === NO_KEY) {
        const headers = new Headers(init?.headers);
        headers.delete('authorization');
        sent = { ...init, headers };
      }
      const response = await base(input, sent);
      if (!response.ok && response.body) this.errorBodies.set(response.headers, response.clone().text().catch(() => ''));
      return response;
    };
  }

  /** The SDK client for these settings and key (the SDK is loaded by the first request: `openaiSdk.ts`). */
  async sdkFor(settings: QuorumSettings, key: string): Promise<OpenAI> {
    const baseURL = settings.gateway.baseUrl.replace(/\/+$/, '');
    const headers = settings.gateway.extraHeaders;
    const id = JSON.stringify([baseURL, key, headers]);
    if (this.sdk?.id !== id) {
      const OpenAISdk = await loadSdk();
      const client = new OpenAISdk({
        apiKey: key,
        baseURL,
        maxRetries: 0,
        timeout: settings.limits.deadlineSeconds * 1000,
        defaultHeaders: headers,
        organization: null,
        project: null,
        logLevel: 'off',
        fetch: this.fetchFor(key),
      });
      this.sdk = { id, client };
    }
    return this.sdk.client;
  }

  /** Logs with the key (the given one, else the last read) scrubbed from the message and string fields. */
  log(level: LogLevel, message: string, data: Record<string, unknown>, key?: string): void {
    if (!this.logger) return;
    try {
      const clean: Record<string, unknown> = {};
      const secret = key ?? this.lastKey;
      for (const [k, v] of Object.entries(data)) clean[k] = typeof v === 'string' ? scrubSecrets(v, secret) : v;
      this.logger[level](scrubSecrets(message, secret), clean);
    } catch {
      // Logging must never break a request.
    }
  }
}
