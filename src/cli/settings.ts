import { parseSettings } from '../core/settings/parse';

/** The settings a command line makes (`quorum review` and `quorum eval`): the gateway, and the limits its flags set. */
export function cliSettings(args: { maxConcurrency?: number | undefined; timeout?: number | undefined }, baseUrl: string): ReturnType<typeof parseSettings> {
  const defaults = parseSettings({}).settings.limits;
  return parseSettings({
    gateway: { baseUrl },
    limits: {
      ...(args.maxConcurrency !== undefined ? { maxConcurrent: args.maxConcurrency } : {}),
      ...(args.timeout !== undefined ? { deadlineSeconds: args.timeout, idleTimeoutSeconds: Math.min(defaults.idleTimeoutSeconds, args.timeout) } : {}),
    },
  });
}
