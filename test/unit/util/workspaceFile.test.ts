import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceFile } from '../../../src/core/util/workspaceFile';

describe('workspaceFile: what the panel may open of a path the page names', () => {
  let dir: string;
  let ws: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'quorum-wsfile-'));
    ws = join(dir, 'ws');
    mkdirSync(join(ws, 'repo', 'src'), { recursive: true });
    writeFileSync(join(ws, 'repo', 'src', 'rates.ts'), 'export const x = 1;\n');
    writeFileSync(join(dir, 'outside.ts'), 'secret\n');
    symlinkSync(join(dir, 'outside.ts'), join(ws, 'repo', 'src', 'link.ts'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('opens a file of the workspace named relative to the context root', async () => {
    assert.deepEqual(await workspaceFile(join(ws, 'repo'), 'src/rates.ts', [ws]), { path: join(ws, 'repo', 'src', 'rates.ts') });
  });

  it('refuses absolute paths, climbs out of the workspace, and links that point out of it', async () => {
    for (const file of [join(dir, 'outside.ts'), '/etc/passwd', 'C:\\Windows\\win.ini', '\\\\server\\share\\x', '../../outside.ts', 'src/../../../outside.ts', 'src/link.ts', '']) {
      assert.deepEqual(await workspaceFile(join(ws, 'repo'), file, [ws]), { refused: 'outside' }, file);
    }
  });

  it('refuses a root outside every workspace folder, and says when the file is gone', async () => {
    assert.deepEqual(await workspaceFile(dir, 'outside.ts', [ws]), { refused: 'outside' });
    assert.deepEqual(await workspaceFile(join(ws, 'repo'), 'src/gone.ts', [ws]), { refused: 'missing' });
    assert.deepEqual(await workspaceFile(join(ws, 'repo'), 'src/rates.ts', []), { refused: 'outside' }, 'no workspace folder: nothing opens');
  });
});
