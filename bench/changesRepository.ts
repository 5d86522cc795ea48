// The generated repository of `npm run bench:changes` (bench/changes.ts): real git, in a temporary folder, with a
// `main` branch and a `feature` branch that changes 60 files (46 edited in one to three places, in eight languages;
// 10 new files; a renamed file with an edit; a lockfile; a binary file; a deleted file). Seeded: every run the same.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A small seeded generator, so that every run reviews the same repository. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const random = rng(11);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
/** The `i`th of `list`, round and round. */
function nth<T>(list: readonly T[], i: number): T {
  const item = list[i % list.length];
  if (item === undefined) throw new Error('an empty list');
  return item;
}

const LANGS: { ext: string; fn: (name: string, body: string[]) => string[] }[] = [
  { ext: 'ts', fn: (n, b) => [`export function ${n}(input: string[]): number {`, ...b.map((l) => `  ${l};`), '  return input.length;', '}', ''] },
  { ext: 'py', fn: (n, b) => [`def ${n}(items):`, ...b.map((l) => `    ${l.replace(/const |let /, '')}`), '    return len(items)', ''] },
  { ext: 'go', fn: (n, b) => [`func ${n}(items []string) int {`, ...b.map((l) => `\t${l.replace(/const |let /, '')}`), '\treturn len(items)', '}', ''] },
  { ext: 'java', fn: (n, b) => [`  public int ${n}(List<String> items) {`, ...b.map((l) => `    ${l.replace(/const |let /, 'var ')};`), '    return items.size();', '  }', ''] },
  { ext: 'rs', fn: (n, b) => [`pub fn ${n}(items: &[String]) -> usize {`, ...b.map((l) => `    ${l.replace(/const |let /, 'let ')};`), '    items.len()', '}', ''] },
  { ext: 'js', fn: (n, b) => [`function ${n}(items) {`, ...b.map((l) => `  ${l};`), '  return items.length;', '}', ''] },
  { ext: 'rb', fn: (n, b) => [`def ${n}(items)`, ...b.map((l) => `  ${l.replace(/const |let /, '')}`), '  items.size', 'end', ''] },
  { ext: 'c', fn: (n, b) => [`int ${n}(const char **items, int n) {`, ...b.map((l) => `  ${l.replace(/const |let /, 'int ')};`), '  return n;', '}', ''] },
];
const WORDS = ['total', 'count', 'index', 'value', 'result', 'buffer', 'offset', 'limit', 'price', 'order', 'user', 'token', 'cache', 'retry'];
const statement = () => `${pick(['const', 'let'])} ${pick(WORDS)}_${between(1, 99)} = ${pick(WORDS)}_${between(1, 99)} ${pick(['+', '-', '*'])} ${between(1, 500)}`;

/** A source file of about `lines` lines in the language of `ext`. */
function source(ext: string, lines: number): string[] {
  const lang = LANGS.find((l) => l.ext === ext) ?? nth(LANGS, 0);
  const out: string[] = [`// generated for bench:changes (${ext})`, ''];
  let n = 0;
  while (out.length < lines) out.push(...lang.fn(`${pick(WORDS)}${n++}`, Array.from({ length: between(3, 12) }, statement)));
  return out;
}

/** Edits one to three places of a file: a few lines replaced, added or removed in each. */
function edit(lines: string[]): string[] {
  const out = [...lines];
  const places = between(1, 3);
  for (let i = 0; i < places; i++) {
    const at = between(2, Math.max(2, out.length - 8));
    const kind = between(0, 2);
    if (kind === 0) out.splice(at, between(1, 4), ...Array.from({ length: between(1, 5) }, statement));
    else if (kind === 1) out.splice(at, 0, ...Array.from({ length: between(1, 6) }, statement));
    else out.splice(at, between(1, 3));
  }
  return out;
}

export interface Repo {
  dir: string;
  changed: number;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: dir, encoding: 'utf8' });
}

function write(dir: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

export function generateRepository(): Repo {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-bench-changes-'));
  git(dir, 'init', '-q');
  const files = new Map<string, string[]>();
  // 46 existing files to edit: 20 small, 18 medium, 8 large; a file to rename, one to delete, a lockfile, a binary.
  const sized = (n: number, lo: number, hi: number) => Array.from({ length: n }, (): [number, number] => [lo, hi]);
  const sizes = [...sized(20, 30, 90), ...sized(18, 150, 450), ...sized(8, 1200, 2500)];
  sizes.forEach(([lo, hi], i) => {
    const ext = nth(LANGS, i).ext;
    files.set(`src/${['core', 'api', 'util', 'jobs'][i % 4]}/module${i}.${ext}`, source(ext, between(lo, hi)));
  });
  files.set('src/legacy/old_name.py', source('py', 220));
  files.set('src/legacy/obsolete.go', source('go', 160));
  for (const [path, lines] of files) write(dir, path, lines.join('\n') + '\n');
  write(dir, 'package-lock.json', JSON.stringify({ name: 'bench', lockfileVersion: 3, packages: { '': { version: '1.0.0' } } }, null, 2) + '\n');
  write(dir, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 0, 4, 5]));
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  git(dir, 'checkout', '-qb', 'feature');

  let changed = 0;
  for (const [path, lines] of files) {
    if (path.startsWith('src/legacy/')) continue;
    write(dir, path, edit(lines).join('\n') + '\n');
    changed++;
  }
  for (let i = 0; i < 10; i++) {
    const ext = nth(LANGS, i).ext;
    write(dir, `src/features/new${i}.${ext}`, source(ext, between(25, 120)).join('\n') + '\n');
    changed++;
  }
  git(dir, 'mv', 'src/legacy/old_name.py', 'src/legacy/new_name.py');
  write(dir, 'src/legacy/new_name.py', edit(files.get('src/legacy/old_name.py') ?? []).join('\n') + '\n');
  git(dir, 'rm', '-q', 'src/legacy/obsolete.go');
  write(dir, 'package-lock.json', JSON.stringify({ name: 'bench', lockfileVersion: 3, packages: { '': { version: '1.1.0' } } }, null, 2) + '\n');
  write(dir, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 9, 9, 9, 0, 4, 5]));
  changed += 4;
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'feature');
  return { dir, changed };
}
