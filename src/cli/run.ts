import { collectChanges } from '../core/changes/collect';
import { GitCliSource } from '../core/changes/gitCli';
import { planChanges, withShapedTarget, type ChangesPlan } from '../core/changes/plan';
import { estimateChanges, runChanges } from '../core/changes/review';
import { ChangesError } from '../core/changes/types';
import { targetInfo } from '../core/review/target';
import { zeroTotals } from '../core/review/totals';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { languageFromLocale, resolveOutputLanguage } from '../core/agents/language';
import { CostLedger } from '../core/cost/ledger';
import { ListedPrices } from '../core/cost/listedPrices';
import { createGateway } from '../core/gateway/client';
import { redact } from '../core/util/redact';
import { DiskCache, urlSecrets } from '../core/review/diskCache';
import { ReviewConfigError } from '../core/review/errors';
import { ReviewPipeline } from '../core/review/pipeline';
import { SEVERITIES, type ReviewSummary, type ReviewTarget } from '../core/review/types';
import { parseSettings } from '../core/settings/parse';
import { DEFAULT_BASE_URL } from '../core/settings/schema';
import { defaultCacheDir } from './cacheDir';
import { parseArgs, USAGE, UsageError, type FailOn, type ReviewArgs } from './args';
import { formatUsd } from '../shared/format';
import { renderReport, renderStepSummary, type ReportContext } from './reports';
import { ProgressReporter, type ProgressStream } from './progress';
import { readTarget } from './target';
import { EVAL_USAGE, parseEvalArgs, type EvalArgs } from './evalArgs';
import { runEvalCli } from './evalRun';
import { readDismissed } from '../core/review/dismissed';
import { splitByNoise } from '../core/review/noise';
import { findRepositoryRoot, relativeToRoot } from './repository';
import { nodeRepoFs } from '../core/prompt/repoFs';
import { loadPromptContext, rulesReport, shapeReview } from '../core/prompt/shape';
import { whatWillBeSent } from '../core/prompt/dryRun';
import { renderWhatWillBeSent } from '../shared/whatWillBeSent';
import type { Redaction } from '../core/prompt/secrets';
import { errorCode } from '../shared/guards';

export const EXIT = { ok: 0, findings: 1, usage: 2, agentFailed: 3, interrupted: 130 } as const;

interface CliIo {
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
  const limit = SEVERITIES.indexOf(failOn);
  return summary.findings.some((f) => SEVERITIES.indexOf(f.severity) <= limit);
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
  if (summary.agents.some((a) => a.status === 'error')) return EXIT.agentFailed;
  return EXIT.ok;
}

/** `quorum eval …`: help, usage errors (exit 2), or the eval itself. */
async function evalCommand(io: CliIo, key: string, scrub: (t: string) => string, fail: (message: string) => number): Promise<number> {
  const rest = io.argv.slice(1);
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout.write(EVAL_USAGE + '\n');
    return EXIT.ok;
  }
  let args: EvalArgs;
  try {
    args = parseEvalArgs(rest);
  } catch (e) {
    if (e instanceof UsageError) return fail(`${e.message} (see quorum eval --help)`);
    throw e;
  }
  if (!key) return fail('QUORUM_API_KEY is not set; export the gateway API key first');
  return runEvalCli(args, { env: io.env, stdout: io.stdout, stderr: io.stderr, signal: io.signal, cwd: io.cwd ?? process.cwd() }, key, scrub);
}

/** `aws-access-key-id (line 3), private-key (lines 10-35)`: kinds and lines, never values. */
function describeRedactions(redactions: readonly Redaction[]): string {
  return redactions.map((r) => `${r.file ? `${r.file}: ` : ''}${r.kind} (${r.line === r.endLine ? `line ${r.line}` : `lines ${r.line}-${r.endLine}`})`).join(', ');
}

/** `quorum …`: returns the exit code; writes the result to stdout and progress and errors to stderr. */
export async function runCli(io: CliIo): Promise<number> {
  const key = io.env.QUORUM_API_KEY?.trim() ?? '';
  const scrub = (text: string) => redact(text, key || undefined);
  const fail = (message: string, code: number = EXIT.usage) => {
    io.stderr.write(`quorum: ${scrub(message).replace(/\s*\n\s*/g, ' ')}\n`);
    return code;
  };

  if (io.argv[0] === 'eval') return evalCommand(io, key, scrub, fail);

  let args: ReviewArgs;
  try {
    const parsed = parseArgs(io.argv);
    if (parsed.command === 'help') {
      io.stdout.write(USAGE + '\n');
      return EXIT.ok;
    }
    if (parsed.command === 'version') {
      io.stdout.write(`quorum ${io.version}\n`);
      return EXIT.ok;
    }
    args = parsed;
  } catch (e) {
    if (e instanceof UsageError) return fail(`${e.message} (see quorum --help)`);
    throw e;
  }

  if (!key && !args.dryRun) return fail('QUORUM_API_KEY is not set; export the gateway API key first');
  const baseUrl = args.baseUrl ?? (io.env.QUORUM_BASE_URL?.trim() || DEFAULT_BASE_URL);
  const defaults = parseSettings({}).settings.limits;
  const { settings, issues } = parseSettings({
    gateway: { baseUrl },
    limits: {
      ...(args.maxConcurrency !== undefined ? { maxConcurrent: args.maxConcurrency } : {}),
      ...(args.timeout !== undefined ? { deadlineSeconds: args.timeout, idleTimeoutSeconds: Math.min(defaults.idleTimeoutSeconds, args.timeout) } : {}),
    },
  });
  const badUrl = issues.find((i) => i.path.startsWith('gateway.baseUrl'));
  if (badUrl) return fail(`the base URL "${baseUrl}" is not valid: ${badUrl.message}`);

  let target: ReviewTarget;
  let changes: ChangesPlan | undefined;
  let changesRoot: string | undefined;
  try {
    if (args.changes) {
      // The whole repository is reviewed, whatever folder of it the command runs from.
      const source = await GitCliSource.open(resolve(io.cwd ?? process.cwd(), args.repo ?? '.'));
      changesRoot = source.root;
      const set = await collectChanges(source, args.changes, { maxFileBytes: settings.changes.maxFileKb * 1024 });
      changes = planChanges(set, { contextLines: settings.changes.contextLines, batchTokens: settings.changes.batchTokens });
      target = changes.target;
    } else {
      target = await readTarget(args.file, args.lines);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ChangesError) return fail(e.message);
    throw e;
  }
  const language = resolveOutputLanguage(args.language, languageFromLocale(io.env));

  // The one prompt-shaping step: the repository's rules and agents, files never sent, secrets redacted.
  const root = changesRoot ?? findRepositoryRoot(args.file);
  const context = await loadPromptContext({ settings, fs: root ? nodeRepoFs(root) : undefined, trusted: true, useRules: !args.noRules });
  for (const issue of context.repository.issues) io.stderr.write(`quorum: warning: ${scrub(issue.message)}\n`);
  const shapedOutcome = await shapeReview(target, root && !changes ? relativeToRoot(root, args.file) : undefined, context);
  if (!shapedOutcome.ok) {
    const { rule } = shapedOutcome;
    return fail(`${shapedOutcome.file} is never sent to a gateway: it matches "${rule.pattern}" in ${rule.source}`);
  }
  const shaped = shapedOutcome.shaped;
  const original = target;
  target = shaped.target;
  if (changes) changes = withShapedTarget(changes, shaped.target);

  const listedPrices = new ListedPrices();
  const ledger = new CostLedger(() => settings.prices, () => listedPrices.for(settings.gateway.baseUrl));
  const gateway = createGateway({ settings: () => settings, apiKey: () => key, ledger, listedPrices });
  // The disk cache is shared by runs (and by CI jobs that keep the folder); --no-cache or a TTL of 0 leaves it alone.
  const cache = args.noCache || args.cacheTtl === 0
    ? undefined
    : new DiskCache({ dir: args.cacheDir ?? defaultCacheDir(io.env), secrets: [key, ...urlSecrets(baseUrl)] });
  const cacheTtlMs = args.cacheTtl * 60_000;
  const pipeline = new ReviewPipeline({ gateway, settings: () => settings, ...(cache ? { cache } : {}), cacheTtlMs: () => cacheTtlMs, ledger, listedPrices });
  const progress = new ProgressReporter({ write: (t: string) => io.stderr.write(scrub(t)), isTTY: io.stderr.isTTY === true });
  const options = {
    language,
    noCache: args.noCache,
    signal: io.signal,
    ...(args.agents ? { agents: args.agents } : {}),
    ...(Object.keys(args.models).length > 0 ? { modelOverrides: args.models } : {}),
    prompt: shaped.prompt,
    ...(args.allFindings || !settings.changes.onlyChangedLines ? { keepOutsideChanges: true } : {}),
  };
  /** Prints a finished review in the chosen format (and to --output), appends the step summary; the exit code. */
  const finish = async (summary: ReviewSummary, interrupted: boolean): Promise<number> => {
    const dismissed = await readDismissed(root ?? dirname(resolve(args.file)));
    if (!dismissed.ok) progress.line(`warning: ${dismissed.problem}; no finding is treated as dismissed`);
    const noise = splitByNoise(summary.findings, { minConfidence: args.minConfidence, minSeverity: args.minSeverity, dismissed: { entries: dismissed.entries, regions: original.regions } });
    const report: ReportContext = { version: io.version, root: root ?? resolve(io.cwd ?? process.cwd()), noise: { split: noise, showHidden: args.showHidden } };
    // Hidden and dismissed findings never trigger --fail-on.
    const code = exitCodeOf({ ...summary, findings: noise.shown }, args.failOn, interrupted);
    const stepSummary = io.env.GITHUB_STEP_SUMMARY?.trim();
    if (stepSummary) {
      try {
        appendFileSync(stepSummary, scrub(renderStepSummary(summary, report)));
      } catch (e) {
        progress.line(`could not append to GITHUB_STEP_SUMMARY: ${errorCode(e) ?? String(e)}`);
      }
    }
    if (args.output === undefined) {
      io.stdout.write(scrub(renderReport(summary, args.format, report)));
      return code;
    }
    io.stdout.write(scrub(renderReport(summary, 'text', report)));
    try {
      mkdirSync(dirname(resolve(args.output)), { recursive: true });
      writeFileSync(args.output, scrub(renderReport(summary, args.format, report)));
    } catch (e) {
      return fail(`cannot write --output ${args.output}: ${errorCode(e) ?? String(e)}`);
    }
    return code;
  };
  /** `--changes`: nothing to review (exit 0, the same document with empty lists), or every batch under one summary. */
  const reviewChanges = async (plan: ChangesPlan): Promise<number> => {
    const skipped = plan.target.skipped ?? [];
    if (plan.batches.length === 0) {
      progress.line(`nothing to review${skipped.length > 0 ? ` (${skipped.length} skipped: ${skipped.map((k) => `${k.file} ${k.reason}`).join(', ')})` : ''}`);
      if (args.dryRun) return EXIT.ok;
      const empty: ReviewSummary = {
        reviewId: 'none',
        target: targetInfo(plan.target),
        agents: [],
        findings: [],
        totals: zeroTotals(),
        cancelled: false,
        elapsedMs: 0,
      };
      return finish(empty, false);
    }
    if (args.dryRun) {
      for (const batch of plan.batches) {
        const data = whatWillBeSent(pipeline, { ...shaped, target: batch }, options, { baseUrl, redactSecrets: settings.privacy.redactSecrets, ...(context.rulesOff ? { rulesOff: context.rulesOff } : {}) });
        io.stdout.write(scrub(renderWhatWillBeSent(data)) + '\n');
      }
      return EXIT.ok;
    }
    let planned = estimateChanges(pipeline, plan, options);
    // A model the price table does not know may be priced in the gateway's /models list.
    if (planned.batches[0] && (await pipeline.learnPrices(planned.batches[0]))) planned = estimateChanges(pipeline, plan, options);
    const { estimate } = planned;
    const rules = rulesReport(shaped.prompt, estimate.order);
    if (rules.used.length > 0) progress.line(`repository rules: ${rules.used.join(', ')}`);
    if (shaped.redactions.length > 0) progress.line(`redacted before sending: ${describeRedactions(shaped.redactions)}`);
    for (const k of skipped) progress.line(`skipped ${k.file}: ${k.reason}`);
    progress.line(
      `reviewing ${plan.target.label}: ${plan.files} file${plan.files === 1 ? '' : 's'}, +${plan.added} -${plan.removed}, ${skipped.length} skipped, in ${plan.batches.length} request${plan.batches.length === 1 ? '' : 's'} per agent with ${estimate.order.join(', ')} via ${new URL(baseUrl).host}; estimated ≈ ${formatUsd(estimate.likelyUsd)} likely, up to ${formatUsd(estimate.costUsd)}`,
    );
    for (const [agent, e] of Object.entries(estimate.perAgent)) {
      if (e.tooLarge) progress.line(`[${agent}] a request (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window; lower quorum.changes.batchTokens`);
    }
    const summary = await runChanges(pipeline, planned, progress.onEvent);
    progress.close();
    const interrupted = io.signal.aborted;
    if (interrupted) progress.line('interrupted; printing what finished');
    return finish(summary, interrupted);
  };
  try {
    if (changes) return await reviewChanges(changes);
    if (args.dryRun) {
      const data = whatWillBeSent(pipeline, shaped, options, { baseUrl, redactSecrets: settings.privacy.redactSecrets, ...(context.rulesOff ? { rulesOff: context.rulesOff } : {}) });
      io.stdout.write(scrub(renderWhatWillBeSent(data)) + '\n');
      return EXIT.ok;
    }
    let planned = pipeline.estimate(target, options);
    if (await pipeline.learnPrices(planned)) planned = pipeline.estimate(target, options);
    const { estimate } = planned;
    const rules = rulesReport(shaped.prompt, estimate.order);
    if (rules.used.length > 0) progress.line(`repository rules: ${rules.used.join(', ')}`);
    if (rules.dropped.length > 0) progress.line(`rules left out (over quorum.rules.maxTokens = ${settings.rules.maxTokens} tokens): ${rules.dropped.join(', ')}`);
    if (shaped.redactions.length > 0) progress.line(`redacted before sending: ${describeRedactions(shaped.redactions)}`);
    progress.line(`reviewing ${target.label} with ${estimate.order.join(', ')} via ${new URL(baseUrl).host}; estimated ≈ ${formatUsd(estimate.likelyUsd)} likely, up to ${formatUsd(estimate.costUsd)}`);
    for (const [agent, e] of Object.entries(estimate.perAgent)) {
      if (e.tooLarge) progress.line(`[${agent}] the prompt (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window`);
    }
    const summary = await pipeline.run(planned, progress.onEvent);
    progress.close();
    if (cache && cache.stats.writeErrors > 0) progress.line(`could not write ${cache.stats.writeErrors} answer(s) to the cache in ${cache.folder}; the review is not affected`);
    const interrupted = io.signal.aborted;
    if (interrupted) progress.line('interrupted; printing what finished');
    return await finish(summary, interrupted);
  } catch (e) {
    progress.close();
    if (e instanceof ReviewConfigError) return fail(e.message);
    return fail(`internal error: ${e instanceof Error ? e.message : String(e)}`, EXIT.agentFailed);
  } finally {
    gateway.dispose();
  }
}
