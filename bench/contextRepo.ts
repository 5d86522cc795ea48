/**
 * `npm run bench:context -- --repo DIR --base REF`: the context of a real repository's change, as a new user meets
 * it: `quorum review --changes --base REF --dry-run` (nothing is sent) run by the built CLI (dist/cli.js) three
 * times, each in a process of its own:
 *   off     `--context off`: the baseline
 *   cold    context on, an empty cache folder (a first review, or CI without its cache)
 *   warm    context on again with that cache folder (a second review of the change: the context chosen for each
 *           batch is kept under a key of the working tree, so it is read again, not looked up)
 *   lookup  context on again with `--context-tokens` one more than the default: another key, so every batch's
 *           context is looked up in the warm index (what a review of the next commit pays, less reading its changed files)
 * For each: wall milliseconds, the process's CPU milliseconds and its peak resident memory (from the process itself
 * at exit: `process.resourceUsage().maxRSS`), and the CLI's own lines on the context ("context: …", "context
 * index: … files, … read, … parsed"). `coldAddedMs`/`warmAddedMs` are the wall time context adds to the baseline.
 * `--context-seconds N` is passed on (default: the CLI's). Prints one JSON line. Also the machine's load average:
 * on a shared machine the wall time also counts waiting for a core.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface Run {
  ms: number;
  cpuMs: number;
  peakMb: number;
  context: string;
  index: { files: number; read: number; parsed: number } | undefined;
}

const root = resolve(__dirname, '..');
const cli = join(root, 'dist', 'cli.js');

/** Writes the process's CPU time and peak memory to the file the bench names, when the CLI exits. */
const PRELOAD = `process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(process.env.QUORUM_BENCH_USAGE, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS })); });`;

function runCli(dir: string, args: string[], work: string): Promise<Run> {
  const usage = join(work, 'usage.json');
  const preload = join(work, 'usage.cjs');
  writeFileSync(preload, PRELOAD);
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-r', preload, cli, ...args], { cwd: dir, env: { ...process.env, QUORUM_BENCH_USAGE: usage }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = Math.round(performance.now() - started);
      if (code !== 0) return fail(new Error(`quorum ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`));
      const u = JSON.parse(readFileSync(usage, 'utf8')) as { cpuMs: number; maxRssKb: number };
      const index = /context index: ([\d,]+) files?, ([\d,]+) read, ([\d,]+) parsed/.exec(stderr);
      const n = (s: string | undefined) => Number((s ?? '0').replace(/,/g, ''));
      done({
        ms,
        cpuMs: Math.round(u.cpuMs),
        peakMb: Math.round(u.maxRssKb / 1024),
        context: /context: [^\n]*/.exec(stderr)?.[0].slice(0, 200) ?? '',
        index: index ? { files: n(index[1]), read: n(index[2]), parsed: n(index[3]) } : undefined,
      });
    });
  });
}

export async function benchRepository(dir: string, base: string, contextSeconds: string | undefined): Promise<void> {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: npm run build first');
  const work = mkdtempSync(join(tmpdir(), 'quorum-bench-repo-'));
  const cache = join(work, 'cache');
  const review = (context: 'on' | 'off', extra: string[] = []) => ['review', '--changes', '--base', base, '--dry-run', '--context', context, '--cache-dir', cache, ...(contextSeconds ? ['--context-seconds', contextSeconds] : []), ...extra];
  try {
    const off = await runCli(dir, review('off'), work);
    const cold = await runCli(dir, review('on'), work);
    const warm = await runCli(dir, review('on'), work);
    const lookup = await runCli(dir, review('on', ['--context-tokens', '3001']), work);
    const out = {
      repo: dir,
      base,
      files: cold.index?.files,
      offMs: off.ms,
      coldMs: cold.ms,
      warmMs: warm.ms,
      lookupMs: lookup.ms,
      coldAddedMs: cold.ms - off.ms,
      warmAddedMs: warm.ms - off.ms,
      lookupAddedMs: lookup.ms - off.ms,
      offCpuMs: off.cpuMs,
      coldCpuMs: cold.cpuMs,
      warmCpuMs: warm.cpuMs,
      lookupCpuMs: lookup.cpuMs,
      offPeakMb: off.peakMb,
      coldPeakMb: cold.peakMb,
      warmPeakMb: warm.peakMb,
      lookupPeakMb: lookup.peakMb,
      coldIndex: cold.index,
      warmIndex: warm.index,
      lookupIndex: lookup.index,
      coldContext: cold.context,
      warmContext: warm.context,
      lookupContext: lookup.context,
      load1: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
