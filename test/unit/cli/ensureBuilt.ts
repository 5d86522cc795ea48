import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(__dirname, '..', '..', '..');
export const cliPath = join(root, 'dist', 'cli.js');

function newestSource(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestSource(join(path, name))), 0);
}

/** Builds dist/cli.js with the project's esbuild.js when it is missing or older than what it is built from. */
export function ensureBuilt(): void {
  let built: number;
  try {
    built = statSync(cliPath).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = ['src/cli', 'src/core', 'src/shared', 'package.json'].map((p) => newestSource(join(root, p)));
  if (built > Math.max(...sources)) return;
  const r = spawnSync(process.execPath, ['esbuild.js'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}
