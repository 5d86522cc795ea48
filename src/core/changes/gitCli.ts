import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { attributesOf, type ChangeAttributes } from './attributes';
import { ChangesError, type ChangeRequest, type DiffSource } from './types';
import { errorCode } from '../../shared/guards';

/** The changes as the `git` command line sees them (the CLI's source; the extension uses the Git extension's API). */

/** Git's empty tree: what a repository without commits (or a root commit) is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const DIFF = ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--find-renames', '--unified=0', '--src-prefix=a/', '--dst-prefix=b/'];

function run(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', [...args], { cwd, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err) {
        if (errorCode(err) === 'ENOENT') reject(new ChangesError('git-failed', 'git is not installed or not on the PATH'));
        else reject(Object.assign(new Error(stderr.toString('utf8').trim() || err.message), { gitExit: true }));
        return;
      }
      resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

const text = (b: Buffer) => b.toString('utf8');

export class GitCliSource implements DiffSource {
  private readonly bases = new Map<string, Promise<string>>();

  private constructor(readonly root: string) {}

  /** The repository holding `dir`; `not-a-repository` outside one. */
  static async open(dir: string): Promise<GitCliSource> {
    let top: string;
    try {
      top = text(await run(dir, ['rev-parse', '--show-toplevel'])).trim();
    } catch (e) {
      if (e instanceof ChangesError) throw e;
      throw new ChangesError('not-a-repository', `${dir} is not in a git repository`);
    }
    return new GitCliSource(top);
  }

  private async resolves(rev: string): Promise<string | undefined> {
    try {
      return text(await run(this.root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** The commit (or empty tree) the request's changes start from. */
  private base(request: ChangeRequest): Promise<string> {
    const key = `${request.kind}:${request.ref ?? ''}`;
    let p = this.bases.get(key);
    if (!p) {
      p = this.computeBase(request);
      this.bases.set(key, p);
    }
    return p;
  }

  private async computeBase(request: ChangeRequest): Promise<string> {
    const [head, refCommit] = await Promise.all([this.resolves('HEAD'), request.kind === 'ref' && request.ref && !request.ref.startsWith('-') ? this.resolves(request.ref) : undefined]);
    switch (request.kind) {
      case 'uncommitted':
      case 'staged':
        return head ?? EMPTY_TREE;
      case 'last-commit':
        if (!head) throw new ChangesError('no-commits', 'the repository has no commits yet');
        return (await this.resolves('HEAD~1')) ?? EMPTY_TREE;
      case 'ref': {
        const ref = request.ref ?? '';
        const commit = refCommit;
        if (!commit) throw new ChangesError('unknown-ref', `unknown ref "${ref}": no branch, tag or commit of that name`);
        if (!head) return EMPTY_TREE;
        try {
          return text(await run(this.root, ['merge-base', commit, head])).trim();
        } catch {
          // A CI checkout is often shallow: the merge base exists, but not in this clone.
          const shallow = await run(this.root, ['rev-parse', '--is-shallow-repository']).then((o) => text(o).trim() === 'true', () => false);
          const hint = shallow ? ' in this shallow clone: fetch the whole history (actions/checkout fetch-depth: 0, GitLab GIT_DEPTH: "0")' : '';
          throw new ChangesError('unknown-ref', `"${ref}" has no common history (no merge base) with HEAD${hint}`);
        }
      }
    }
  }

  async diff(request: ChangeRequest): Promise<string> {
    const base = await this.base(request);
    const args =
      request.kind === 'staged' ? [...DIFF, '--cached', base] : request.kind === 'last-commit' ? [...DIFF, base, 'HEAD'] : [...DIFF, base];
    return decode(await run(this.root, [...args, '--']));
  }

  async untracked(request: ChangeRequest): Promise<string[]> {
    if (request.kind === 'staged' || request.kind === 'last-commit') return [];
    const out = text(await run(this.root, ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '-z']));
    return out.split('\0').filter((p) => p !== '');
  }

  async read(request: ChangeRequest, path: string): Promise<Uint8Array | undefined> {
    try {
      if (request.kind === 'staged') return await run(this.root, ['show', `:${path}`]);
      if (request.kind === 'last-commit') return await run(this.root, ['show', `HEAD:${path}`]);
      return await readFile(join(this.root, ...path.split('/')));
    } catch {
      return undefined;
    }
  }

  /**
   * `git check-attr` for the working tree (`--cached` for the index): every `.gitattributes`, `.git/info/attributes`
   * and `core.attributesFile`, as git reads them. For the last commit, whose attributes git 2.40+ alone can be asked
   * for (`--source`), the commit's own `.gitattributes` files are read.
   */
  async attributes(paths: readonly string[], request: ChangeRequest): Promise<ChangeAttributes> {
    if (paths.length === 0) return { generated: new Set(), binary: new Set() };
    if (request.kind === 'last-commit') return attributesOf(paths, (file) => run(this.root, ['show', `HEAD:${file}`]).then(text, () => undefined));
    const out: ChangeAttributes = { generated: new Set(), binary: new Set() };
    try {
      const args = ['check-attr', '-z', '--stdin', ...(request.kind === 'staged' ? ['--cached'] : []), 'linguist-generated', 'diff'];
      const fields = text(await run(this.root, args, paths.join('\0') + '\0')).split('\0');
      for (let i = 0; i + 2 < fields.length; i += 3) {
        const [path, attr, value] = [fields[i] ?? '', fields[i + 1], fields[i + 2]];
        if (attr === 'linguist-generated' && (value === 'set' || value === 'true')) out.generated.add(path);
        if (attr === 'diff' && value === 'unset') out.binary.add(path);
      }
    } catch {
      // Without attributes, files are judged by their names and contents.
    }
    return out;
  }
}

/** A diff is UTF-8 unless a file's bytes are not; then Latin-1 keeps every byte and every line. */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}
