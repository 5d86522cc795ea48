import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dismissFinding, isDismissed, readDismissed } from '../../../src/core/memory/dismissed';

const CODE = ['import os', '', 'def run(cmd):', '    os.system("sh -c " + cmd)', '    return 0', '', 'x = 1', ''].join('\n');
const INJECTION = { agents: ['security'], title: 'Command injection in run', startLine: 4, endLine: 4 };

async function dismissed(f = INJECTION, code = CODE) {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-dismiss-'));
  await dismissFinding(dir, { finding: f, text: code, firstLine: 1, file: 'app.py' });
  const read = await readDismissed(dir);
  assert.ok(read.ok);
  return read.entries;
}

describe('isDismissed: the one "is this finding dismissed" check of every face', () => {
  it('matches the same finding again, and stops matching once the code of its lines changes', async () => {
    const entries = await dismissed();
    assert.equal(entries[0]?.lines, 1);
    assert.equal(isDismissed(INJECTION, CODE, 1, entries), true);
    assert.equal(isDismissed(INJECTION, CODE.replace('"sh -c " + cmd', '"sh -c " + cmd + " &"'), 1, entries), false);
  });

  it('matches when the model renames the title (same agent, same lines, same code)', async () => {
    const entries = await dismissed();
    assert.equal(isDismissed({ ...INJECTION, title: 'Shell command built from untrusted input' }, CODE, 1, entries), true);
  });

  it('matches the same rule raised by another agent, or a similar title by another agent; not an unrelated finding of another agent', async () => {
    const entries = await dismissed({ ...INJECTION, cwe: 'CWE-78' } as typeof INJECTION);
    assert.equal(isDismissed({ agents: ['analyst'], cwe: 'CWE-78', title: 'Injection', startLine: 4, endLine: 4 }, CODE, 1, entries), true);
    const byTitle = await dismissed();
    assert.equal(isDismissed({ agents: ['analyst'], title: 'Command injection in run()', startLine: 4, endLine: 4 }, CODE, 1, byTitle), true);
    assert.equal(isDismissed({ agents: ['analyst'], title: 'Return value is ignored', startLine: 4, endLine: 4 }, CODE, 1, byTitle), false);
  });

  it('matches overlapping lines, also after lines were added above (the dismissed code is found where it moved)', async () => {
    const entries = await dismissed();
    assert.equal(isDismissed({ ...INJECTION, startLine: 3, endLine: 5 }, CODE, 1, entries), true);
    const moved = ['# a comment', '# another', CODE].join('\n');
    assert.equal(isDismissed({ ...INJECTION, title: 'Renamed', startLine: 6, endLine: 6 }, moved, 1, entries), true);
    // Lines that do not overlap the dismissed code: another finding.
    assert.equal(isDismissed({ ...INJECTION, startLine: 7, endLine: 7 }, CODE, 1, entries), false);
  });

  it('in another file, the same code matches only the same rule (not a renamed or similar title)', async () => {
    const entries = await dismissed();
    assert.equal(isDismissed({ ...INJECTION, file: 'app.py', title: 'Renamed' }, CODE, 1, entries), true);
    assert.equal(isDismissed({ ...INJECTION, file: 'other.py', title: 'Renamed' }, CODE, 1, entries), false);
    assert.equal(isDismissed({ ...INJECTION, file: 'other.py' }, CODE, 1, entries), true);
  });

  it('entries written before line counts were stored still match at the finding\'s own lines', async () => {
    const entries = (await dismissed()).map(({ lines: _l, ...e }) => e);
    assert.equal(isDismissed(INJECTION, CODE, 1, entries), true);
    assert.equal(isDismissed({ ...INJECTION, startLine: 3, endLine: 5 }, CODE, 1, entries), false);
  });
});
