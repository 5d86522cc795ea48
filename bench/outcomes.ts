/**
 * `npm run bench:outcomes`: the outcome store (core/outcomes) as a CI fleet uses it — several processes appending
 * to one repository's store in a shared cache folder — and the outcome rule over a large history.
 *
 * Prints one JSON line:
 *   writers, appendsPerWriter   processes appending at once, and snapshots each appends (one append per snapshot)
 *   appendWallMs                wall time until every writer finished (the lock taken per append)
 *   appendsPerSecond            snapshots appended per second, all writers together
 *   lost                        snapshots written but not read back (must be 0)
 *   records, fileBytes          records in the store and its size on disk
 *   readMs                      reading the store back (parse, validate, fold), median of 5
 *   decideMs                    the outcome rule for a review raising 200 findings over those records, median of 5
 *   statsMs                     `quorum stats`' figures over those records, median of 5
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideOutcomes } from '../src/core/outcomes/decide';
import { outcomeStats } from '../src/core/outcomes/stats';
import { OutcomeStore } from '../src/core/outcomes/store';

const WRITERS = 4;
const PER_WRITER = 500;
const ROOT = '/bench/repository';
const WRITER = join(__dirname, '..', 'test', 'fixtures', 'outcomeWriter.ts');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
function timed(fn: () => unknown, runs = 5): number {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return Math.round(median(ms) * 10) / 10;
}

function writer(dir: string, tag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, ROOT, tag, String(PER_WRITER)], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-bench-outcomes-'));
  try {
    const started = performance.now();
    const codes = await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(dir, `${i}`.padStart(2, '0'))));
    const appendWallMs = Math.round(performance.now() - started);
    if (codes.some((c) => c !== 0)) throw new Error(`a writer failed: ${codes.join(', ')}`);
    const store = new OutcomeStore({ dir, root: ROOT });
    const records = store.read().records;
    const raised = records.slice(0, 200).map((r) => ({ finding: { file: r.file, agents: r.agents.map((a) => a.agent), title: `${r.title} again`, severity: r.severity, startLine: r.startLine, endLine: r.endLine }, rule: r.rule, code: r.code, lines: r.lines, agents: r.agents }));
    const files = [...new Set(records.map((r) => r.file))].map((file) => ({ file, text: 'x = 1\ny = 2\n', whole: true, reviewed: [{ start: 1, end: 2 }] }));
    console.log(JSON.stringify({
      writers: WRITERS,
      appendsPerWriter: PER_WRITER,
      appendWallMs,
      appendsPerSecond: Math.round((WRITERS * PER_WRITER) / (appendWallMs / 1000)),
      lost: WRITERS * PER_WRITER - records.length,
      records: records.length,
      fileBytes: statSync(store.path).size,
      readMs: timed(() => store.read()),
      decideMs: timed(() => decideOutcomes(records, { at: Date.now(), files, raised })),
      statsMs: timed(() => outcomeStats(records)),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
