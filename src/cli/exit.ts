import type { FailOn } from './args';
import type { ProgressStream } from './progress';
import { graphResults, type ReviewSummary } from '../core/domain/result';
import { atLeast } from '../shared/severity';
import { isLoopbackUrl } from '../core/gateway/baseUrl';

/** The CLI's exit codes and its input and output streams. */

export const EXIT = { ok: 0, findings: 1, usage: 2, agentFailed: 3, interrupted: 130 } as const;

export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  stdout: ProgressStream;
  stderr: ProgressStream;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  version: string;
  /** Working directory for relative paths (default: the process's). */
  cwd?: string;
}

/** True when a finding is at or above the `--fail-on` severity. */
function failsOn(summary: ReviewSummary, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  return summary.findings.some((f) => atLeast(f.severity, failOn));
}

/** Failures that stop every review until someone acts (a key, a plan): CI must see them whatever --fail-on says. */
const ACCOUNT_FAILURES: ReadonlySet<string> = new Set(['auth', 'forbidden', 'quota']);

/**
 * The exit code of a finished review: interrupted; then an agent refused for the key or the quota (3, before
 * findings: a fleet whose key stopped working must not look like a review that found something, nor pass);
 * then a finding at the threshold (1); then any other failed agent (3).
 */
export function exitCodeOf(summary: ReviewSummary, failOn: FailOn, interrupted: boolean): number {
  if (interrupted) return EXIT.interrupted;
  if (summary.agents.some((a) => a.status === 'error' && a.error !== undefined && ACCOUNT_FAILURES.has(a.error.code))) return EXIT.agentFailed;
  if (failsOn(summary, failOn)) return EXIT.findings;
  // A verifier that failed left the findings unverified: the review itself succeeded.
  if (graphResults(summary.agents).some((a) => a.status === 'error')) return EXIT.agentFailed;
  return EXIT.ok;
}


/** What the missing-key message adds for a gateway on this machine that asked for a key. */
export function missingKeyNote(baseUrl: string): string {
  return isLoopbackUrl(baseUrl) ? ' (the gateway on this machine answers 401 without one)' : '';
}
