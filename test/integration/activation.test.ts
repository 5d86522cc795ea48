import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { QuorumApi } from '../../src/vscode/api';

const EXTENSION_ID = 'quorum-dev.quorum';

interface Manifest {
  contributes?: { commands?: { command: string }[] };
}

describe('activation (inside VS Code)', () => {
  it('runs inside a real VS Code', () => {
    assert.ok(vscode.version.length > 0);
    console.log(`    running inside VS Code ${vscode.version} (${vscode.env.appName}, ui kind ${vscode.env.uiKind})`);
  });

  it('activates without errors', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is loaded`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('loads no review engine while activating (so no network I/O), and shows the session cost from the start', async () => {
    const ext = vscode.extensions.getExtension<QuorumApi>(EXTENSION_ID);
    assert.ok(ext);
    const api = await ext.activate();
    assert.equal(api.activation.engineLoaded, false, 'activate() leaves the engine (settings, gateway, pipeline) to the first use');
    assert.match(api.activation.statusBarText, /^\$\(pulse\) \$0\.00$/);
    // The engine (loaded by the first use of its API, or by the suites before this one) has taken the status bar over.
    assert.match(api.cost.statusBar.text, /^\$\(pulse\) (\$\d+\.\d+|<\$0\.0001)$/);
    // A figure, not an assertion: how long activate() took, as logged.
    const entries = await vscode.workspace.fs.readDirectory(api.logUri);
    for (const [name] of entries.filter(([n]) => n.endsWith('.log'))) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(api.logUri, name)));
      const m = /activated in (\d+) ms/.exec(text);
      if (m) console.log(`    activate() took ${m[1]} ms`);
      const engine = /review engine loaded in (\d+) ms \(first needed by ([^)\n]+)\)/.exec(text);
      if (engine) console.log(`    the review engine took ${engine[1]} ms to load, first needed by ${engine[2]}`);
    }
  });

  it('registers every contributed command', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const manifest = ext.packageJSON as Manifest;
    const contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length >= 8);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });
});
