import * as z from 'zod';
import { normalizeLanguage } from '../core/agents/language';
import { agentIdSchema, modelIdSchema, VERIFY_MODES } from '../core/settings/schema';
import { builtinRole } from '../shared/builtinAgents';
import { byAgent } from './flags';

/**
 * The flags more than one command takes (`quorum review`, `eval`, `mcp`, `doctor`, `stats`), each declared once
 * with its checks and its messages. Keys are the flags in camelCase, as `readFlags` gives them.
 */

/** The CLI's disk cache serves answers for 7 days unless told otherwise. */
export const DEFAULT_CACHE_TTL_MINUTES = 7 * 24 * 60;

/** `agent=value`, split at the first `=`. */
export function agentPair(flag: string) {
  return z
    .string()
    .regex(/^[^=]+=[^=]+$/, `${flag} takes agent=model`)
    .transform((s): [string, string] => {
      const i = s.indexOf('=');
      return [s.slice(0, i).trim(), s.slice(i + 1).trim()];
    });
}

/** A whole number of at least `min`, at most `max`; `what` says what it counts in the message for a non-number. */
function count(flag: string, what: string, min: number, max: number) {
  return z.coerce.number({ error: `${flag} takes ${what}` }).int(`${flag} takes a whole number`).min(min, `${flag} is at least ${min}`).max(max, `${flag} is at most ${max}`);
}

export const sharedFlags = z.object({
  baseUrl: z
    .url({ error: '--base-url must be a URL' })
    .refine((u) => /^https?:\/\//i.test(u), '--base-url must start with http:// or https://')
    .optional(),
  language: z
    .string()
    .refine((s) => s.trim().toLowerCase() === 'auto' || normalizeLanguage(s) !== undefined, '--language takes a code such as en or ko')
    .optional(),
  agents: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(agentIdSchema).min(1, '--agents needs at least one agent id'))
    .optional(),
  /** `--model agent=model`, repeatable: see `modelFlags`. */
  model: z.array(agentPair('--model').pipe(z.tuple([agentIdSchema, modelIdSchema]))).default([]),
  output: z.string().trim().min(1, '--output needs a file').optional(),
  noCache: z.boolean().default(false),
  noRules: z.boolean().default(false),
  cacheDir: z.string().trim().min(1, '--cache-dir needs a folder').optional(),
  cacheTtl: z.coerce
    .number({ error: '--cache-ttl takes a number of minutes' })
    .min(0, '--cache-ttl is at least 0')
    .max(525_600, '--cache-ttl is at most 525600 minutes (a year)')
    .default(DEFAULT_CACHE_TTL_MINUTES),
  maxConcurrency: count('--max-concurrency', 'a number', 1, 64).optional(),
  timeout: z.coerce.number({ error: '--timeout takes a number of seconds' }).min(1, '--timeout is at least 1 second').max(7200, '--timeout is at most 7200 seconds').optional(),
  verify: z.enum(VERIFY_MODES, { error: `--verify is one of ${VERIFY_MODES.join(', ')}` }).optional(),
  context: z
    .enum(['on', 'off'], { error: '--context is on or off' })
    .default('on')
    .transform((v) => v === 'on'),
  contextTokens: count('--context-tokens', 'a number', 0, 50_000).optional(),
  repo: z.string().trim().min(1, '--repo needs a folder').optional(),
});

/** `--flag a|b|c`: one of `values`, or `message`. */
export function oneOf<const T extends readonly string[]>(values: T, message: string) {
  return z.enum(values, { error: message });
}

/** The models `--model` gives: the graph's agents' (a review's overrides) apart from the verifier's (a setting). */
export interface ModelFlags {
  models: Record<string, string>;
  /** `--model verifier=…`: the verifier's model (quorum.agents.verifier.model). */
  verifierModel?: string;
}

/** `--model` pairs by agent (an agent twice is a `UsageError`), the verifier's apart: its role says it is not of the graph. */
export function modelFlags(pairs: readonly (readonly [string, string])[]): ModelFlags {
  const all = byAgent('--model', pairs);
  const verifier = Object.keys(all).find((agent) => builtinRole(agent) === 'verifier');
  const models = Object.fromEntries(Object.entries(all).filter(([agent]) => agent !== verifier));
  return { models, ...(verifier !== undefined ? { verifierModel: all[verifier] } : {}) };
}
