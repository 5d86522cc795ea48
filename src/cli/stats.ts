import { join, resolve } from 'node:path';
import * as z from 'zod';
import { readOutcomes } from '../core/outcomes/observe';
import { outcomeProblemLine } from './outcomes';
import { addressedRate, outcomeStats, refutedRate, usdPerAddressed, type OutcomeCounts, type OutcomeStats } from '../core/outcomes/stats';
import { OutcomeStore } from '../core/outcomes/store';
import { formatUsd } from '../shared/format';
import { terminalText } from '../shared/untrustedText';
import { checked, commandArgs, readFlags, type FlagKinds } from './flags';
import { oneOf, sharedFlags } from './options';
import { defaultCacheDir } from '../core/util/cacheDir';
import { EXIT, type CliIo } from './exit';
import { findRepositoryRoot } from './repository';

/**
 * `quorum stats`: what became of the findings Quorum showed in a repository (core/outcomes), per agent, model and
 * severity, as a table or as JSON (`{"findings", "byAgent", "byModel", "bySeverity"}`, documented in the README).
 */

const STATS_USAGE = `usage: quorum stats [--since DATE] [--format text|json] [--repo DIR] [--cache-dir DIR]

What became of the findings Quorum showed in the repository (kept in the cache folder after each review):
raised, addressed (its lines changed and it was not raised again, or its pull-request thread resolved by a
push), dismissed, open, gone (its file deleted or its lines no longer reviewed), refuted by the verifier, and
what they cost, per agent, per model and per severity.

  --since DATE       only findings first raised on or after DATE (2026-11-30, or an ISO date and time)
  --format FORMAT    text (default) or json
  --repo DIR         the repository (default: the current folder's)
  --cache-dir DIR    the cache folder (default: $XDG_CACHE_HOME/quorum, else ~/.cache/quorum)`;

const STATS_FLAGS: FlagKinds = { since: 'value', format: 'value', repo: 'value', 'cache-dir': 'value' };

const statsSchema = sharedFlags.pick({ repo: true, cacheDir: true }).extend({
  since: z
    .string()
    .trim()
    .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), '--since takes a date such as 2026-11-30')
    .transform((s) => Date.parse(s))
    .optional(),
  format: oneOf(['text', 'json'], '--format is text or json').default('text'),
});
type StatsArgs = z.infer<typeof statsSchema>;

/** Parses the arguments after `stats`; throws `UsageError`. */
function parseStatsArgs(argv: readonly string[]): StatsArgs {
  const { values } = readFlags(argv, STATS_FLAGS, { command: 'stats', positional: (word) => `quorum stats takes no "${word}"` });
  return checked(statsSchema, values);
}

const percent = (r: number | undefined) => (r === undefined ? '–' : `${Math.round(r * 100)}%`);
const COLUMNS = ['raised', 'addressed', 'dismissed', 'open', 'gone', 'refuted'] as const;

/** One table: a row per key, the counts, the rates and dollars per addressed finding. */
function table(title: string, rows: Record<string, OutcomeCounts>): string[] {
  const names = Object.keys(rows).map((k) => terminalText(k || '(unknown)'));
  const width = Math.max(title.length, ...names.map((n) => n.length));
  const head = [title.padEnd(width), ...COLUMNS.map((c) => c.padStart(9)), 'addr.rate'.padStart(10), 'refuted%'.padStart(9), '$/addressed'.padStart(12), 'cost'.padStart(10)].join(' ');
  const lines = Object.values(rows).map((c, i) =>
    [(names[i] ?? '').padEnd(width), ...COLUMNS.map((k) => String(c[k]).padStart(9)), percent(addressedRate(c)).padStart(10), percent(refutedRate(c)).padStart(9), (usdPerAddressed(c) === undefined ? '–' : formatUsd(usdPerAddressed(c) ?? 0)).padStart(12), formatUsd(c.costUsd).padStart(10)].join(' '),
  );
  return [head, ...lines];
}

function renderStatsText(stats: OutcomeStats): string {
  return [`${stats.findings} finding${stats.findings === 1 ? '' : 's'}`, '', ...table('agent', stats.byAgent), '', ...table('model', stats.byModel), '', ...table('severity', stats.bySeverity), ''].join('\n');
}

/** `quorum stats …`: the exit code. */
export function runStatsCommand(io: CliIo, fail: (message: string) => number): number {
  const args = commandArgs(io, 'stats', STATS_USAGE, parseStatsArgs, fail);
  if (typeof args === 'number') return args;
  const dir = resolve(io.cwd ?? process.cwd(), args.repo ?? '.');
  // The repository of the folder: findRepositoryRoot looks from a file's folder up.
  const root = findRepositoryRoot(join(dir, 'any-file'));
  if (!root) return fail(`${dir} is not in a repository (no .git or .quorum above it); give --repo DIR`);
  const store = new OutcomeStore({ dir: args.cacheDir ?? defaultCacheDir(io.env), root });
  const records = readOutcomes(store, (p) => io.stderr.write(`quorum: ${outcomeProblemLine(p)}\n`));
  const stats = outcomeStats(records, args.since !== undefined ? { since: args.since } : {});
  if (args.format === 'json') io.stdout.write(JSON.stringify(stats) + '\n');
  else if (stats.findings === 0) io.stdout.write(records.length === 0 ? `no review outcomes recorded yet for ${terminalText(root)}\n` : 'no findings raised in that period\n');
  else io.stdout.write(renderStatsText(stats));
  return EXIT.ok;
}
