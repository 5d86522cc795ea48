import { reviewerResults } from '../../core/agents/verifier';
import type { NoiseSplit } from '../../core/review/noise';
import type { Region, ReviewSummary } from '../../core/review/types';
import { EXIT } from '../exit';
import type { CliReview } from '../reviewSteps';
import { postToGithub } from './post';
import type { GithubTarget } from './target';
import { recordThreads } from '../../core/outcomes/observe';
import type { ThreadResolution } from '../../core/outcomes/decide';

/**
 * The CLI's hook for `--post github`, called once the review is printed: posts the findings the noise controls
 * showed (fingerprinted on the reviewed regions as read, before redaction) and returns the exit code (the review's, or 3 when GitHub refused the post).
 */
export async function postFromCli(r: CliReview, github: GithubTarget, { summary, noise, regions }: { summary: ReviewSummary; noise: NoiseSplit; regions: readonly Region[] }, code: number): Promise<number> {
  if (r.io.signal.aborted) {
    r.progress.line('interrupted: nothing posted to GitHub');
    return code;
  }
  // Progress lines go through the CLI's scrub, which removes the GitHub token as well as the gateway key.
  const log = (line: string) => r.progress.line(line);
  const recorder = r.outcomes;
  const posted = await postToGithub({
    target: github,
    root: r.root ?? r.io.cwd ?? process.cwd(),
    base: r.args.changes?.ref ?? '',
    summary,
    shown: noise.shown,
    dismissed: noise.hidden.filter((h) => h.reason === 'dismissed').length,
    hidden: noise.hidden.filter((h) => h.reason !== 'dismissed').length,
    regions,
    version: r.io.version,
    // Every reviewer answered (a verifier that failed leaves the findings as raised, so they are still complete).
    complete: !summary.cancelled && reviewerResults(summary.agents).every((a) => a.status === 'ok'),
    log,
    // What became of the findings: a thread resolved by this push is addressed (core/outcomes).
    ...(recorder ? { onThreads: (threads: ThreadResolution[]) => void recordThreads(recorder, threads) } : {}),
  });
  if (!posted.ok) return r.fail(posted.problem, EXIT.agentFailed);
  log(posted.line);
  return code;
}
