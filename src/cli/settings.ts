import { builtinRole } from '../shared/builtinAgents';
import { parseSettings } from '../core/settings/parse';
import type { VerifyMode } from '../core/settings/schema';

/** `--model agent=model` apart: the graph's agents' models (a review's overrides) and the verifier's (a setting). */
export function splitModelOverrides(models: Readonly<Record<string, string>> | undefined): { agents: Record<string, string>; verifier: string | undefined } {
  const entries = Object.entries(models ?? {});
  const verifier = entries.find(([agent]) => builtinRole(agent) === 'verifier')?.[1];
  return { agents: Object.fromEntries(entries.filter(([agent]) => builtinRole(agent) !== 'verifier')), verifier };
}

/** The settings a command line makes (`quorum review` and `quorum eval`): the gateway, and the limits its flags set. */
export function cliSettings(args: { maxConcurrency?: number | undefined; timeout?: number | undefined; verify?: VerifyMode | undefined; models?: Readonly<Record<string, string>> }, baseUrl: string): ReturnType<typeof parseSettings> {
  const defaults = parseSettings({}).settings.limits;
  const verifierModel = splitModelOverrides(args.models).verifier;
  return parseSettings({
    gateway: { baseUrl },
    ...(args.verify !== undefined ? { review: { verify: args.verify } } : {}),
    ...(verifierModel !== undefined ? { agents: { verifier: { model: verifierModel } } } : {}),
    limits: {
      ...(args.maxConcurrency !== undefined ? { maxConcurrent: args.maxConcurrency } : {}),
      ...(args.timeout !== undefined ? { deadlineSeconds: args.timeout, idleTimeoutSeconds: Math.min(defaults.idleTimeoutSeconds, args.timeout) } : {}),
    },
  });
}
