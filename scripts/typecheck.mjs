// Type-checks every project: one tsconfig per layer under src/ (each with only the libraries and ambient
// types its layer may use) and the root one for tests, benchmarks and scripts. Runs them all, prints every
// error, and exits non-zero when any project failed. `npm run typecheck -- core webview` checks only those.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

export const PROJECTS = {
  shared: 'src/shared/tsconfig.json',
  webview: 'src/webview/tsconfig.json',
  core: 'src/core/tsconfig.json',
  cli: 'src/cli/tsconfig.json',
  vscode: 'src/vscode/tsconfig.json',
  tests: 'tsconfig.json',
};

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const only = process.argv.slice(2);
const failed = [];
for (const [name, project] of Object.entries(PROJECTS)) {
  if (only.length && !only.includes(name)) continue;
  const r = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { stdio: 'inherit' });
  console.log(`typecheck ${name} (${project}): ${r.status === 0 ? 'ok' : 'FAILED'}`);
  if (r.status !== 0) failed.push(name);
}
if (failed.length) {
  console.error(`typecheck failed: ${failed.join(', ')}`);
  process.exit(1);
}
