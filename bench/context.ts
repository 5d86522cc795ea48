/**
 * `npm run bench:context`: the context of a changes review on a generated repository, from the tree-sitter index.
 *
 * The repository (real git, in a temporary folder) holds FILES source files in four languages (TypeScript, Python,
 * Go, Java; about 50 lines each: three functions or methods, a class, calls into other files). The change edits 40
 * of them (ten per language): each adds a call to a function defined in another file, the definition the review
 * needs (`definitionsExpected`). The changes are collected and planned as `quorum review --changes` does
 * (src/core/changes), then:
 *   firstReviewContextMs  the context of every batch in a repository never indexed (empty cache folder, tree-sitter
 *                         not loaded yet): only what the change reaches is parsed
 *   indexColdMs           a whole index from nothing (another empty cache folder): list, parse every file, save
 *   indexWarmMs           the same index opened again with nothing changed: list with blob hashes, read it back
 *   contextMs             the context of every batch with the warm index (what a second review pays)
 *   contextTokens         the tokens of that context over every batch
 *   definitionsFound      expected definitions present in the context
 * All in this one process, on one core (git runs in child processes). Each figure is wall time; the `…CpuMs` beside
 * it is this process's CPU time over the same span (on a shared machine the wall time also counts waiting for a
 * core). Also prints the machine's load average. BENCH_FILES sets the number of files (default 5000).
 *
 * With `--repo DIR --base REF` (and optionally `--context-seconds N`) it measures a real repository's change
 * instead, through the built command line: see contextRepo.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { collectChanges } from '../src/core/changes/collect';
import { GitCliSource } from '../src/core/changes/gitCli';
import { planChanges } from '../src/core/changes/plan';
import { RepositoryIndex } from '../src/core/context/repoIndex';
import { addContext } from '../src/core/context/step';
import { createExcluder } from '../src/core/prompt/exclude';
import { SecretRedactor } from '../src/core/redaction/redactor';
import type { ReviewTarget } from '../src/core/domain/target';
import { loadTokenizer } from '../src/core/tokens/count';
import { benchRepository } from './contextRepo';

const FILES = Number(process.env.BENCH_FILES ?? 5000);
const CHANGED_PER_LANGUAGE = 10;
const LANGUAGES = ['ts', 'py', 'go', 'java'] as const;
type Lang = (typeof LANGUAGES)[number];

const perLanguage = Math.floor(FILES / LANGUAGES.length);
const pathOf = (lang: Lang, i: number) => ({ ts: `src/ts/mod${i}.ts`, py: `src/py/mod${i}.py`, go: `src/go/mod${i}.go`, java: `src/java/Mod${i}.java` })[lang];
const fn = (lang: Lang, i: number, k: number) => (lang === 'go' ? `Fn${i}x${k}` : `fn${i}x${k}`);
const other = (i: number, step: number) => (i + step) % perLanguage;

function source(lang: Lang, i: number, extra?: string): string {
  const callee = other(i, 7);
  const body = (indent: string, end: string) => Array.from({ length: 8 }, (_, k) => `${indent}total = total + ${k} * a${end}`);
  switch (lang) {
    case 'ts':
      return [
        `import { ${fn('ts', callee, 0)} } from './mod${callee}';`, '',
        `export function ${fn('ts', i, 0)}(a: number): number {`, '  let total = 0;', ...body('  ', ';'), ...(extra ? [extra] : []), `  return total + ${fn('ts', callee, 0)}(a - 1);`, '}', '',
        `export function ${fn('ts', i, 1)}(a: number): number {`, '  let total = 1;', ...body('  ', ';'), '  return total;', '}', '',
        `export class Widget${i} {`, '  size = 0;', `  ${fn('ts', i, 2)}(a: number): number {`, '    let total = this.size;', ...body('    ', ';'), '    return total;', '  }', '}', '',
      ].join('\n');
    case 'py':
      return [
        `from mod${callee} import ${fn('py', callee, 0)}`, '', '',
        `def ${fn('py', i, 0)}(a):`, '    total = 0', ...body('    ', ''), ...(extra ? [extra] : []), `    return total + ${fn('py', callee, 0)}(a - 1)`, '', '',
        `def ${fn('py', i, 1)}(a):`, '    total = 1', ...body('    ', ''), '    return total', '', '',
        `class Widget${i}:`, '    size = 0', '', `    def ${fn('py', i, 2)}(self, a):`, '        total = self.size', ...body('        ', ''), '        return total', '',
      ].join('\n');
    case 'go':
      return [
        'package app', '',
        `func ${fn('go', i, 0)}(a int) int {`, '\ttotal := 0', ...body('\t', ''), ...(extra ? [extra] : []), `\treturn total + ${fn('go', callee, 0)}(a-1)`, '}', '',
        `func ${fn('go', i, 1)}(a int) int {`, '\ttotal := 1', ...body('\t', ''), '\treturn total', '}', '',
        `type Widget${i} struct{ size int }`, '',
        `func (w *Widget${i}) ${fn('go', i, 2)}(a int) int {`, '\ttotal := w.size', ...body('\t', ''), '\treturn total', '}', '',
      ].join('\n');
    case 'java':
      return [
        `public class Mod${i} {`,
        `    public static int ${fn('java', i, 0)}(int a) {`, '        int total = 0;', ...body('        ', ';'), ...(extra ? [extra] : []), `        return total + Mod${callee}.${fn('java', callee, 0)}(a - 1);`, '    }', '',
        `    public static int ${fn('java', i, 1)}(int a) {`, '        int total = 1;', ...body('        ', ';'), '        return total;', '    }', '',
        `    public int ${fn('java', i, 2)}(int a) {`, '        int total = 0;', ...body('        ', ';'), '        return total;', '    }', '}', '',
      ].join('\n');
  }
}

/** The line a changed file gains: a call to another file's function, whose definition the review needs. */
function addedCall(lang: Lang, i: number): { line: string; name: string; file: string } {
  const t = other(i, 13);
  const name = fn(lang, t, 1);
  const line = { ts: `  total = total + ${name}(total);`, py: `    total = total + ${name}(total)`, go: `\ttotal = total + ${name}(total)`, java: `        total = total + Mod${t}.${name}(total);` }[lang];
  return { line, name, file: pathOf(lang, t) };
}

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 256 << 20 });

async function contextOf(batches: ReviewTarget[], root: string, cacheDir: string) {
  const step = await addContext(batches, { root, cacheDir, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20, maxTokens: 3000, redactor: new SecretRedactor() });
  return step;
}

/** Runs `work`, timing it: wall milliseconds and this process's CPU milliseconds. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { value, ms: Math.round(performance.now() - t), cpuMs: Math.round((used.user + used.system) / 1000) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-bench-context-'));
  try {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'bench@example.invalid');
    git(dir, 'config', 'user.name', 'Bench');
    for (const lang of LANGUAGES) {
      for (let i = 0; i < perLanguage; i++) {
        const file = join(dir, pathOf(lang, i));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, source(lang, i));
      }
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'generated');
    const expected: { file: string; name: string }[] = [];
    for (const lang of LANGUAGES) {
      for (let n = 0; n < CHANGED_PER_LANGUAGE; n++) {
        const i = Math.floor((n * perLanguage) / CHANGED_PER_LANGUAGE) + 3;
        const call = addedCall(lang, i);
        writeFileSync(join(dir, pathOf(lang, i)), source(lang, i, call.line));
        expected.push({ file: call.file, name: call.name });
      }
    }
    await loadTokenizer();
    const source_ = await GitCliSource.open(dir);
    const set = await collectChanges(source_, { kind: 'uncommitted' }, { maxFileBytes: 1 << 20 });
    const plan = planChanges(set, { contextLines: 10, batchTokens: 12_000 });

    const firstCache = mkdtempSync(join(tmpdir(), 'quorum-bench-context-cache-'));
    const first = await timed(() => contextOf(plan.batches, dir, firstCache));

    const coldCache = mkdtempSync(join(tmpdir(), 'quorum-bench-context-cache-'));
    const options = { root: dir, cacheDir: coldCache, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20 };
    const cold = await timed(async () => {
      const index = await RepositoryIndex.open(options);
      if (!index) throw new Error('not a repository');
      await index.complete();
      await index.save();
      return index;
    });
    const files = cold.value.size.files;
    const warm = await timed(async () => {
      const index = await RepositoryIndex.open(options);
      await index?.complete();
      return index;
    });
    if (warm.value?.size.parsedNow !== 0) throw new Error(`the warm index parsed ${warm.value?.size.parsedNow} files`);
    const context = await timed(() => contextOf(plan.batches, dir, coldCache));
    const step = context.value;

    const snippets = step.targets.flatMap((b) => b.context ?? []);
    const firstSnippets = first.value.targets.flatMap((b) => b.context ?? []);
    const found = (list: typeof snippets) => expected.filter((e) => list.some((s) => s.kind === 'definition' && s.file === e.file && s.symbol.endsWith(e.name))).length;
    const out = {
      files,
      changedFiles: plan.files,
      batches: plan.batches.length,
      indexColdMs: cold.ms,
      indexWarmMs: warm.ms,
      contextMs: context.ms,
      contextTokens: snippets.reduce((n, s) => n + s.tokens, 0),
      definitionsFound: found(snippets),
      definitionsExpected: expected.length,
      firstReviewContextMs: first.ms,
      firstReviewDefinitionsFound: found(firstSnippets),
      indexColdCpuMs: cold.cpuMs,
      indexWarmCpuMs: warm.cpuMs,
      contextCpuMs: context.cpuMs,
      firstReviewContextCpuMs: first.cpuMs,
      load1: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
    rmSync(firstCache, { recursive: true, force: true });
    rmSync(coldCache, { recursive: true, force: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The value after `flag` on the command line. */
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

const repo = flag('--repo');
const base = flag('--base');
if ((repo === undefined) !== (base === undefined)) {
  console.error('bench:context: --repo DIR and --base REF go together');
  process.exit(2);
}
(repo !== undefined && base !== undefined ? benchRepository(repo, base, flag('--context-seconds')) : main()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
