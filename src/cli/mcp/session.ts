import { languageFromLocale, resolveOutputLanguage } from '../../core/agents/language';
import type { CostLedger } from '../../core/cost/ledger';
import type { GatewayClient } from '../../core/gateway/client';
import type { DiskCache } from '../../core/pipeline/diskCache';
import type { ReviewPipeline } from '../../core/pipeline/pipeline';
import type { QuorumSettings } from '../../core/settings/schema';
import { scrubKey } from '../../core/redaction/redactor';
import { terminalText } from '../../shared/untrustedText';
import type { McpArgs } from './mcpArgs';
import { cliPipeline } from '../reviewSetup';
import { cliSettings } from '../settings';

/**
 * What every tool call of one `quorum mcp` process shares, built once from its flags and environment the way
 * `quorum review` builds them: the settings, ONE gateway client (its pacing and cool-downs span the calls), the
 * disk cache, the pipeline, the key (only ever in the Authorization header) and the scrubber that keeps it out of
 * everything the server says.
 */
export interface McpSession {
  readonly settings: QuorumSettings;
  readonly baseUrl: string;
  /** '' when QUORUM_API_KEY is not set: reviews are refused, estimates still work. */
  readonly key: string;
  readonly scrub: (text: string) => string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly language: string;
  readonly args: McpArgs;
  readonly pipeline: ReviewPipeline;
  readonly gateway: GatewayClient;
  readonly ledger: CostLedger;
  readonly cache: DiskCache | undefined;
  /** A line on stderr (the key scrubbed, control characters shown as text): the server's only log. */
  readonly log: (line: string) => void;
}

/** Throws `UsageError` when the gateway's URL is not valid. */
export function openSession(args: McpArgs, env: Readonly<Record<string, string | undefined>>, cwd: string, log: (line: string) => void): McpSession {
  const key = env.QUORUM_API_KEY?.trim() ?? '';
  const scrub = (text: string) => scrubKey(text, key || undefined);
  const { settings, baseUrl } = cliSettings(args, env);
  const { gateway, ledger, cache, pipeline } = cliPipeline(args, env, key, baseUrl, settings);
  const language = resolveOutputLanguage(args.language, languageFromLocale(env));
  return { settings, baseUrl, key, scrub, cwd, env, language, args, pipeline, gateway, ledger, cache, log: (line) => log(terminalText(scrub(line))) };
}
