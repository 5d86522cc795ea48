import { cliToolResults } from './toolResults';
import type { CodeContextSource, ReviewWork } from '../core/review/reviewRequest';
import type { ChangesPlan } from '../core/changes/plan';
import { defaultCacheDir } from '../core/util/cacheDir';
import { ChangesError } from '../core/changes/types';
import { dirname, resolve } from 'node:path';
import { urlSecrets } from '../core/pipeline/diskCache';
import { languageFromLocale, resolveOutputLanguage } from '../core/agents/language';
import { scrubKey } from '../core/redaction/redactor';
import { ReviewConfigError } from '../core/pipeline/errors';
import type { ReviewTarget } from '../core/domain/target';
import { DEFAULT_BASE_URL, type QuorumSettings } from '../core/settings/schema';
import { needsKey } from '../core/gateway/localKey';
import { parseArgs, USAGE, UsageError, type ReviewArgs } from './args';
import { EXIT, missingKeyNote, type CliIo } from './exit';
import { reviewAndPrint, type CliReview } from './reviewSteps';
import { ProgressReporter } from './progress';
import { readTarget } from './target';
import { EVAL_USAGE, parseEvalArgs, type EvalArgs } from './evalArgs';
import { runEvalCli } from './evalRun';
import { runMcpCommand } from './mcp/serve';
import { runDoctor } from './doctor';
import { cliPipeline, readChanges } from './reviewSetup';
import { findRepositoryRoot, relativeToRoot } from './repository';
import { nodeRepoFs } from '../core/prompt/repoFs';
import { loadPromptContext } from '../core/prompt/shape';
import { postTarget, postTokens } from './post/target';
import { cliSettings, splitModelOverrides } from './settings';
import { RegionMemory } from '../core/memory/regionMemory';
import { runStatsCommand } from './stats';
import { cliOutcomes } from './outcomes';

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

/** `quorum …`: returns the exit code; writes the result to stdout and progress and errors to stderr. */
export async function runCli(io: CliIo): Promise<number> {
  const key = io.env.QUORUM_API_KEY?.trim() ?? '';
  // Neither the gateway key nor a host's token (--post github|gitlab) is ever printed.
  const scrub = (text: string) => scrubKey(text, [key || undefined, ...postTokens(io.env)]);
  const fail = (message: string, code: number = EXIT.usage) => {
    io.stderr.write(`quorum: ${scrub(message).replace(/\s*\n\s*/g, ' ')}\n`);
    return code;
  };

  if (io.argv[0] === 'eval') return evalCommand(io, key, scrub, fail);
  if (io.argv[0] === 'mcp') return runMcpCommand(io, fail);
  if (io.argv[0] === 'stats') return runStatsCommand(io, fail);
  if (io.argv[0] === 'doctor') return runDoctor(io, fail, scrub);

  const args = reviewArgs(io, fail);
  if (typeof args === 'number') return args;

  const post = args.post && !args.dryRun ? postTarget(args.post, io.env, args.post === 'github' ? args.pr : args.mr) : undefined;
  if (post && 'problem' in post) return fail(post.problem);
  const baseUrl = args.baseUrl ?? (io.env.QUORUM_BASE_URL?.trim() || DEFAULT_BASE_URL);
  // A server on this machine (Ollama, LM Studio, llama.cpp, vLLM) needs no key, unless it says it does.
  if (!key && !args.dryRun && (await needsKey(baseUrl, { signal: io.signal }))) return fail(`QUORUM_API_KEY is not set; export the gateway API key first${missingKeyNote(baseUrl)}`);
  const { settings, issues } = cliSettings(args, baseUrl);
  const badUrl = issues.find((i) => i.path.startsWith('gateway.baseUrl'));
  if (badUrl) return fail(`the base URL "${baseUrl}" is not valid: ${badUrl.message}`);

  let read: ReadTarget;
  try {
    read = await readReviewTarget(io, args, settings);
  } catch (e) {
    if (e instanceof UsageError || e instanceof ChangesError) return fail(e.message);
    throw e;
  }
  const { target, changes } = read;
  const language = resolveOutputLanguage(args.language, languageFromLocale(io.env));

  // What the repository contributes to the prompts: its rules and agents, files never sent, redaction.
  const root = read.root ?? findRepositoryRoot(args.file);
  const context = await loadPromptContext({ settings, fs: root ? nodeRepoFs(root) : undefined, trusted: true, useRules: !args.noRules });
  for (const issue of context.repository.issues) io.stderr.write(`quorum: warning: ${scrub(issue.message)}\n`);
  const relativeFile = root && !changes ? relativeToRoot(root, args.file) : undefined;

  const { gateway, cache, pipeline } = cliPipeline(args, io.env, key, baseUrl, settings);
  const progress = new ProgressReporter({ write: (t: string) => io.stderr.write(scrub(t)), isTTY: io.stderr.isTTY === true });
  // `--model verifier=…` is the verifier's model (a setting), not a reviewer's.
  const reviewerModels = splitModelOverrides(args.models).agents;
  const options = {
    language,
    noCache: args.noCache,
    signal: io.signal,
    ...(args.agents ? { agents: args.agents } : {}),
    ...(Object.keys(reviewerModels).length > 0 ? { modelOverrides: reviewerModels } : {}),
    ...(args.allFindings || !settings.changes.onlyChangedLines ? { keepOutsideChanges: true } : {}),
  };
  // What became of each finding shown before in this repository, kept in the cache folder (core/outcomes).
  const outcomes = root ? cliOutcomes(root, args.cacheDir ?? defaultCacheDir(io.env), [key, ...urlSecrets(baseUrl)], (line) => progress.line(scrub(line))) : undefined;
  const review: CliReview = { io, args, settings, baseUrl, scrub, fail, root, pipeline, progress, cache, ...(post ? { post } : {}), ...(outcomes ? { outcomes } : {}) };
  // Definitions, callers and enclosing signatures from the repository's tree-sitter index (kept in the cache folder).
  const codeContext: CodeContextSource | undefined = root && settings.context.enabled && args.context
    ? {
        root,
        cacheDir: args.cacheDir ?? defaultCacheDir(io.env),
        maxTokens: args.contextTokens ?? settings.context.maxTokens,
        maxFileBytes: settings.changes.maxFileKb * 1024,
        timeBudgetMs: (args.contextSeconds ?? settings.context.timeBudgetSeconds) * 1000,
        onError: (message) => io.stderr.write(`quorum: warning: no context is sent: ${scrub(message)}\n`),
      }
    : undefined;
  const work: ReviewWork = { target, ...(changes ? { changes } : {}), ...(relativeFile !== undefined ? { relativeFile } : {}) };
  // The project's tools' SARIF files (--tool-results, .quorum/tool-results/): a bad one is said in one line and ignored.
  const toolResults = await cliToolResults({ files: args.toolResults ?? [], root, cwd: io.cwd ?? process.cwd(), target, reviewed: changes ? undefined : args.file, warn: (line) => io.stderr.write(`quorum: warning: ${scrub(line)}\n`) });
  // A re-review of changes on this machine (the same cache folder) sends only the regions whose content changed.
  const memory = cache && changes && read.root ? new RegionMemory({ dir: dirname(cache.folder), root: read.root, secrets: [key, ...urlSecrets(baseUrl)] }) : undefined;
  try {
    return await reviewAndPrint(review, { work, context, options, ...(codeContext ? { codeContext } : {}), ...(memory ? { memory } : {}), ...(toolResults.length > 0 ? { toolResults } : {}), ...(outcomes ? { outcomes } : {}) });
  } catch (e) {
    progress.close();
    if (e instanceof ReviewConfigError) return fail(e.message);
    return fail(`internal error: ${e instanceof Error ? e.message : String(e)}`, EXIT.agentFailed);
  } finally {
    gateway.dispose();
  }
}
