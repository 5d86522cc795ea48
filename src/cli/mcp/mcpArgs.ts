import { checked, readFlags, type FlagKinds } from '../flags';
import { modelFlags, sharedFlags, type ModelFlags } from '../options';

/** `quorum mcp [options]`: the gateway, cache and context flags `quorum review` has too, read by the same reader. */

export interface McpArgs extends ModelFlags {
  baseUrl?: string;
  language?: string;
  noRules: boolean;
  context: boolean;
  contextTokens?: number;
  noCache: boolean;
  cacheDir?: string;
  cacheTtl: number;
  maxConcurrency?: number;
  timeout?: number;
}

const MCP_FLAGS: FlagKinds = {
  'base-url': 'value', model: 'list', language: 'value', 'no-rules': 'switch', context: 'value', 'context-tokens': 'value',
  'no-cache': 'switch', 'cache-dir': 'value', 'cache-ttl': 'value', 'max-concurrency': 'value', timeout: 'value',
};

const schema = sharedFlags.pick({ baseUrl: true, model: true, language: true, noRules: true, context: true, contextTokens: true, noCache: true, cacheDir: true, cacheTtl: true, maxConcurrency: true, timeout: true });

/** The options after `quorum mcp`; a flag of `quorum review` that a server does not take is a usage error. */
export function parseMcpArgs(argv: readonly string[]): McpArgs {
  const { values } = readFlags(argv, MCP_FLAGS, { command: 'mcp', positional: (word) => `quorum mcp takes no "${word}"` });
  const { model, ...a } = checked(schema, values);
  return { ...a, ...modelFlags(model) };
}
