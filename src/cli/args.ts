import { SEVERITIES } from '../shared/severity';
import * as z from 'zod';
import { normalizeLanguage } from '../core/agents/language';
import type { ChangeRequest } from '../core/changes/types';
import { REPORT_FORMATS, type ReportFormat } from '../core/report/render';
import { modelIdSchema, VERIFY_MODES, type VerifyMode } from '../core/settings/schema';

/** `--base-url` and `--language`, shared by `quorum review` and `quorum eval`. */
export const baseUrlOption = z
  .string()
  .trim()
  .url('--base-url must be a URL')
  .refine((u) => /^https?:\/\//i.test(u), '--base-url must start with http:// or https://')
  .optional();
export const languageOption = z
  .string()
  .refine((s) => s.trim().toLowerCase() === 'auto' || normalizeLanguage(s) !== undefined, '--language takes a code such as en or ko')
  .optional();

/** The command line of `quorum review`, parsed and validated. Usage errors are `UsageError`s (exit code 2). */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The CLI's disk cache serves answers for 7 days unless told otherwise. */
const DEFAULT_CACHE_TTL_MINUTES = 7 * 24 * 60;

const FAIL_ON = [...SEVERITIES.filter((s) => s !== 'info'), 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface ReviewArgs {
  command: 'review';
  /** The reviewed file; '' for a review of changes. */
  file: string;
  /** `--changes`: review what changed in the repository instead of a file. */
  changes?: ChangeRequest;
  /** `--repo DIR`: the repository of `--changes` (default: the current folder's). */
  repo?: string;
  /** `--all-findings`: keep findings outside the changed lines, marked. */
  allFindings: boolean;
  lines?: { start: number; end: number };
  agents?: string[];
  models: Record<string, string>;
  baseUrl?: string;
  language?: string;
  format: ReportFormat;
  /** Write the chosen format to this file; the terminal gets the text report. */
  output?: string;
  noCache: boolean;
  /** The disk cache's folder (default: `$XDG_CACHE_HOME/quorum`, else `~/.cache/quorum`). */
  cacheDir?: string;
  /** How long cached answers are served, minutes (0: the cache is neither read nor written). */
  cacheTtl: number;
  maxConcurrency?: number;
  /** Seconds one agent's request may take in all (retries included); also caps the idle timeout. */
  timeout?: number;
  failOn: FailOn;
  /** Leave out the repository's rules and agents (`.quorum/`, AGENTS.md). */
  noRules: boolean;
  /** `--context on|off`: send definitions, callers and enclosing signatures beside the code (default on). */
  context: boolean;
  /** `--context-tokens N`: tokens of context per request at most. */
  contextTokens?: number;
  /** `--context-seconds N`: seconds the context may take to choose (then the rest of the batches go without). */
  contextSeconds?: number;
  /** Print what would be sent and send nothing. */
  dryRun: boolean;
  /** Hide findings below this confidence (0..1). */
  minConfidence: number;
  /** Hide findings less severe than this. */
  minSeverity: (typeof SEVERITIES)[number];
  /** List hidden findings too (they still never trigger --fail-on). */
  showHidden: boolean;
  /** `--post github|gitlab`: post the review on the pull or merge request (with `--changes --base`). */
  post?: 'github' | 'gitlab';
  /** `--pr N`: the pull request (default: from the event in GITHUB_EVENT_PATH). */
  pr?: number;
  /** `--mr IID`: the merge request (default: CI_MERGE_REQUEST_IID). */
  mr?: number;
  /** `--verify`: how the merged findings are verified (default: quorum.review.verify's default, cross-model). */
  verify?: VerifyMode;
  /** `--tool-results FILE` (repeatable): SARIF files of the project's tools, read beside `.quorum/tool-results/*.sarif`. */
  toolResults?: string[];
}


type CliArgs = ReviewArgs | { command: 'help' } | { command: 'version' };

export const USAGE = `Usage: quorum review <file> [options]
       quorum review --changes [--staged | --base REF | --last-commit] [--repo DIR] [--all-findings] [options]
       quorum eval [options]     score agents and models on a labelled corpus (quorum eval --help)
       quorum mcp [options]      serve the review as MCP tools over stdio for coding agents (quorum mcp --help)
       quorum stats [options]    what became of the findings shown in this repository (quorum stats --help)
       quorum doctor [options]   say what the gateway does: models, usage, JSON mode, request shape, prices (quorum doctor --help)

Reviews a file, or lines of it, with Quorum's agents through an OpenAI-compatible gateway.

Options:
  --changes                review what changed in the git repository instead of a file: uncommitted changes
                           (staged, unstaged and untracked files) against HEAD, or with
    --staged               only the staged changes (lines numbered as in the index)
    --base REF             the changes from the merge base of REF and HEAD to the working tree (a pull request)
    --last-commit          the last commit (HEAD~1..HEAD)
  --repo DIR               the repository for --changes (default: the current folder's); paths in the output
                           are relative to its root
  --all-findings           with --changes, keep findings outside the changed lines (marked outsideChanges)
  --lines START-END        review only these lines (1-based, inclusive)
  --agents a,b,...         run only these agents (analyst, architecture, security, coding, or custom ids)
  --model agent=model      use another model for an agent (repeatable)
  --base-url URL           the gateway (default: $QUORUM_BASE_URL, else https://api.holysheep.ai/v1)
  --language CODE          language of the review text: en, ko, ... (default: from LC_ALL / LANG)
  --format text|markdown|json|sarif|github|codequality   how to print the result (default: text); sarif:
                           SARIF 2.1.0 for code scanning; github: GitHub Actions annotations; codequality: a
                           GitLab Code Quality report (artifacts:reports:codequality)
  --output FILE            write the result in --format to FILE; the terminal gets the text report
  --no-rules               leave out the repository's rules and agents (.quorum/, AGENTS.md)
  --context on|off         send definitions, callers and enclosing signatures of the reviewed code, read-only (default on)
  --context-tokens <n>     tokens of context per request at most (default 3000)
  --context-seconds <n>    seconds context may take to choose; later requests go without, and it says so (default 2.5)
  --dry-run                print exactly what would be sent (messages, models, estimate, host); send nothing
  --no-cache               neither read nor write the disk cache
  --cache-dir DIR          where answers are cached across runs (default: $XDG_CACHE_HOME/quorum, else ~/.cache/quorum)
  --cache-ttl MINUTES      how long cached answers are served (default 10080 = 7 days; 0 = off)
  --max-concurrency N      requests in flight at once (default 4)
  --timeout SECONDS        longest one agent's request may take, retries included (default 180)
  --fail-on critical|high|medium|low|none   exit 1 when a finding is at or above this severity (default none)
  --min-confidence 0..1    hide findings below this confidence (default 0)
  --min-severity LEVEL     hide findings less severe than critical|high|medium|low|info (default info)
  --show-hidden            list hidden findings too (hidden ones, and dismissed ones, never trigger --fail-on)
  --tool-results FILE      a SARIF 2.1.0 file of the project's linter, compiler or scanner (ESLint, tsc, Ruff,
                           Semgrep, CodeQL, Bandit, golangci-lint; repeatable; .quorum/tool-results/*.sarif are read
                           too): results on the reviewed lines are sent read-only, findings repeating them hidden
  --post github            with --changes --base, also post the review on the pull request: inline comments on
                           the diff's lines (with suggestions), a summary comment edited on each run, nothing
                           posted twice, earlier comments no longer raised marked resolved
  --pr N                   the pull request for --post github (default: from the event in GITHUB_EVENT_PATH)
  --post gitlab            the same on a GitLab merge request: diff threads (suggestions, line ranges), one
                           summary note edited on each run, threads whose finding is gone resolved
  --mr IID                 the merge request for --post gitlab (default: CI_MERGE_REQUEST_IID)
  --verify off|cross-model|same-model   a verifier agent checks each merged finding (default cross-model: on a
                           model that did not raise it; --model verifier=MODEL picks it); refuted ones are hidden
  -h, --help               show this help
  --version                show the version

Environment: QUORUM_API_KEY (required, except for --dry-run and a gateway on this machine), QUORUM_BASE_URL, XDG_CACHE_HOME (cache folder),
  GITHUB_STEP_SUMMARY (when set, a Markdown summary of the review is appended to that file); for --post github:
  GITHUB_TOKEN (pull-requests: write), GITHUB_REPOSITORY (owner/name), GITHUB_EVENT_PATH, GITHUB_API_URL
  (default https://api.github.com); for --post gitlab: GITLAB_TOKEN (api scope; CI_JOB_TOKEN cannot post),
  CI_API_V4_URL (else CI_SERVER_URL/api/v4), CI_PROJECT_ID, CI_MERGE_REQUEST_IID.
Exit codes: 0 done, 1 a finding at or above --fail-on, 2 usage error, 3 an agent failed (also when a finding
  is at or above --fail-on: 3 always wins when the gateway refused the key (auth, forbidden) or the quota is
  spent, so CI never passes on them; with --post also when GitHub or GitLab refuses the token or the post), 130
  interrupted.`;

const agentId = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'agent ids are lower-case letters, digits and dashes');

const schema = z.object({
  file: z.string(),
  changes: z.boolean().default(false),
  staged: z.boolean().default(false),
  lastCommit: z.boolean().default(false),
  allFindings: z.boolean().default(false),
  base: z.string().trim().min(1, '--base needs a branch, tag or commit').optional(),
  repo: z.string().trim().min(1, '--repo needs a folder').optional(),
  lines: z
    .string()
    .regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, '--lines takes START-END, e.g. 10-40')
    .transform((s) => {
      const [a = 0, b = a] = s.split('-').map((x) => Number(x.trim()));
      return { start: a, end: b };
    })
    .refine((r) => r.start >= 1 && r.end >= r.start, '--lines needs 1 <= START <= END')
    .optional(),
  agents: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(agentId).min(1, '--agents needs at least one agent id'))
    .optional(),
  models: z
    .array(
      z
        .string()
        .regex(/^[^=]+=[^=]+$/, '--model takes agent=model')
        .transform((s) => s.split('=').map((x) => x.trim()))
        .pipe(z.tuple([agentId, modelIdSchema])),
    )
    .default([]),
  baseUrl: baseUrlOption,
  language: languageOption,
  format: z.enum(REPORT_FORMATS, { message: `--format is ${REPORT_FORMATS.join(', ')}` }).default('text'),
  output: z.string().trim().min(1, '--output needs a file').optional(),
  noCache: z.boolean().default(false),
  cacheDir: z.string().trim().min(1, '--cache-dir needs a folder').optional(),
  cacheTtl: z.coerce.number({ message: '--cache-ttl takes a number of minutes' }).min(0, '--cache-ttl is at least 0').max(525_600, '--cache-ttl is at most 525600 minutes (a year)').default(DEFAULT_CACHE_TTL_MINUTES),
  noRules: z.boolean().default(false),
  context: z.enum(['on', 'off'], { message: '--context is on or off' }).default('on'),
  contextTokens: z.coerce.number({ message: '--context-tokens takes a number' }).int('--context-tokens takes a whole number').min(0, '--context-tokens is at least 0').max(50_000, '--context-tokens is at most 50000').optional(),
  contextSeconds: z.coerce.number({ message: '--context-seconds takes a number of seconds' }).min(0.1, '--context-seconds is at least 0.1').max(600, '--context-seconds is at most 600').optional(),
  dryRun: z.boolean().default(false),
  maxConcurrency: z.coerce.number({ message: '--max-concurrency takes a number' }).int('--max-concurrency takes a whole number').min(1, '--max-concurrency is at least 1').max(64, '--max-concurrency is at most 64').optional(),
  timeout: z.coerce.number({ message: '--timeout takes a number of seconds' }).min(1, '--timeout is at least 1 second').max(7200, '--timeout is at most 7200 seconds').optional(),
  failOn: z.enum(FAIL_ON, { message: `--fail-on is one of ${FAIL_ON.join(', ')}` }).default('none'),
  minConfidence: z
    .string()
    .regex(/^\s*(0(\.\d+)?|1(\.0+)?|\.\d+)\s*$/, '--min-confidence takes a number from 0 to 1')
    .transform(Number)
    .default(0),
  minSeverity: z.enum(SEVERITIES, { message: `--min-severity is one of ${SEVERITIES.join(', ')}` }).default('info'),
  showHidden: z.boolean().default(false),
  post: z.enum(['github', 'gitlab'], { message: '--post takes github or gitlab' }).optional(),
  mr: z.coerce.number({ message: '--mr takes a merge request number' }).int('--mr takes a whole number').min(1, '--mr is at least 1').optional(),
  pr: z.coerce.number({ message: '--pr takes a pull request number' }).int('--pr takes a whole number').min(1, '--pr is at least 1').optional(),
  verify: z.enum(VERIFY_MODES, { message: `--verify is one of ${VERIFY_MODES.join(', ')}` }).optional(),
  toolResults: z.array(z.string().trim().min(1, '--tool-results needs a SARIF file')).default([]),
});

const VALUE_FLAGS: Record<string, keyof z.input<typeof schema>> = {
  '--lines': 'lines',
  '--agents': 'agents',
  '--model': 'models',
  '--base-url': 'baseUrl',
  '--language': 'language',
  '--format': 'format',
  '--output': 'output',
  '--cache-dir': 'cacheDir',
  '--cache-ttl': 'cacheTtl',
  '--max-concurrency': 'maxConcurrency',
  '--timeout': 'timeout',
  '--fail-on': 'failOn',
  '--min-confidence': 'minConfidence',
  '--min-severity': 'minSeverity',
  '--base': 'base',
  '--repo': 'repo',
  '--verify': 'verify',
  '--context': 'context',
  '--context-tokens': 'contextTokens',
  '--context-seconds': 'contextSeconds',
  '--post': 'post',
  '--pr': 'pr',
  '--mr': 'mr',
  '--tool-results': 'toolResults',
};

const BOOLEAN_FLAGS: Record<string, 'noCache' | 'noRules' | 'dryRun' | 'showHidden' | 'changes' | 'staged' | 'lastCommit' | 'allFindings'> = {
  '--no-cache': 'noCache',
  '--no-rules': 'noRules',
  '--dry-run': 'dryRun',
  '--show-hidden': 'showHidden',
  '--changes': 'changes',
  '--staged': 'staged',
  '--last-commit': 'lastCommit',
  '--all-findings': 'allFindings',
};

/** `--changes` and its kind; a file, `--lines` or a kind without `--changes` is a usage error. */
function changeRequest(a: { file: string; changes: boolean; staged: boolean; lastCommit: boolean; base?: string | undefined; repo?: string | undefined; allFindings: boolean; lines?: unknown }): ChangeRequest | undefined {
  const kinds = [a.staged && '--staged', a.lastCommit && '--last-commit', a.base !== undefined && '--base'].filter((k): k is string => typeof k === 'string');
  if (!a.changes) {
    const stray = [...kinds, a.repo !== undefined && '--repo', a.allFindings && '--all-findings'].find((k): k is string => typeof k === 'string');
    if (stray) throw new UsageError(`${stray} goes with --changes`);
    if (a.file === '') throw new UsageError('missing <file> (or --changes)');
    return undefined;
  }
  if (a.file !== '') throw new UsageError('--changes reviews the repository\'s changes: give no <file>');
  if (a.lines !== undefined) throw new UsageError('--lines does not go with --changes');
  if (kinds.length > 1) throw new UsageError(`${kinds.join(' and ')} do not go together`);
  if (a.staged) return { kind: 'staged' };
  if (a.lastCommit) return { kind: 'last-commit' };
  if (a.base !== undefined) {
    if (a.base.startsWith('-')) throw new UsageError('--base needs a branch, tag or commit');
    return { kind: 'ref', ref: a.base };
  }
  return { kind: 'uncommitted' };
}

/** Parses `argv` (without `node` and the script). Throws `UsageError` with a one-line message. */
export function parseArgs(argv: readonly string[]): CliArgs {
  if (argv.includes('-h') || argv.includes('--help') || argv[0] === 'help') return { command: 'help' };
  if (argv[0] === '--version' || argv[0] === 'version') return { command: 'version' };
  if (argv.length === 0) throw new UsageError('missing command; try "quorum review <file>"');
  const [command, ...rest] = argv;
  if (command !== 'review') throw new UsageError(`unknown command "${command}"; try "quorum review <file>"`);
  const modelFlags: string[] = [];
  const toolFlags: string[] = [];
  const raw: Record<string, unknown> = { models: modelFlags, toolResults: toolFlags };
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === undefined) break;
    if (arg === '--') {
      positional.push(...rest.slice(i + 1));
      break;
    }
    const flag = BOOLEAN_FLAGS[arg];
    if (flag) {
      raw[flag] = true;
      continue;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      const key = VALUE_FLAGS[name];
      if (!key) throw new UsageError(`unknown option "${name}"`);
      let value: string | undefined;
      if (eq > 0) value = arg.slice(eq + 1);
      else {
        value = rest[i + 1];
        if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`${name} needs a value`);
        i += 1;
      }
      if (key === 'models') modelFlags.push(value);
      else if (key === 'toolResults') toolFlags.push(value);
      else if (raw[key] !== undefined) throw new UsageError(`${name} was given twice`);
      else raw[key] = value;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option "${arg}"`);
    positional.push(arg);
  }
  if (positional.length > 1) throw new UsageError(`one file at a time (got ${positional.length})`);
  raw.file = positional[0] ?? '';
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid arguments');
  const a = parsed.data;
  const changes = changeRequest(a);
  if (a.post && changes?.kind !== 'ref') throw new UsageError(`--post ${a.post} goes with --changes --base REF (the ${a.post === 'github' ? 'pull' : 'merge'} request's base)`);
  if (a.pr !== undefined && a.post !== 'github') throw new UsageError('--pr goes with --post github');
  if (a.mr !== undefined && a.post !== 'gitlab') throw new UsageError('--mr goes with --post gitlab');
  const models: Record<string, string> = {};
  for (const [agent, model] of a.models) {
    if (models[agent] !== undefined) throw new UsageError(`--model was given twice for "${agent}"`);
    models[agent] = model;
  }
  return {
    command: 'review',
    file: a.file,
    ...(changes ? { changes } : {}),
    ...(a.repo !== undefined ? { repo: a.repo } : {}),
    allFindings: a.allFindings,
    ...(a.lines ? { lines: a.lines } : {}),
    ...(a.agents ? { agents: a.agents } : {}),
    models,
    ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}),
    ...(a.language ? { language: a.language } : {}),
    format: a.format,
    ...(a.output !== undefined ? { output: a.output } : {}),
    noCache: a.noCache,
    ...(a.cacheDir !== undefined ? { cacheDir: a.cacheDir } : {}),
    cacheTtl: a.cacheTtl,
    ...(a.maxConcurrency !== undefined ? { maxConcurrency: a.maxConcurrency } : {}),
    ...(a.timeout !== undefined ? { timeout: a.timeout } : {}),
    failOn: a.failOn,
    noRules: a.noRules,
    context: a.context === 'on',
    ...(a.contextTokens !== undefined ? { contextTokens: a.contextTokens } : {}),
    ...(a.contextSeconds !== undefined ? { contextSeconds: a.contextSeconds } : {}),
    dryRun: a.dryRun,
    minConfidence: a.minConfidence,
    minSeverity: a.minSeverity,
    showHidden: a.showHidden,
    ...(a.post ? { post: a.post } : {}),
    ...(a.pr !== undefined ? { pr: a.pr } : {}),
    ...(a.mr !== undefined ? { mr: a.mr } : {}),
    ...(a.verify !== undefined ? { verify: a.verify } : {}),
    ...(a.toolResults.length > 0 ? { toolResults: a.toolResults } : {}),
  };
}
