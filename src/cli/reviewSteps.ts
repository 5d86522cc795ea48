import { type Region, type ReviewTarget, targetInfo } from '../core/domain/target';
import { contextIndexLine, contextLine } from '../core/report/contextLine';
import { toolsLine } from '../core/report/toolsLine';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { scrubStrings, type Redaction } from '../core/redaction/redactor';
import type { DiskCache } from '../core/pipeline/diskCache';
import { readDismissed } from '../core/memory/dismissed';
import type { ReviewPipeline } from '../core/pipeline/pipeline';
import type { NoiseSettings, PlannedReview, ReviewConfirm, ReviewDecision, ReviewRequest, ReviewResult } from '../core/review/reviewRequest';
import { runReview } from '../core/review/runReview';
import type { QuorumSettings } from '../core/settings/schema';
import { formatUsd } from '../shared/format';
import { errorCode } from '../shared/guards';
import { lineLabel } from '../shared/lineLabel';
import { renderWhatWillBeSent } from '../shared/whatWillBeSent';
import type { ReviewArgs } from './args';
import { EXIT, exitCodeOf, type CliIo } from './exit';
import type { ProgressReporter } from './progress';
import { renderReport, renderStepSummary } from '../core/report/render';
import { cliReportContext } from './reports';
import { postFromCli } from './post/fromCli';
import type { PostTarget } from './post/target';
import type { OutcomeRecorder } from '../core/outcomes/observe';

/**
 * `quorum review` once the target is read: the review use case (core's runReview) with the command line's
 * confirm (the dry run, the plan said aloud on stderr), its progress, and its output (formats, --output, the
 * step summary, the exit code).
 */

/** What the steps share: the command line, the settings, the pipeline and where output goes. */
export interface CliReview {
  io: CliIo;
  args: ReviewArgs;
  settings: QuorumSettings;
  baseUrl: string;
  scrub: (text: string) => string;
  fail: (message: string, code?: number) => number;
  /** The repository root, when there is one. */
  root: string | undefined;
  pipeline: ReviewPipeline;
  progress: ProgressReporter;
  cache: DiskCache | undefined;
  /** `--post github|gitlab`: where the review is posted once printed. */
  post?: PostTarget;
  /** Where what became of each finding is kept (core/outcomes); the review request carries it too. */
  outcomes?: OutcomeRecorder;
}

/** `aws-access-key-id (line 3), private-key (lines 10–35)`: kinds and lines, never values. */
function describeRedactions(redactions: readonly Redaction[]): string {
  return redactions.map((r) => `${r.file ? `${r.file}: ` : ''}${r.kind} (${lineLabel(r.line, r.endLine)})`).join(', ');
}

/** What context goes out (and whether the time budget cut it), and what the index read and parsed for it. */
function sayContext(r: CliReview, target: ReviewTarget): void {
  const info = targetInfo(target);
  for (const line of [contextLine(info, target.contextCut), contextIndexLine(info), toolsLine(target, 0)]) if (line) r.progress.line(line);
}

/** The plan said on stderr before anything is sent: rules, redactions, skipped files, what is reviewed and its estimate. */
function sayPlan(r: CliReview, plan: PlannedReview): void {
  const { progress } = r;
  const { estimate, rules, changes, shaped } = plan;
  const target = shaped.target;
  if (rules.used.length > 0) progress.line(`repository rules: ${rules.used.join(', ')}`);
  if (!changes && rules.dropped.length > 0) progress.line(`rules left out (over quorum.rules.maxTokens = ${r.settings.rules.maxTokens} tokens): ${rules.dropped.join(', ')}`);
  if (shaped.redactions.length > 0) progress.line(`redacted before sending: ${describeRedactions(shaped.redactions)}`);
  sayContext(r, shaped.target);
  const estimated = `via ${new URL(r.baseUrl).host}; estimated ≈ ${formatUsd(estimate.likelyUsd)} likely, up to ${formatUsd(estimate.costUsd)}`;
  if (changes) {
    const skipped = target.skipped ?? [];
    for (const k of skipped) progress.line(`skipped ${k.file}: ${k.reason}`);
    const n = changes.batches.length;
    const reused = plan.reused ?? 0;
    if (reused > 0) progress.line(`${reused} of ${target.regions.length} region${target.regions.length === 1 ? '' : 's'} unchanged since the last review on this machine: their findings are carried over at $0`);
    if (n === 0) progress.line(`nothing to send ${estimated}`);
    else progress.line(`reviewing ${target.label}: ${changes.files} file${changes.files === 1 ? '' : 's'}, +${changes.added} -${changes.removed}, ${skipped.length} skipped, in ${n} request${n === 1 ? '' : 's'} per agent with ${estimate.order.join(', ')} ${estimated}`);
  } else {
    progress.line(`reviewing ${target.label} with ${estimate.order.join(', ')} ${estimated}`);
  }
  for (const [agent, e] of Object.entries(estimate.perAgent)) {
    if (!e.tooLarge) continue;
    const what = changes ? 'a request' : 'the prompt';
    progress.line(`[${agent}] ${what} (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window${changes ? '; lower quorum.changes.batchTokens' : ''}`);
  }
}

/** The command line's confirm: `--dry-run` prints what would be sent and stops; otherwise the plan is said and runs. */
function cliConfirm(r: CliReview): ReviewConfirm {
  return {
    planned: (plan): ReviewDecision => {
      if (r.args.dryRun) {
        // What context goes out (and whether the time budget cut it) is said as for a review that runs.
        sayContext(r, plan.shaped.target);
        r.io.stdout.write(renderWhatWillBeSent(scrubStrings(plan.whatWillBeSent(), r.scrub)) + '\n');
        return 'cancel';
      }
      sayPlan(r, plan);
      return 'proceed';
    },
  };
}

/** The noise controls of the command line: its flags, and the project's dismissed findings (a bad file is said and ignored). */
function cliNoise(r: CliReview): NoiseSettings {
  const { args, progress } = r;
  return {
    minConfidence: args.minConfidence,
    minSeverity: args.minSeverity,
    dismissed: async () => {
      const dismissed = await readDismissed(r.root ?? dirname(resolve(args.file)));
      if (!dismissed.ok) progress.line(`warning: ${dismissed.problem}; no finding is treated as dismissed`);
      return dismissed.entries;
    },
  };
}

/** Prints a finished review in the chosen format (and to --output), appends the step summary; the exit code. */
function finish(r: CliReview, result: Pick<ReviewResult, 'summary' | 'noise'>, interrupted: boolean, regions: readonly Region[]): number | Promise<number> {
  const { io, args, progress } = r;
  // The key goes from the summary's strings before any format renders them (a document is never edited after).
  const { summary, noise } = scrubStrings({ summary: result.summary, noise: result.noise }, r.scrub);
  const report = cliReportContext({ version: io.version, root: r.root ?? resolve(io.cwd ?? process.cwd()), noise: { split: noise, showHidden: args.showHidden } });
  // Hidden and dismissed findings never trigger --fail-on.
  const code = exitCodeOf({ ...summary, findings: noise.shown }, args.failOn, interrupted);
  const stepSummary = io.env.GITHUB_STEP_SUMMARY?.trim();
  if (stepSummary) {
    try {
      appendFileSync(stepSummary, renderStepSummary(summary, report));
    } catch (e) {
      progress.line(`could not append to GITHUB_STEP_SUMMARY: ${errorCode(e) ?? String(e)}`);
    }
  }
  if (args.output === undefined) {
    io.stdout.write(renderReport(summary, args.format, report));
  } else {
    io.stdout.write(renderReport(summary, 'text', report));
    try {
      mkdirSync(dirname(resolve(args.output)), { recursive: true });
      writeFileSync(args.output, renderReport(summary, args.format, report));
    } catch (e) {
      return r.fail(`cannot write --output ${args.output}: ${errorCode(e) ?? String(e)}`);
    }
  }
  return r.post ? postFromCli(r, r.post, { summary, noise, regions }, code) : code;
}

/**
 * Runs the review of `request` (its work, prompt context and options) and prints it: nothing to review (exit 0,
 * the same document with empty lists), a dry run (exit 0), or the review.
 */
export async function reviewAndPrint(r: CliReview, request: Omit<ReviewRequest, 'confirm' | 'noise' | 'onEvent' | 'dryRun'>): Promise<number> {
  const { args, progress } = r;
  const outcome = await runReview(r.pipeline, {
    ...request,
    dryRun: args.dryRun,
    confirm: cliConfirm(r),
    onEvent: progress.onEvent,
    noise: cliNoise(r),
  });
  switch (outcome.status) {
    case 'excluded':
      return r.fail(`${outcome.file} is never sent to a gateway: it matches "${outcome.rule.pattern}" in ${outcome.rule.source}`);
    case 'declined':
      return EXIT.ok;
    case 'nothing': {
      const skipped = outcome.work.shaped.target.skipped ?? [];
      progress.line(`nothing to review${skipped.length > 0 ? ` (${skipped.length} skipped: ${skipped.map((k) => `${k.file} ${k.reason}`).join(', ')})` : ''}`);
      return args.dryRun ? EXIT.ok : finish(r, outcome, false, request.work.target.regions);
    }
    case 'reviewed': {
      progress.close();
      const resolved = outcome.summary.resolved?.length ?? 0;
      if (resolved > 0) progress.line(`${resolved} finding${resolved === 1 ? '' : 's'} of the last review resolved`);
      if (r.cache && r.cache.stats.writeErrors > 0) progress.line(`could not write ${r.cache.stats.writeErrors} answer(s) to the cache in ${r.cache.folder}; the review is not affected`);
      const interrupted = r.io.signal.aborted;
      if (interrupted) progress.line('interrupted; printing what finished');
      return finish(r, outcome, interrupted, request.work.target.regions);
    }
  }
}
