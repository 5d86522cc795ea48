import { cliToolResults } from './toolResults';
import type { ChangesPlan } from '../core/changes/plan';
import { ChangesError } from '../core/changes/types';
import { dirname, resolve } from 'node:path';
import { urlSecrets } from '../core/pipeline/diskCache';
import { languageFromLocale, resolveOutputLanguage } from '../core/agents/language';
import { scrubKey } from '../core/redaction/redactor';
import { ReviewConfigError } from '../core/pipeline/errors';
import type { ReviewTarget } from '../core/domain/target';
import type { QuorumSettings } from '../core/settings/schema';
import { needsKey } from '../core/gateway/localKey';
import { parseArgs, type ReviewArgs } from './args';
import { commandArgs, UsageError } from './flags';
import { EVAL_USAGE, USAGE } from './usage';
import { EXIT, missingKeyNote, type CliIo } from './exit';
import { reviewAndPrint } from './reviewSteps';
import { cliBaseUrl, cliSettings } from './settings';
import { ProgressReporter } from './progress';
import { readTarget } from './target';
import { parseEvalArgs } from './evalArgs';
import { runEvalCli } from './evalRun';
import { runMcpCommand } from './mcp/serve';
import { runDoctor } from './doctor';
import { cliPipeline, readChanges } from './reviewSetup';
import { findRepositoryRoot, relativeToRoot } from './repository';
import { postTarget, postTokens, type PostTarget } from './post/target';
import { RegionMemory } from '../core/memory/regionMemory';
import { runStatsCommand } from './stats';
import { buildRequest } from './request';

/** What every command of a run shares: its streams, the key, the scrubber that keeps the key out, and the usage failure. */
interface Cli {
  io: CliIo;
  key: string;
  scrub: (text: string) => string;
  fail: (message: string, code?: number) => number;
}

/** `quorum eval …`: help, usage errors (exit 2), or the eval itself. */
async function evalCommand({ io, key, scrub, fail }: Cli): Promise<number> {
  const args = commandArgs(io, 'eval', EVAL_USAGE, parseEvalArgs, fail);
  if (typeof args === 'number') return args;
  if (!key) return fail('QUORUM_API_KEY is not set; export the gateway API key first');
  return runEvalCli(args, { env: io.env, stdout: io.stdout, stderr: io.stderr, signal: io.signal, cwd: io.cwd ?? process.cwd() }, key, scrub);
}

/** The arguments of `quorum review`, or the exit code of help, version or a usage error. */
function reviewArgs(io: CliIo, fail: (message: string) => number): ReviewArgs | number {
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
    return parsed;
  } catch (e) {
    if (e instanceof UsageError) return fail(`${e.message} (see quorum --help)`);
    throw e;
  }
}

interface ReadTarget {
  target: ReviewTarget;
  /** `--changes`: the changes planned into batches. */
  changes?: ChangesPlan;
  /** `--changes`: the repository's root. */
  root?: string;
}

/** The file's lines, or the repository's changes; throws `UsageError` or `ChangesError`. */
async function readReviewTarget(io: CliIo, args: ReviewArgs, settings: QuorumSettings): Promise<ReadTarget> {
  if (!args.changes) return { target: await readTarget(args.file, args.lines) };
  const warn = (line: string) => void io.stderr.write(`quorum: ${line}\n`);
  const { changes, root } = await readChanges(resolve(io.cwd ?? process.cwd(), args.repo ?? '.'), args.changes, settings, warn);
  return { target: changes.target, changes, root };
}

/** A review whose target is read: the request built as the MCP server builds it, with the command line's tool results and memory, then run and printed. */
async function review(c: Cli, args: ReviewArgs, settings: QuorumSettings, baseUrl: string, read: ReadTarget, post: PostTarget | undefined): Promise<number> {
  const { io, key, scrub, fail } = c;
  const { target, changes } = read;
  const root = read.root ?? findRepositoryRoot(args.file);
  const relativeFile = root && !changes ? relativeToRoot(root, args.file) : undefined;
  const { gateway, cache, pipeline } = cliPipeline(args, io.env, key, baseUrl, settings);
  const progress = new ProgressReporter({ write: (t: string) => io.stderr.write(scrub(t)), isTTY: io.stderr.isTTY === true });
  try {
    const request = await buildRequest(
      {
        flags: args, settings, env: io.env, key, baseUrl, root, agents: args.agents, signal: io.signal,
        language: resolveOutputLanguage(args.language, languageFromLocale(io.env)),
        say: (line) => progress.line(line),
        noContext: (message) => progress.line(`warning: no context is sent: ${message}`),
      },
      { target, ...(changes ? { changes } : {}), ...(relativeFile !== undefined ? { relativeFile } : {}) },
    );
    // The project's tools' SARIF files (--tool-results, .quorum/tool-results/): a bad one is said in one line and ignored.
    const toolResults = await cliToolResults({ files: args.toolResults ?? [], root, cwd: io.cwd ?? process.cwd(), target, reviewed: changes ? undefined : args.file, warn: (line) => progress.line(`warning: ${line}`) });
    // A re-review of changes on this machine (the same cache folder) sends only the regions whose content changed.
    const memory = cache && changes && read.root ? new RegionMemory({ dir: dirname(cache.folder), root: read.root, secrets: [key, ...urlSecrets(baseUrl)] }) : undefined;
    const { outcomes } = request;
    const printer = { io, args, settings, baseUrl, scrub, fail, root, pipeline, progress, cache, ...(post ? { post } : {}), ...(outcomes ? { outcomes } : {}) };
    return await reviewAndPrint(printer, { ...request, ...(memory ? { memory } : {}), ...(toolResults.length > 0 ? { toolResults } : {}) });
  } catch (e) {
    progress.close();
    if (e instanceof ReviewConfigError) return fail(e.message);
    return fail(`internal error: ${e instanceof Error ? e.message : String(e)}`, EXIT.agentFailed);
  } finally {
    gateway.dispose();
  }
}

/** `quorum review …`: the arguments, the key, the settings and the target checked before anything is built. */
async function reviewCommand(c: Cli): Promise<number> {
  const { io, key, fail } = c;
  const args = reviewArgs(io, fail);
  if (typeof args === 'number') return args;
  const post = args.post && !args.dryRun ? postTarget(args.post, io.env, args.post === 'github' ? args.pr : args.mr) : undefined;
  if (post && 'problem' in post) return fail(post.problem);
  const baseUrl = cliBaseUrl(args.baseUrl, io.env);
  // A server on this machine (Ollama, LM Studio, llama.cpp, vLLM) needs no key, unless it says it does.
  if (!key && !args.dryRun && (await needsKey(baseUrl, { signal: io.signal }))) return fail(`QUORUM_API_KEY is not set; export the gateway API key first${missingKeyNote(baseUrl)}`);
  try {
    const { settings } = cliSettings(args, io.env);
    return await review(c, args, settings, baseUrl, await readReviewTarget(io, args, settings), post);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ChangesError) return fail(e.message);
    throw e;
  }
}

/** `quorum …`: returns the exit code; writes the result to stdout and progress and errors to stderr. */
export async function runCli(io: CliIo): Promise<number> {
  const key = io.env.QUORUM_API_KEY?.trim() ?? '';
  // Neither the gateway key nor a host's token (--post github|gitlab) is ever printed.
  const scrub = (text: string) => scrubKey(text, [key || undefined, ...postTokens(io.env)]);
  const fail = (message: string, code: number = EXIT.usage) => {
    io.stderr.write(`quorum: ${scrub(message).replace(/\s*\n\s*/g, ' ')}\n`);
    return code;
  };
  const cli: Cli = { io, key, scrub, fail };
  switch (io.argv[0]) {
    case 'eval':
      return evalCommand(cli);
    case 'mcp':
      return runMcpCommand(io, fail);
    case 'stats':
      return runStatsCommand(io, fail);
    case 'doctor':
      return runDoctor(io, fail, scrub);
    default:
      return reviewCommand(cli);
  }
}
