// Installs the packaged .vsix into the VS Code on this machine (`code --install-extension`), or, on the
// offline machines, into the toolchain's code-server. Prints what it did and where the .vsix is.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const vsix = resolve(process.argv[2] ?? 'quorum.vsix');
if (!existsSync(vsix)) {
  console.error(`install-vsix: ${vsix} does not exist; run "npm run package" first`);
  process.exit(2);
}
const candidates = ['code', 'code-insiders', 'codium', 'cursor'];
if (process.env.CS_HOME) candidates.push(join(process.env.CS_HOME, 'code-server/node_modules/.bin/code-server'));
candidates.push('code-server');
for (const cli of candidates) {
  const probe = spawnSync(cli, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) continue;
  const r = spawnSync(cli, ['--install-extension', vsix, '--force'], { stdio: 'inherit' });
  if (r.status === 0) {
    console.log(`Installed ${vsix} with ${cli}. Reload VS Code, select code and run "Quorum: Review Selection".`);
    process.exit(0);
  }
  console.error(`install-vsix: "${cli} --install-extension" failed (exit ${r.status})`);
  process.exit(1);
}
console.log(`No VS Code command line found on PATH. Install ${vsix} from VS Code: Extensions view → … → Install from VSIX…`);
