import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectChanges } from '../../../src/core/changes/collect';
import { GitCliSource } from '../../../src/core/changes/gitCli';
import { parseUnifiedDiff } from '../../../src/core/changes/parse';
import { MAX_SCOPE_LINES, regionsOf } from '../../../src/core/changes/regions';
import { unifiedDiffOfTexts } from '../../../src/core/changes/textDiff';
import type { ChangedFileText } from '../../../src/core/changes/types';
import { numbered, TempRepo } from './gitRepo';

/** What git itself makes of two texts (`git diff --no-index -U0`), read by the same parser. */
function gitDiffOf(oldText: string, newText: string) {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-textdiff-'));
  try {
    writeFileSync(join(dir, 'old'), oldText);
    writeFileSync(join(dir, 'new'), newText);
    let out = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', '-U0', 'old', 'new'], { cwd: dir, encoding: 'utf8' });
    } catch (e) {
      const stdout = (e as { stdout?: unknown }).stdout;
      out = typeof stdout === 'string' ? stdout : '';
    }
    return parseUnifiedDiff(out).map(({ added, removed, additions, deletions }) => ({ added, removed, additions, deletions }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('changes: data from the editor (texts of a file, function scopes)', function () {
  this.timeout(30_000);

  describe('unifiedDiffOfTexts', () => {
    const cases: [string, string, string][] = [
      ['a line changed', numbered(20), numbered(20, (i) => (i === 7 ? 'seven' : `line ${i}`))],
      ['the first line removed', 'x\ny\nz\n', 'y\nz\n'],
      ['a line added at the top', 'y\nz\n', 'x\ny\nz\n'],
      ['a line removed in the middle', 'a\nb\nc\n', 'a\nc\n'],
      ['the last line removed', 'a\nb\n', 'a\n'],
      ['lines added at the end', 'a\n', 'a\nb\nc\n'],
      ['no newline at the end', 'a\nb', 'a\nb\nc'],
      ['several hunks', numbered(60), numbered(60, (i) => (i % 17 === 0 ? `changed ${i}` : `line ${i}`)).replace('line 30\n', '')],
    ];
    for (const [name, before, after] of cases) {
      it(`reads as git's own diff: ${name}`, () => {
        const ours = parseUnifiedDiff(unifiedDiffOfTexts(undefined, 'f.ts', before, after)).map(({ added, removed, additions, deletions }) => ({ added, removed, additions, deletions }));
        assert.deepEqual(ours, gitDiffOf(before, after));
      });
    }

    it('names a rename: the new path, the old one, only the changed lines', () => {
      const [c] = parseUnifiedDiff(unifiedDiffOfTexts('old/name.ts', 'new/name.ts', numbered(40), numbered(40, (i) => (i === 20 ? 'twenty' : `line ${i}`))));
      assert.deepEqual([c?.path, c?.oldPath, c?.status, c?.added], ['new/name.ts', 'old/name.ts', 'renamed', [{ start: 20, end: 20 }]]);
    });

    it('reads CRLF text as lines', () => {
      const [c] = parseUnifiedDiff(unifiedDiffOfTexts(undefined, 'w.cs', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n'));
      assert.deepEqual([c?.added, c?.removed], [[{ start: 2, end: 2 }], [{ after: 1, lines: ['b'] }]]);
    });
  });

  describe('context widened to the enclosing function', () => {
    const file = (scopes?: ChangedFileText['scopes'], change: Partial<ChangedFileText['change']> = {}): ChangedFileText => ({
      change: { path: 'a.ts', status: 'modified', added: [{ start: 50, end: 50 }], removed: [], additions: 1, deletions: 0, ...change },
      language: 'typescript',
      lines: numbered(300).trimEnd().split('\n'),
      ...(scopes ? { scopes } : {}),
    });
    const ranges = (f: ChangedFileText, context = 3) => regionsOf(f, { contextLines: context, maxTokens: 100_000 }).map((r) => [r.startLine, r.endLine]);

    it('takes the smallest function that holds the change, and keeps the context lines beyond it', () => {
      assert.deepEqual(ranges(file()), [[47, 53]]);
      assert.deepEqual(ranges(file([{ start: 1, end: 120 }, { start: 40, end: 70 }, { start: 80, end: 90 }])), [[40, 70]]);
      assert.deepEqual(ranges(file([{ start: 49, end: 51 }])), [[47, 53]]);
    });

    it('does not take a function too long to send whole', () => {
      assert.deepEqual(ranges(file([{ start: 10, end: 10 + MAX_SCOPE_LINES }])), [[47, 53]]);
    });

    it('widens around a removal inside a function, and not for a change that no function holds', () => {
      assert.deepEqual(ranges(file([{ start: 100, end: 130 }], { added: [], removed: [{ after: 110, lines: ['gone'] }], additions: 0, deletions: 1 })), [[100, 130]]);
      assert.deepEqual(ranges(file([{ start: 100, end: 130 }])), [[47, 53]]);
    });
  });

  describe('collect', () => {
    let repo: TempRepo;
    beforeEach(() => {
      repo = new TempRepo();
    });
    afterEach(() => repo.dispose());

    it('lists a modified tracked binary file as skipped (binary), and drops a pure rename', async () => {
      repo.write('logo.png', new Uint8Array([0x89, 0x50, 0x00, 0x01])).write('same.ts', numbered(30)).commit();
      repo.write('logo.png', new Uint8Array([0x89, 0x50, 0x00, 0x02]));
      repo.git('mv', 'same.ts', 'moved.ts');
      const set = await collectChanges(await GitCliSource.open(repo.dir), { kind: 'uncommitted' }, { maxFileBytes: 1 << 20 });
      assert.deepEqual(set.skipped, [{ file: 'logo.png', reason: 'binary' }]);
      assert.deepEqual(set.files, []);
    });
  });
});

describe('changes: .gitattributes read without git', function () {
  this.timeout(30_000);
  const ROOT = '# generated code\n*.pb.go linguist-generated=true\ndist/** linguist-generated\ndist/keep.js -linguist-generated\n/root.ts linguist-generated\nsrc/*.ts text eol=lf\ngen linguist-generated\n*.dat binary\n';
  const SUB = '*.ts linguist-generated\n/local.js linguist-generated\ndeep/** -linguist-generated\n*.dat diff\nraw.txt -diff\n';
  const DEEP = 'x.ts linguist-generated\nz.ts !linguist-generated\n';
  const paths = [
    'api/x.pb.go', 'dist/a.js', 'dist/sub/b.js', 'dist/keep.js', 'root.ts', 'lib/root.ts', 'src/a.ts', 'gen/inside.ts', 'img.dat',
    'sub/a.ts', 'sub/local.js', 'sub/x/local.js', 'sub/deep/y.ts', 'sub/deep/x.ts', 'sub/deep/z.ts', 'sub/img.dat', 'sub/raw.txt', 'other/raw.txt',
  ];
  const expected = {
    generated: ['api/x.pb.go', 'dist/a.js', 'dist/sub/b.js', 'root.ts', 'sub/a.ts', 'sub/deep/x.ts', 'sub/local.js'],
    binary: ['img.dat', 'sub/raw.txt'],
  };
  const sorted = (a: { generated: Set<string>; binary: Set<string> }) => ({ generated: [...a.generated].sort(), binary: [...a.binary].sort() });

  it('reads every .gitattributes from the root to the file, as git check-attr does (nested files, anchors, folders, binary, -diff, !attr)', async () => {
    const { attributesOf } = await import('../../../src/core/changes/attributes');
    const files: Record<string, string> = { '.gitattributes': ROOT, 'sub/.gitattributes': SUB, 'sub/deep/.gitattributes': DEEP };
    const read = (file: string) => Promise.resolve(files[file]);
    assert.deepEqual(sorted(await attributesOf(paths, read)), expected);
    const repo = new TempRepo();
    try {
      for (const [f, t] of Object.entries(files)) repo.write(f, t);
      for (const p of paths) repo.write(p, 'x\n');
      const git = await (await GitCliSource.open(repo.dir)).attributes(paths, { kind: 'uncommitted' });
      assert.deepEqual(sorted(git), expected);
    } finally {
      repo.dispose();
    }
  });

  it('reads core.attributesFile below every .gitattributes and .git/info/attributes above them all, as git check-attr does', async () => {
    const { attributesOf } = await import('../../../src/core/changes/attributes');
    // Each file contradicts another: only git's precedence gives the expected sets.
    const GLOBAL = '*.gen.ts linguist-generated\nsub/plain.ts linguist-generated\n*.bin -diff\nsub/text.bin diff\nglobal.ts linguist-generated\n';
    const INFO = 'sub/*.txt -diff\nsub/forced.ts linguist-generated\nsub/freed.gen.ts -linguist-generated\n';
    const files: Record<string, string> = { 'sub/.gitattributes': 'plain.ts -linguist-generated\nforced.ts -linguist-generated\ntext.bin -diff\n' };
    const paths = ['a.gen.ts', 'sub/plain.ts', 'sub/forced.ts', 'sub/freed.gen.ts', 'x.bin', 'sub/text.bin', 'sub/notes.txt', 'global.ts', 'other.ts'];
    const expected = { generated: ['a.gen.ts', 'global.ts', 'sub/forced.ts'], binary: ['sub/notes.txt', 'sub/text.bin', 'x.bin'] };
    assert.deepEqual(sorted(await attributesOf(paths, (f) => Promise.resolve(files[f]), { global: GLOBAL, info: INFO })), expected);
    const repo = new TempRepo();
    try {
      for (const [f, t] of Object.entries(files)) repo.write(f, t);
      repo.write('.git/info/attributes', INFO).write('../global-attributes-' + (repo.dir.split('/').pop() ?? ''), GLOBAL);
      repo.git('config', 'core.attributesFile', join(repo.dir, '..', 'global-attributes-' + (repo.dir.split('/').pop() ?? '')));
      assert.deepEqual(sorted(await (await GitCliSource.open(repo.dir)).attributes(paths, { kind: 'uncommitted' })), expected);
    } finally {
      rmSync(join(repo.dir, '..', 'global-attributes-' + (repo.dir.split('/').pop() ?? '')), { force: true });
      repo.dispose();
    }
  });

  it('skips files a nested .gitattributes marks generated or binary, on every side (working tree, index, last commit)', async () => {
    const repo = new TempRepo();
    try {
      repo.write('lib/data.txt', 'a\n').write('lib/gen.ts', 'export const a = 1;\n').write('lib/ok.ts', 'export const b = 1;\n').commit();
      repo.write('lib/.gitattributes', 'data.txt -diff\ngen.ts linguist-generated\nfresh.txt binary\n');
      repo.write('lib/data.txt', 'b\n').write('lib/gen.ts', 'export const a = 2;\n').write('lib/ok.ts', 'export const b = 2;\n').write('lib/fresh.txt', 'plain text\n');
      const source = await GitCliSource.open(repo.dir);
      const skipped = async (kind: 'uncommitted' | 'staged' | 'last-commit') => {
        const set = await collectChanges(source, { kind }, { maxFileBytes: 1 << 20 });
        return { files: set.files.map((f) => f.change.path), skipped: Object.fromEntries(set.skipped.map((k) => [k.file, k.reason])) };
      };
      const want = { files: ['lib/.gitattributes', 'lib/ok.ts'], skipped: { 'lib/data.txt': 'binary', 'lib/fresh.txt': 'binary', 'lib/gen.ts': 'generated' } };
      assert.deepEqual(await skipped('uncommitted'), want);
      repo.git('add', '-A');
      assert.deepEqual(await skipped('staged'), want);
      repo.commit('second');
      assert.deepEqual(await skipped('last-commit'), want);
    } finally {
      repo.dispose();
    }
  });
});
