import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChangesPlan } from '../core/changes/plan';
import { estimateChanges, runChanges } from '../core/changes/review';
import { whatWillBeSent } from '../core/prompt/dryRun';
import { scrubStrings, type Redaction } from '../core/redaction/redactor';
import { rulesReport, type RulesOff, type ShapedReview } from '../core/prompt/shape';
import type { DiskCache } from '../core/review/diskCache';
import { readDismissed } from '../core/review/dismissed';
import { splitByNoise } from '../core/review/noise';
import { RegionMemory, reviewVersion, reviewWithMemory } from '../core/review/regionMemory';
import type { ReviewPipeline } from '../core/review/pipeline';
import { targetInfo } from '../core/review/target';
import { zeroTotals } from '../core/review/totals';
import type { ReviewOptions, ReviewSummary, ReviewTarget } from '../core/review/types';
import type { QuorumSettings } from '../core/settings/schema';
import { formatUsd } from '../shared/format';
import { errorCode } from '../shared/guards';
import { renderWhatWillBeSent } from '../shared/whatWillBeSent';
import type { ReviewArgs } from './args';
import { EXIT, exitCodeOf, type CliIo } from './exit';
import type { ProgressReporter } from './progress';
import { renderReport, renderStepSummary, type ReportContext } from './reports';

/** The steps of `quorum review` once the target is read and shaped: dry run, estimate, run, print. */

/** What the steps share: the command line, the settings, the shaped target, the pipeline and where output goes. */
export interface CliReview {
  io: CliIo;
  args: ReviewArgs;
  settings: QuorumSettings;
  baseUrl: string;
  scrub: (text: string) => string;
  fail: (message: string, code?: number) => number;
  /** The repository root, when there is one. */
  root: string | undefined;
  rulesOff: RulesOff | undefined;
  shaped: ShapedReview;
  /** The target as read, before shaping (dismissed findings are matched against its text). */
  original: ReviewTarget;
  pipeline: ReviewPipeline;
  progress: ProgressReporter;
  options: ReviewOptions;
  cache: DiskCache | undefined;
  /** Never written to files the CLI keeps (the key, secrets of the base URL). */
  secrets: string[];
}

/** `aws-access-key-id (line 3), private-key (lines 10-35)`: kinds and lines, never values. */
function describeRedactions(redactions: readonly Redaction[]): string {
  return redactions.map((r) => `${r.file ? `${r.file}: ` : ''}${r.kind} (${r.line === r.endLine ? `line ${r.line}` : `lines ${r.line}-${r.endLine}`})`).join(', ');
}

/** `--dry-run`: what would be sent for `target` (a review of changes: each of its `batches`), printed; nothing is sent. */
function printWhatWillBeSent(r: CliReview, target: ReviewTarget, batches?: readonly ReviewTarget[]): void {
  const data = whatWillBeSent(r.pipeline, { ...r.shaped, target }, r.options, { baseUrl: r.baseUrl, redactSecrets: r.settings.privacy.redactSecrets, ...(r.rulesOff ? { rulesOff: r.rulesOff } : {}) }, batches);
  r.io.stdout.write(renderWhatWillBeSent(scrubStrings(data, r.scrub)) + '\n');
}

/** Prints a finished review in the chosen format (and to --output), appends the step summary; the exit code. */
async function finish(r: CliReview, finished: ReviewSummary, interrupted: boolean): Promise<number> {
  const { io, args, progress } = r;
  // The key goes from the summary's strings before any format renders them (a document is never edited after).
  const summary = scrubStrings(finished, r.scrub);
  const dismissed = await readDismissed(r.root ?? dirname(resolve(args.file)));
  if (!dismissed.ok) progress.line(`warning: ${dismissed.problem}; no finding is treated as dismissed`);
  const noise = splitByNoise(summary.findings, { minConfidence: args.minConfidence, minSeverity: args.minSeverity, dismissed: { entries: dismissed.entries, regions: r.original.regions } });
  const report: ReportContext = { version: io.version, root: r.root ?? resolve(io.cwd ?? process.cwd()), noise: { split: noise, showHidden: args.showHidden } };
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
    return code;
  }
  io.stdout.write(renderReport(summary, 'text', report));
  try {
    mkdirSync(dirname(resolve(args.output)), { recursive: true });
    writeFileSync(args.output, renderReport(summary, args.format, report));
  } catch (e) {
    return r.fail(`cannot write --output ${args.output}: ${errorCode(e) ?? String(e)}`);
  }
  return code;
}

/** The end of a run: the progress closed, an interruption said, the review printed. */
function finishRun(r: CliReview, summary: ReviewSummary): Promise<number> {
  r.progress.close();
  if (r.cache && r.cache.stats.writeErrors > 0) r.progress.line(`could not write ${r.cache.stats.writeErrors} answer(s) to the cache in ${r.cache.folder}; the review is not affected`);
  const interrupted = r.io.signal.aborted;
  if (interrupted) r.progress.line('interrupted; printing what finished');
  return finish(r, summary, interrupted);
}

/** `--changes`: nothing to review (exit 0, the same document with empty lists), or every batch under one summary. */
export async function reviewChanges(r: CliReview, plan: ChangesPlan): Promise<number> {
  const { progress, options, args } = r;
  const skipped = plan.target.skipped ?? [];
  if (plan.batches.length === 0) {
    progress.line(`nothing to review${skipped.length > 0 ? ` (${skipped.length} skipped: ${skipped.map((k) => `${k.file} ${k.reason}`).join(', ')})` : ''}`);
    if (args.dryRun) return EXIT.ok;
    const empty: ReviewSummary = { reviewId: 'none', target: targetInfo(plan.target), agents: [], findings: [], totals: zeroTotals(), cancelled: false, elapsedMs: 0 };
    return finish(r, empty, false);
  }
  if (args.dryRun) {
    printWhatWillBeSent(r, plan.target, plan.batches);
    return EXIT.ok;
  }
  // A re-review on this machine (the same cache folder) sends only the regions whose content changed.
  const memory = r.cache && r.root ? new RegionMemory({ dir: dirname(r.cache.folder), root: r.root, secrets: r.secrets }) : undefined;
  if (!memory) return finishRun(r, await runPlanned(r, plan));
  const summary = await reviewWithMemory(memory, plan, reviewVersion(r.settings, options), (rest) => {
    const reused = plan.target.regions.length - rest.batches.reduce((n, b) => n + b.regions.length, 0);
    if (reused > 0) progress.line(`${reused} of ${plan.target.regions.length} regions unchanged since the last review on this machine: their findings are carried over at $0`);
    return runPlanned(r, rest);
  }, (rest) => {
    progress.line(`all ${plan.target.regions.length} regions unchanged since the last review on this machine: their findings are carried over at $0`);
    return { reviewId: 'carried', target: targetInfo(rest.target), agents: [], findings: [], totals: zeroTotals(), cancelled: false, elapsedMs: 0 };
  });
  if ((summary.resolved?.length ?? 0) > 0) progress.line(`${summary.resolved?.length ?? 0} finding(s) of the last review resolved`);
  return finishRun(r, summary);
}

/** Estimates a changes plan aloud, then runs it: the summary. */
async function runPlanned(r: CliReview, plan: ChangesPlan): Promise<ReviewSummary> {
  const { pipeline, progress, options, shaped } = r;
  const skipped = plan.target.skipped ?? [];
  let planned = estimateChanges(pipeline, plan, options);
  // A model the price table does not know may be priced in the gateway's /models list.
  if (planned.batches[0] && (await pipeline.learnPrices(planned.batches[0]))) planned = estimateChanges(pipeline, plan, options);
  const { estimate } = planned;
  const rules = rulesReport(shaped.prompt, estimate.order);
  if (rules.used.length > 0) progress.line(`repository rules: ${rules.used.join(', ')}`);
  if (shaped.redactions.length > 0) progress.line(`redacted before sending: ${describeRedactions(shaped.redactions)}`);
  for (const k of skipped) progress.line(`skipped ${k.file}: ${k.reason}`);
  progress.line(
    `reviewing ${plan.target.label}: ${plan.files} file${plan.files === 1 ? '' : 's'}, +${plan.added} -${plan.removed}, ${skipped.length} skipped, in ${plan.batches.length} request${plan.batches.length === 1 ? '' : 's'} per agent with ${estimate.order.join(', ')} via ${new URL(r.baseUrl).host}; estimated ≈ ${formatUsd(estimate.likelyUsd)} likely, up to ${formatUsd(estimate.costUsd)}`,
  );
  for (const [agent, e] of Object.entries(estimate.perAgent)) {
    if (e.tooLarge) progress.line(`[${agent}] a request (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window; lower quorum.changes.batchTokens`);
  }
  return runChanges(pipeline, planned, progress.onEvent);
}

/** A file or its lines: planned once, estimated aloud, run, printed. */
export async function reviewTarget(r: CliReview, target: ReviewTarget): Promise<number> {
  const { pipeline, progress, options, shaped } = r;
  if (r.args.dryRun) {
    printWhatWillBeSent(r, target);
    return EXIT.ok;
  }
  let planned = pipeline.estimate(target, options);
  if (await pipeline.learnPrices(planned)) planned = pipeline.estimate(target, options);
  const { estimate } = planned;
  const rules = rulesReport(shaped.prompt, estimate.order);
  if (rules.used.length > 0) progress.line(`repository rules: ${rules.used.join(', ')}`);
  if (rules.dropped.length > 0) progress.line(`rules left out (over quorum.rules.maxTokens = ${r.settings.rules.maxTokens} tokens): ${rules.dropped.join(', ')}`);
  if (shaped.redactions.length > 0) progress.line(`redacted before sending: ${describeRedactions(shaped.redactions)}`);
  progress.line(`reviewing ${target.label} with ${estimate.order.join(', ')} via ${new URL(r.baseUrl).host}; estimated ≈ ${formatUsd(estimate.likelyUsd)} likely, up to ${formatUsd(estimate.costUsd)}`);
  for (const [agent, e] of Object.entries(estimate.perAgent)) {
    if (e.tooLarge) progress.line(`[${agent}] the prompt (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window`);
  }
  return finishRun(r, await pipeline.run(planned, progress.onEvent));
}
