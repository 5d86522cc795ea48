import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real git repository in a temp folder, for the changes tests. */
export class TempRepo {
  readonly dir = mkdtempSync(join(tmpdir(), 'quorum-changes-'));

  constructor() {
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.email', 'test@example.invalid');
    this.git('config', 'user.name', 'Test');
    this.git('config', 'core.autocrlf', 'false');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, encoding: 'utf8' });
  }

  write(path: string, content: string | Uint8Array): this {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    return this;
  }

  remove(path: string): this {
    rmSync(join(this.dir, path));
    return this;
  }

  commit(message = 'commit'): this {
    this.git('add', '-A');
    this.git('commit', '-q', '-m', message);
    return this;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `n` numbered lines: `line 1` … `line n`, each ending in a newline. */
export function numbered(n: number, make = (i: number) => `line ${i}`): string {
  return Array.from({ length: n }, (_, i) => make(i + 1) + '\n').join('');
}
