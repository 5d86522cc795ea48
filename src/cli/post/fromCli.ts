import { reviewComplete, type NoiseSplit, type ReviewSummary } from '../../core/domain/result';
import type { Region } from '../../core/domain/target';
import { EXIT } from '../exit';
import type { CliReview } from '../reviewSteps';
import { GithubHost } from './github/host';
import { GitlabHost } from './gitlab/host';
import type { ReviewHost } from './host';
import { postReview } from './post';
import type { PostTarget } from './target';
import { recordThreads } from '../../core/outcomes/observe';
import type { ThreadResolution } from '../../core/outcomes/decide';

function hostOf(target: PostTarget, version: string, log: (line: string) => void): ReviewHost {
  return target.host === 'github' ? new GithubHost(target.github, version, log) : new GitlabHost(target.gitlab, version, log);
}

/**
 * The CLI's hook for `--post github|gitlab`, called once the review is printed: posts the findings the noise
 * controls showed (fingerprinted on the reviewed regions as read, before redaction) and returns the exit code
 * (the review's, or 3 when the host refused the post).
 */
export async function postFromCli(r: CliReview, target: PostTarget, { summary, noise, regions }: { summary: ReviewSummary; noise: NoiseSplit; regions: readonly Region[] }, code: number): Promise<number> {
  // Progress lines go through the CLI's scrub, which removes the host's token as well as the gateway key.
  const log = (line: string) => r.progress.line(line);
  const host = hostOf(target, r.io.version, log);
  const recorder = r.outcomes;
  if (r.io.signal.aborted) {
    log(`interrupted: nothing posted to ${host.nouns.host}`);
    return code;
  }
  const posted = await postReview({
    host,
    root: r.root ?? r.io.cwd ?? process.cwd(),
    base: r.args.changes?.ref ?? '',
    summary,
    shown: noise.shown,
    dismissed: noise.hidden.filter((h) => h.reason === 'dismissed').length,
    hidden: noise.hidden.filter((h) => h.reason !== 'dismissed').length,
    regions,
    // Every reviewer answered (a verifier that failed leaves the findings as raised, so they are still complete).
    complete: reviewComplete(summary),
    log,
    // What became of the findings: a thread resolved by this push is addressed, one a person resolved dismissed (core/outcomes).
    ...(recorder ? { onThreads: (threads: ThreadResolution[]) => void recordThreads(recorder, threads) } : {}),
  });
  if (!posted.ok) return r.fail(posted.problem, EXIT.agentFailed);
  log(posted.line);
  return code;
}
