/** Which agent is which: the verifier apart from the reviewers and the coder. */

export const VERIFIER_ID = 'verifier';
export const VERIFIER_TITLE = 'Verifier';
/** The reviewing agents' results: all but the verifier's (a failed verifier leaves the findings as raised, unverified). */
export function reviewerResults<T extends { agent: string }>(results: readonly T[]): T[] {
  return results.filter((r) => r.agent !== VERIFIER_ID);
}

/** `--model agent=model` overrides apart: the reviewers' (agents of the DAG) and the verifier's model (a setting). */
export function splitModelOverrides(models: Readonly<Record<string, string>> | undefined): { agents: Record<string, string>; verifier: string | undefined } {
  const agents = Object.fromEntries(Object.entries(models ?? {}).filter(([agent]) => agent !== VERIFIER_ID));
  return { agents, verifier: models?.[VERIFIER_ID] };
}
