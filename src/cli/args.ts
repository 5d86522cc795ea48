import { SEVERITIES } from '../shared/severity';
import * as z from 'zod';
import type { ChangeRequest } from '../core/changes/types';
import { REPORT_FORMATS, type ReportFormat } from '../core/report/render';
import type { VerifyMode } from '../core/settings/schema';
import { checked, readFlags, UsageError, type FlagKinds } from './flags';
import { modelFlags, oneOf, sharedFlags } from './options';

/** The command line of `quorum review`, parsed and validated. Usage errors are `UsageError`s (exit code 2). */

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
  /** `--model agent=model` for the agents of the graph (the verifier's is `verifierModel`). */
  models: Record<string, string>;
  /** `--model verifier=model`: the verifier's model. */
  verifierModel?: string;
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

const REVIEW_FLAGS: FlagKinds = {
  changes: 'switch', staged: 'switch', base: 'value', 'last-commit': 'switch', repo: 'value', 'all-findings': 'switch',
  lines: 'value', agents: 'value', model: 'list', 'base-url': 'value', language: 'value', format: 'value', output: 'value',
  'no-rules': 'switch', context: 'value', 'context-tokens': 'value', 'context-seconds': 'value', 'dry-run': 'switch',
  'no-cache': 'switch', 'cache-dir': 'value', 'cache-ttl': 'value', 'max-concurrency': 'value', timeout: 'value',
  'fail-on': 'value', 'min-confidence': 'value', 'min-severity': 'value', 'show-hidden': 'switch', 'tool-results': 'list',
  post: 'value', pr: 'value', mr: 'value', verify: 'value',
};

const issueNumber = (flag: string, what: string) =>
  z.coerce.number({ error: `${flag} takes ${what} number` }).int(`${flag} takes a whole number`).min(1, `${flag} is at least 1`).optional();

const schema = sharedFlags.extend({
  file: z.string(),
  changes: z.boolean().default(false),
  staged: z.boolean().default(false),
  lastCommit: z.boolean().default(false),
  allFindings: z.boolean().default(false),
  base: z.string().trim().min(1, '--base needs a branch, tag or commit').optional(),
  lines: z
    .string()
    .regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, '--lines takes START-END, e.g. 10-40')
    .transform((s) => {
      const [a = 0, b = a] = s.split('-').map((x) => Number(x.trim()));
      return { start: a, end: b };
    })
    .refine((r) => r.start >= 1 && r.end >= r.start, '--lines needs 1 <= START <= END')
    .optional(),
  format: oneOf(REPORT_FORMATS, `--format is ${REPORT_FORMATS.join(', ')}`).default('text'),
  contextSeconds: z.coerce.number({ error: '--context-seconds takes a number of seconds' }).min(0.1, '--context-seconds is at least 0.1').max(600, '--context-seconds is at most 600').optional(),
  dryRun: z.boolean().default(false),
  failOn: oneOf(FAIL_ON, `--fail-on is one of ${FAIL_ON.join(', ')}`).default('none'),
  minConfidence: z
    .string()
    .regex(/^\s*(0(\.\d+)?|1(\.0+)?|\.\d+)\s*$/, '--min-confidence takes a number from 0 to 1')
    .transform(Number)
    .default(0),
  minSeverity: oneOf(SEVERITIES, `--min-severity is one of ${SEVERITIES.join(', ')}`).default('info'),
  showHidden: z.boolean().default(false),
  post: oneOf(['github', 'gitlab'], '--post takes github or gitlab').optional(),
  mr: issueNumber('--mr', 'a merge request'),
  pr: issueNumber('--pr', 'a pull request'),
  toolResults: z.array(z.string().trim().min(1, '--tool-results needs a SARIF file')).default([]),
});
type Parsed = z.infer<typeof schema>;

/** `--changes` and its kind; a file, `--lines` or a kind without `--changes` is a usage error. */
function changeRequest(a: Parsed): ChangeRequest | undefined {
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

/** `--post`, `--pr` and `--mr` go together, and with a review of a pull or merge request's changes. */
function checkPost(a: Parsed, changes: ChangeRequest | undefined): void {
  if (a.post && changes?.kind !== 'ref') throw new UsageError(`--post ${a.post} goes with --changes --base REF (the ${a.post === 'github' ? 'pull' : 'merge'} request's base)`);
  if (a.pr !== undefined && a.post !== 'github') throw new UsageError('--pr goes with --post github');
  if (a.mr !== undefined && a.post !== 'gitlab') throw new UsageError('--mr goes with --post gitlab');
}

/** Parses `argv` (without `node` and the script). Throws `UsageError` with a one-line message. */
export function parseArgs(argv: readonly string[]): CliArgs {
  if (argv.includes('-h') || argv.includes('--help') || argv[0] === 'help') return { command: 'help' };
  if (argv[0] === '--version' || argv[0] === 'version') return { command: 'version' };
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('missing command; try "quorum review <file>"');
  if (command !== 'review') throw new UsageError(`unknown command "${command}"; try "quorum review <file>"`);
  const { values, positionals } = readFlags(rest, REVIEW_FLAGS, { command: 'review' });
  if (positionals.length > 1) throw new UsageError(`one file at a time (got ${positionals.length})`);
  const a = checked(schema, { ...values, file: positionals[0] ?? '' });
  const changes = changeRequest(a);
  checkPost(a, changes);
  const { model, changes: _changes, staged: _staged, lastCommit: _lastCommit, base: _base, toolResults, ...kept } = a;
  return {
    command: 'review',
    ...kept,
    ...(changes ? { changes } : {}),
    ...modelFlags(model),
    ...(toolResults.length > 0 ? { toolResults } : {}),
  };
}
