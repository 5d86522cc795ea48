import { CostLedger } from '../../../src/core/cost/ledger';
import { createGateway, type GatewayClient, type GatewayTuning } from '../../../src/core/gateway/client';
import type { ChatRequest, StreamResult } from '../../../src/core/gateway/types';
import { settingsSchema, type QuorumSettings } from '../../../src/core/settings/schema';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from '../../fixtures/gateway/server';

export const KEY = 'sk-test-0123456789abcdefSECRET';

export interface Rig {
  gw: TestGateway;
  client: GatewayClient;
  ledger: CostLedger;
  settings: QuorumSettings;
  logs: { level: string; message: string; data?: Record<string, unknown>; at?: number }[];
  close(): Promise<void>;
}

/** Fast settings for tests: short idle and deadline, quick backoffs. */
export async function rig(
  opts: { gateway?: TestGatewayOptions; settings?: Record<string, unknown>; tuning?: Partial<GatewayTuning>; key?: string | undefined } = {},
): Promise<Rig> {
  const gw = await startTestGateway({ apiKey: KEY, ...(opts.gateway ?? {}) });
  const raw = opts.settings ?? {};
  const settings = settingsSchema.parse({
    ...raw,
    gateway: { baseUrl: gw.url, ...((raw.gateway as object) ?? {}) },
    limits: { idleTimeoutSeconds: 2, deadlineSeconds: 10, ...((raw.limits as object) ?? {}) },
  });
  const ledger = new CostLedger(() => settings.prices);
  const logs: Rig['logs'] = [];
  const logger = {
    info: (message: string, data?: Record<string, unknown>) => logs.push({ level: 'info', message, data, at: Date.now() }),
    warn: (message: string, data?: Record<string, unknown>) => logs.push({ level: 'warn', message, data, at: Date.now() }),
    error: (message: string, data?: Record<string, unknown>) => logs.push({ level: 'error', message, data, at: Date.now() }),
  };
  const key = 'key' in opts ? opts.key : KEY;
  const client = createGateway({
    settings: () => settings,
    apiKey: () => key,
    ledger,
    logger,
    tuning: { backoffBaseMs: 5, backoffMaxMs: 40, rateLimitDefaultWaitMs: 20, coolDownJitterMs: 5, ...(opts.tuning ?? {}) },
  });
  return {
    gw,
    client,
    ledger,
    settings,
    logs,
    async close() {
      client.dispose();
      await gw.close();
      // Whatever a test did, the key never reaches the logs.
      const text = JSON.stringify(logs);
      if (key && text.includes(key.slice(3))) throw new Error('the API key appeared in the gateway logs');
    },
  };
}

export function ask(model: string, content = 'Review this code.', extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model, messages: [{ role: 'system', content: 'You are a reviewer.' }, { role: 'user', content }], ...extra };
}

/** Drains a stream: the deltas and the final result, or the error it threw. */
export async function drain(
  gen: AsyncGenerator<string, StreamResult, void>,
): Promise<{ deltas: string[]; result?: StreamResult; error?: unknown }> {
  const deltas: string[] = [];
  try {
    for (;;) {
      const n = await gen.next();
      if (n.done) return { deltas, result: n.value };
      deltas.push(n.value);
    }
  } catch (error) {
    return { deltas, error };
  }
}
