import { formatToolComparisonTable, toolComparisonJson } from '../core/eval/toolComparison';
import { constants, existsSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { languageFromLocale, resolveOutputLanguage } from '../core/agents/language';
import { withCaseContext } from '../core/eval/caseContext';
import { CorpusError, loadCorpus, type Corpus } from '../core/eval/corpus';
import { evalHtmlReport } from '../core/eval/html';
import { planRuns, type EvalRunSpec } from '../core/eval/plan';
import { toEvalJson } from '../core/eval/report';
import { estimateEval, learnEvalPrices, runEval, type EvalProgress, type EvalReport } from '../core/eval/runner';
import { formatVerificationTable, verificationJson } from '../core/eval/verification';
import { formatDollars, formatEvalTable } from '../core/eval/table';
import { pricedGateway } from '../core/gateway/pricedGateway';
import { ReviewConfigError } from '../core/pipeline/errors';
import type { QuorumSettings } from '../core/settings/schema';
import type { EvalArgs } from './evalArgs';
import type { ProgressStream } from './progress';
import { cliSettings } from './settings';
import { UsageError } from './flags';
import { scrubStrings } from '../core/redaction/redactor';

/** `quorum eval`: loads the corpus (exit 2 before any request when it is malformed), estimates, runs, reports. */

interface EvalIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: ProgressStream;
  stderr: ProgressStream;
  signal: AbortSignal;
  /** Working directory for relative paths. */
  cwd: string;
}

const EXIT_OK = 0;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

/** The corpus shipped with Quorum: beside dist/ in a package, at the repository root in development. */
function shippedCorpusDir(): string {
  const packaged = join(__dirname, '..', 'eval', 'corpus');
  return [packaged, join(__dirname, '..', '..', 'eval', 'corpus')].find((d) => existsSync(d)) ?? packaged;
}

/** A live progress bar on a terminal; nothing otherwise (the start and end lines say enough in logs). */
class EvalProgressBar {
  private drawn = false;
  constructor(private readonly out: ProgressStream) {}
  update(p: EvalProgress): void {
    if (this.out.isTTY !== true) return;
    const width = 24;
    const filled = p.total === 0 ? width : Math.round((p.done / p.total) * width);
    const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
    this.out.write(`\r\x1b[2K[${bar}] ${p.done}/${p.total} cases, ${formatDollars(p.costUsd)}${p.failures > 0 ? `, ${p.failures} failed` : ''}`);
    this.drawn = true;
  }
  close(): void {
    if (this.drawn) this.out.write('\r\x1b[2K');
    this.drawn = false;
  }
}

/** What an eval runs on, checked before anything is sent. */
interface PreparedEval {
  settings: QuorumSettings;
  baseUrl: string;
  corpus: Corpus;
  runs: EvalRunSpec[];
  /** `--output`, resolved; its folder is writable. */
  outFile: string | undefined;
}

/** The settings, the corpus (with each case's context), the runs and the output file; a `UsageError` for what the user must fix. */
async function prepareEval(args: EvalArgs, io: EvalIo): Promise<PreparedEval> {
  const { settings, baseUrl } = cliSettings(args, io.env);
  const dir = args.corpus !== undefined ? resolve(io.cwd, args.corpus) : shippedCorpusDir();
  let corpus: Corpus;
  let runs: EvalRunSpec[];
  try {
    corpus = await loadCorpus(dir);
    const contextTokens = args.contextTokens ?? settings.context.maxTokens;
    if (args.context && contextTokens > 0) corpus = await withCaseContext(corpus, contextTokens);
    // `--model verifier=…` is the verifier's model (cliSettings put it in the settings), not an agent to score.
    runs = planRuns(settings, { ...(args.agents ? { agents: args.agents } : {}), models: args.models, compare: args.compare });
  } catch (e) {
    if (e instanceof CorpusError || e instanceof ReviewConfigError) throw new UsageError(e.message);
    throw e;
  }
  const outFile = args.output !== undefined ? resolve(io.cwd, args.output) : undefined;
  if (outFile !== undefined) {
    try {
      await access(dirname(outFile), constants.W_OK);
    } catch {
      throw new UsageError(`cannot write ${outFile}: its folder does not exist or is not writable`);
    }
  }
  return { settings, baseUrl, corpus, runs, outFile };
}

export async function runEvalCli(args: EvalArgs, io: EvalIo, key: string, scrub: (t: string) => string): Promise<number> {
  const say = (text: string) => io.stderr.write(scrub(`quorum: ${text}\n`));
  let prepared: PreparedEval;
  try {
    prepared = await prepareEval(args, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    say(e.message);
    return EXIT_USAGE;
  }
  const { settings, baseUrl, corpus, runs, outFile } = prepared;
  const language = resolveOutputLanguage(args.language, languageFromLocale(io.env));
  // Prices the gateway lists in `/models` price what `quorum.prices` and the table do not, as in a review.
  const { gateway, ledger, listedPrices } = pricedGateway({ settings: () => settings, apiKey: () => key, keyOptionalOnLoopback: true });
  const deps = { gateway, settings: () => settings, ledger, listedPrices };
  const bar = new EvalProgressBar(io.stderr);
  try {
    await learnEvalPrices(corpus, deps, runs, language, io.signal);
    const verify = args.verify ?? 'off';
    const estimate = estimateEval(corpus, deps, runs, language, verify);
    const clean = corpus.cases.filter((c) => c.expected.length === 0).length;
    say(`eval of ${runs.map((r) => `${r.agent} on ${r.model}`).join(', ')} over ${corpus.cases.length} cases (${clean} clean) via ${new URL(baseUrl).host}`);
    say(estimateLine(estimate));
    const report = await runEval(corpus, deps, { runs, language, signal: io.signal, onProgress: (p) => bar.update(p), verify });
    bar.close();
    if (report.cancelled) say(`interrupted after ${report.finished.reduce((s, n) => s + n, 0)} of ${report.runs.length * corpus.cases.length} cases; the figures count unfinished cases as failures`);
    if (!(await writeResults(args, report, outFile, { io, scrub, say }))) return EXIT_USAGE;
    say(`spent ${formatDollars(report.spentUsd)}`);
    return report.cancelled ? EXIT_INTERRUPTED : EXIT_OK;
  } catch (e) {
    bar.close();
    if (e instanceof ReviewConfigError) {
      say(e.message);
      return EXIT_USAGE;
    }
    throw e;
  } finally {
    gateway.dispose();
  }
}

/** The estimate before anything is sent: likely and at most, naming the models no price is known for. */
function estimateLine(estimate: ReturnType<typeof estimateEval>): string {
  const unpriced = [...new Set(estimate.perRun.filter((r) => !r.priced).map((r) => r.model))];
  const note = unpriced.length > 0 ? ` (no price is known for ${unpriced.join(', ')}: its share is not in the estimate)` : '';
  return `estimated cost: likely ${formatDollars(estimate.likelyUsd)}, at most ${formatDollars(estimate.costUsd)} for ${estimate.requests} requests${note}`;
}

/** The chosen format on stdout, or written to `--output` with the table on stdout. False when the file cannot be written. */
async function writeResults(args: EvalArgs, report: EvalReport, outFile: string | undefined, { io, scrub, say }: { io: EvalIo; scrub: (t: string) => string; say: (t: string) => void }): Promise<boolean> {
  // The key is scrubbed from the figures' strings, before they are rendered: a document is never edited after.
  const runs = scrubStrings(report.runs, scrub);
  const verified = report.verified ? { ...report.verified, runs: scrubStrings(report.verified.runs, scrub) } : undefined;
  const withTools = report.withTools ? { ...report.withTools, runs: scrubStrings(report.withTools.runs, scrub) } : undefined;
  const table = formatEvalTable(runs) + (verified ? '\n' + formatVerificationTable(runs, verified) : '') + (withTools ? '\n' + formatToolComparisonTable(runs, withTools) : '');
  const document =
    args.format === 'json'
      ? JSON.stringify({ ...toEvalJson(runs), ...(verified ? { verification: verificationJson(runs, verified) } : {}), ...(withTools ? { toolResults: toolComparisonJson(runs, withTools) } : {}) }, null, 2) + '\n'
      : args.format === 'html'
        ? evalHtmlReport(runs, { corpus: args.corpus ?? 'shipped corpus', generatedAt: new Date().toISOString() })
        : table;
  if (outFile === undefined) {
    io.stdout.write(document);
    return true;
  }
  try {
    await writeFile(outFile, document, 'utf8');
  } catch (e) {
    say(`cannot write ${outFile}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
  say(`wrote ${args.format} to ${outFile}`);
  io.stdout.write(table);
  return true;
}
