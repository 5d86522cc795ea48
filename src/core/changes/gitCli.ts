import { execFile } from 'node:child_process';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { attributesOf, type ChangeAttributes } from './attributes';
import { BaseCommits } from './baseCommit';
import { ChangesError, type ChangeRequest, type DiffSource } from './types';
import { errorCode } from '../../shared/guards';

/** The changes as the `git` command line sees them (the CLI's source; the extension uses the Git extension's API). */

/** Git's empty tree: what a repository without commits (or a root commit) is compared with. */
/**
 * `core.quotePath=true` (git's default, whatever the user set): every name with a byte over 0x7f is quoted and
 * octal-escaped, so the names in the diff are ASCII and read back the same (`gitPath.ts`) even when the diff's
 * text has to be read as Latin-1 because a file's content is not UTF-8.
 */
const DIFF = ['-c', 'core.quotePath=true', 'diff', '--no-color', '--no-ext-diff', '--find-renames', '--unified=0', '--src-prefix=a/', '--dst-prefix=b/'];

interface Ran {
  /** The exit code (0 when it succeeded). */
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Runs git; resolves with its exit code and output whatever the code (a `ChangesError` when git is not there). */
function git(cwd: string, args: readonly string[], input?: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', [...args], { cwd, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err && errorCode(err) === 'ENOENT') {
        reject(new ChangesError('git-failed', 'git is not installed or not on the PATH'));
        return;
      }
      const exit = err ? (err as { code?: unknown }).code : 0;
      if (err && typeof exit !== 'number') {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an ExecFileException is an Error; its type Omit<>s `code`
        reject(err);
        return;
      }
      resolve({ code: typeof exit === 'number' ? exit : 0, stdout, stderr: stderr.toString('utf8') });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Runs git; its output, or an error with its message when it exits with another code than 0. */
export async function run(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  const r = await git(cwd, args, input);
  if (r.code !== 0) throw Object.assign(new Error(r.stderr.trim() || `git ${args.join(' ')} exited with ${r.code}`), { gitExit: true });
  return r.stdout;
}

const text = (b: Buffer) => b.toString('utf8');

export class GitCliSource implements DiffSource {
  private readonly blobs = new BlobReader(() => this.root);

  private constructor(
    readonly root: string,
    /** HEAD's commit when the source was opened; undefined before the first commit. */
    private readonly head: string | undefined,
  ) {}

  /** The repository holding `dir`; `not-a-repository` outside one. One git process tells the root and HEAD. */
  static async open(dir: string): Promise<GitCliSource> {
    // Exit 0: the root and HEAD's commit; exit 1: the root of a repository without commits; else not a repository.
    const r = await git(dir, ['rev-parse', '--show-toplevel', '--verify', '--quiet', 'HEAD^{commit}']);
    const [top, head] = text(r.stdout).split('\n').map((l) => l.trim());
    if ((r.code !== 0 && r.code !== 1) || !top) throw new ChangesError('not-a-repository', `${dir} is not in a git repository`);
    return new GitCliSource(top, r.code === 0 ? head || undefined : undefined);
  }

  private async resolves(rev: string): Promise<string | undefined> {
    if (rev === 'HEAD') return this.head;
    try {
      return text(await run(this.root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** The commit (or empty tree) each request's changes start from, through git. */
  private readonly bases = new BaseCommits({
    head: () => this.resolves('HEAD'),
    firstParent: (commit) => this.resolves(`${commit}~1`),
    commit: (ref) => this.resolves(ref),
    mergeBase: (a, b) => run(this.root, ['merge-base', a, b]).then((o) => text(o).trim() || undefined, () => undefined),
    // A CI checkout is often shallow: the merge base exists, but not in this clone.
    noMergeBaseHint: async () => {
      const shallow = await run(this.root, ['rev-parse', '--is-shallow-repository']).then((o) => text(o).trim() === 'true', () => false);
      return shallow ? ' in this shallow clone: fetch the whole history (actions/checkout fetch-depth: 0, GitLab GIT_DEPTH: "0")' : '';
    },
  });

  async diff(request: ChangeRequest): Promise<string> {
    if (request.kind === 'ref' && request.ref && !request.ref.startsWith('-') && this.head) {
      // The usual case in one git process: the ref is known and has one merge base with HEAD. Anything else
      // (an unknown ref, no or several merge bases, a git before 2.30) is told apart below.
      const fast = await git(this.root, [...DIFF, '--merge-base', request.ref, '--']);
      if (fast.code === 0) return decode(fast.stdout);
    }
    const base = await this.bases.of(request);
    const args =
      request.kind === 'staged' ? [...DIFF, '--cached', base] : request.kind === 'last-commit' ? [...DIFF, base, 'HEAD'] : [...DIFF, base];
    return decode(await run(this.root, [...args, '--']));
  }

  /** Whether `untracked` left the untracked files out because the repository sets `status.showUntrackedFiles=no`. */
  untrackedLeftOut = false;

  /**
   * Untracked files that git does not ignore — none when the repository hides them from `git status`
   * (`status.showUntrackedFiles=no`), as the extension follows `git.untrackedChanges: hidden`. `ls-files` does not
   * read that setting and no process that already runs can tell it, so `git config` is asked only when there are
   * untracked files to leave out: a tree without any runs no more git than before.
   */
  async untracked(request: ChangeRequest): Promise<string[]> {
    if (request.kind === 'staged' || request.kind === 'last-commit') return [];
    const listed = text(await run(this.root, ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter((p) => p !== '');
    if (listed.length === 0) return listed;
    const setting = await git(this.root, ['config', '--get', 'status.showUntrackedFiles']);
    // `no`, or (git 2.46+) a spelling of false; unset (exit 1), `normal` and `all` show them.
    this.untrackedLeftOut = setting.code === 0 && /^(no|false|off|0)$/i.test(text(setting.stdout).trim());
    return this.untrackedLeftOut ? [] : listed;
  }

  async read(request: ChangeRequest, path: string): Promise<Uint8Array | undefined> {
    // The index and HEAD are read by one `git cat-file --batch` for all the files asked for at once.
    if (request.kind === 'staged') return this.blobs.read(`:0:${path}`);
    if (request.kind === 'last-commit') return this.blobs.read(`HEAD:${path}`);
    try {
      return await readFile(join(this.root, ...path.split('/')));
    } catch {
      return undefined;
    }
  }

  async symlinks(paths: readonly string[]): Promise<Set<string>> {
    const links = await Promise.all(paths.map((p) => lstat(join(this.root, ...p.split('/'))).then((s) => s.isSymbolicLink(), () => false)));
    return new Set(paths.filter((_, i) => links[i]));
  }

  /**
   * `git check-attr` for the working tree (`--cached` for the index): every `.gitattributes`, `.git/info/attributes`
   * and `core.attributesFile`, as git reads them. For the last commit, whose attributes git 2.40+ alone can be asked
   * for (`--source`), the commit's own `.gitattributes` files are read.
   */
  async attributes(paths: readonly string[], request: ChangeRequest): Promise<ChangeAttributes> {
    if (paths.length === 0) return { generated: new Set(), binary: new Set() };
    if (request.kind === 'last-commit') {
      // Every folder's `.gitattributes` at HEAD in one `git cat-file --batch` (most folders have none).
      const read = async (file: string) => {
        const bytes = await this.blobs.read(`HEAD:${file}`);
        return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
      };
      return attributesOf(paths, read, {}, Number.POSITIVE_INFINITY);
    }
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

/**
 * Blobs by name (`:0:path`, `HEAD:path`): the names asked for in one turn of the event loop are read by one
 * `git cat-file --batch` (a git process per file took most of planning's time on a busy machine). A name that
 * does not name a blob reads as undefined, as `git show` failing did.
 */
class BlobReader {
  private queue: { name: string; done: (bytes: Uint8Array | undefined) => void }[] = [];

  constructor(private readonly root: () => string) {}

  read(name: string): Promise<Uint8Array | undefined> {
    return new Promise((done) => {
      if (this.queue.length === 0) setImmediate(() => void this.flush());
      this.queue.push({ name, done });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    // cat-file reads one name a line: a name with a line break is read by `git show` on its own.
    const lined = batch.filter((q) => !/[\r\n]/.test(q.name));
    for (const q of batch) if (/[\r\n]/.test(q.name)) void run(this.root(), ['show', q.name]).then(q.done, () => q.done(undefined));
    if (lined.length === 0) return;
    let out: Buffer | undefined;
    try {
      out = await run(this.root(), ['cat-file', '--batch'], lined.map((q) => q.name).join('\n') + '\n');
    } catch {
      out = undefined;
    }
    let at = 0;
    for (const q of lined) {
      const end = out ? out.indexOf(10, at) : -1;
      if (!out || end < 0) {
        q.done(undefined);
        continue;
      }
      // `<sha> <type> <size>` then the contents and a line break, or `<name> missing` (or `ambiguous`).
      const header = out.subarray(at, end).toString('utf8');
      const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
      if (!m) {
        at = end + 1;
        q.done(undefined);
        continue;
      }
      const size = Number(m[2]);
      const body = out.subarray(end + 1, end + 1 + size);
      at = end + 1 + size + 1;
      q.done(m[1] === 'blob' ? body : undefined);
    }
  }
}
