import { parseSettings, type SettingsIssue } from '../core/settings/parse';
import { DEFAULT_BASE_URL, type QuorumSettings, type VerifyMode } from '../core/settings/schema';
import { UsageError } from './flags';

/** The flags of a command line that are settings (`quorum review`, `eval`, `mcp`, `doctor`). */
interface SettingsFlags {
  baseUrl?: string | undefined;
  maxConcurrency?: number | undefined;
  timeout?: number | undefined;
  verify?: VerifyMode | undefined;
  /** `--model verifier=…`. */
  verifierModel?: string | undefined;
}

interface CliSettings {
  settings: QuorumSettings;
  /** The gateway: `--base-url`, else $QUORUM_BASE_URL, else the default. */
  baseUrl: string;
  /** What was wrong with the settings besides the base URL (each fell back to its default). */
  issues: SettingsIssue[];
}

/** The gateway's URL: `--base-url`, else $QUORUM_BASE_URL, else the default. */
export function cliBaseUrl(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  return flag ?? (env.QUORUM_BASE_URL?.trim() || DEFAULT_BASE_URL);
}

/**
 * The settings a command line makes: the gateway, the limits its flags set, the verifier, and `models` as the
 * agents' configured models (doctor's `--model`). Throws `UsageError` when the base URL is not valid.
 */
export function cliSettings(args: SettingsFlags, env: Readonly<Record<string, string | undefined>>, models: Readonly<Record<string, string>> = {}): CliSettings {
  const baseUrl = cliBaseUrl(args.baseUrl, env);
  const defaults = parseSettings({}).settings.limits;
  const agents: Record<string, { model: string }> = Object.fromEntries(Object.entries(models).map(([agent, model]) => [agent, { model }]));
  if (args.verifierModel !== undefined) agents.verifier = { model: args.verifierModel };
  const { settings, issues } = parseSettings({
    gateway: { baseUrl },
    ...(args.verify !== undefined ? { review: { verify: args.verify } } : {}),
    ...(Object.keys(agents).length > 0 ? { agents } : {}),
    limits: {
      ...(args.maxConcurrency !== undefined ? { maxConcurrent: args.maxConcurrency } : {}),
      ...(args.timeout !== undefined ? { deadlineSeconds: args.timeout, idleTimeoutSeconds: Math.min(defaults.idleTimeoutSeconds, args.timeout) } : {}),
    },
  });
  const badUrl = issues.find((i) => i.path.startsWith('gateway.baseUrl'));
  if (badUrl) throw new UsageError(`the base URL "${baseUrl}" is not valid: ${badUrl.message}`);
  return { settings, baseUrl, issues };
}
