import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedFileCount } from '../../../src/core/context/trackedFiles';

/** How many files git tracks, read off git's own index file: the same count as `git ls-files`, in a repository, a linked worktree, and none elsewhere. */
describe('context: the files a repository tracks, from the header of git\'s index', () => {
  let dir: string;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quorum-tracked-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts what `git ls-files` lists, in the repository and in a linked worktree; undefined outside git or before the first add', () => {
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 'test@example.invalid');
    git(repo, 'config', 'user.name', 'Test');
    assert.equal(trackedFileCount(repo), undefined, 'a repository with no index file yet');
    for (let i = 0; i < 37; i++) writeFileSync(join(repo, 'src', `f${i}.ts`), `export const x${i} = ${i};\n`);
    writeFileSync(join(repo, 'untracked.ts'), 'export {};\n');
    git(repo, 'add', 'src');
    git(repo, 'commit', '-q', '-m', 'files');
    const listed = git(repo, 'ls-files').trim().split('\n').length;
    assert.equal(trackedFileCount(repo), listed);
    assert.equal(listed, 37);
    const worktree = join(dir, 'worktree');
    git(repo, 'worktree', 'add', '-q', worktree);
    assert.equal(trackedFileCount(worktree), 37, 'a worktree: `.git` is a file that points to its git folder');
    assert.equal(trackedFileCount(join(dir, 'nowhere')), undefined);
    mkdirSync(join(dir, 'plain'));
    assert.equal(trackedFileCount(join(dir, 'plain')), undefined);
  });

  it('reads nothing from an index file that is not git\'s', () => {
    const repo = join(dir, 'fake');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(join(repo, '.git', 'index'), Buffer.from('NOPE\0\0\0\x02\0\0\x10\0'));
    assert.equal(trackedFileCount(repo), undefined);
    writeFileSync(join(repo, '.git', 'index'), Buffer.from('DIRC\0\0\0\x09\0\0\x10\0'));
    assert.equal(trackedFileCount(repo), undefined, 'a version git does not write');
    writeFileSync(join(repo, '.git', 'index'), Buffer.from('DIRC'));
    assert.equal(trackedFileCount(repo), undefined, 'a torn header');
    writeFileSync(join(repo, '.git', 'index'), Buffer.from('DIRC\0\0\0\x02\0\0\x10\0'));
    assert.equal(trackedFileCount(repo), 4096);
  });
});
