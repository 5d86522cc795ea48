import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeRemote } from '../../../src/core/context/indexKey';
import { RepositoryIndex } from '../../../src/core/context/repoIndex';
import { createExcluder } from '../../../src/core/prompt/exclude';
import { TempRepo } from '../changes/gitRepo';

/** Which index a checkout uses: the same in every folder a CI runner clones the repository into. */

describe('context: the index of a repository wherever it is checked out', function () {
  this.timeout(60_000);
  let repo: TempRepo;
  let cacheDir: string;
  const clones: string[] = [];
  const options = (root: string) => ({ root, cacheDir, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20 });
  const clone = (url: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'quorum-context-clone-'));
    clones.push(dir);
    execFileSync('git', ['clone', '-q', repo.dir, dir]);
    execFileSync('git', ['remote', 'set-url', 'origin', url], { cwd: dir });
    return dir;
  };
  const firstRun = async (root: string) => {
    const index = await RepositoryIndex.open(options(root));
    assert.ok(index);
    await index.scan();
    await index.save();
    return index.readNow;
  };

  beforeEach(() => {
    repo = new TempRepo();
    cacheDir = mkdtempSync(join(tmpdir(), 'quorum-context-cache-'));
    for (let i = 0; i < 6; i++) repo.write(`src/m${i}.py`, `def f${i}(x):\n    return x + ${i}\n`);
    repo.commit();
  });
  afterEach(() => {
    repo.dispose();
    for (const dir of clones.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("a job in another folder reads the index the last one saved: the key is the repository's origin, without its credentials", async () => {
    assert.equal(await firstRun(clone('https://gitlab-ci-token:glcbt-secret@gitlab.example.com/group/project.git')), 6);
    assert.equal(await firstRun(clone('https://gitlab.example.com/group/project')), 0, 'nothing read again');
    assert.equal(await firstRun(clone('git@GitLab.example.com:group/project.git')), 0);
    assert.equal(readdirSync(join(cacheDir, 'context')).length, 1);
    assert.equal(await firstRun(clone('https://gitlab.example.com/group/other-project.git')), 6, 'another repository has an index of its own');
  });

  it('a worktree shares its repository index; a repository without an origin is known by its folder', async () => {
    const worktree = join(mkdtempSync(join(tmpdir(), 'quorum-context-wt-')), 'wt');
    clones.push(worktree);
    assert.equal(await firstRun(repo.dir), 6);
    repo.git('worktree', 'add', '-q', worktree);
    assert.equal(await firstRun(worktree), 6, 'no origin: another folder, another index');
    repo.git('remote', 'add', 'origin', 'https://example.com/acme/widgets.git');
    assert.equal(await firstRun(repo.dir), 6);
    assert.equal(await firstRun(worktree), 0, "the worktree reads its repository's config");
  });

  it('normalizes the forms of one remote to one', () => {
    const forms = ['https://github.com/acme/widgets', 'https://github.com/acme/widgets.git', 'https://x-access-token:ghs_abc@github.com/acme/widgets.git', 'git@github.com:acme/widgets.git', 'ssh://git@GitHub.com/acme/widgets.git/', 'http://github.com/acme/widgets'];
    assert.deepEqual([...new Set(forms.map(normalizeRemote))], ['github.com/acme/widgets']);
    assert.notEqual(normalizeRemote('https://github.com/acme/gadgets'), normalizeRemote('https://github.com/acme/widgets'));
  });
});
