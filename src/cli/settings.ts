import { splitModelOverrides } from '../core/agents/roles';
import { parseSettings } from '../core/settings/parse';
import type { VerifyMode } from '../core/settings/schema';

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
