import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFindings } from '../../../src/core/agents/findings';
import { parseFile } from '../../../src/core/context/extract';
import { RepositoryIndex } from '../../../src/core/context/repoIndex';
import { addContext } from '../../../src/core/context/step';
import { createExcluder } from '../../../src/core/prompt/exclude';
import type { ReviewTarget } from '../../../src/core/domain/target';
import { TempRepo } from '../changes/gitRepo';

const options = (repo: TempRepo, cacheDir?: string, globs: string[] = []) => ({ root: repo.dir, cacheDir, excluder: createExcluder({ globs }), maxFileBytes: 1 << 20 });

describe('context: the repository index and the choice of context', function () {
  this.timeout(60_000);
  let repo: TempRepo;
  beforeEach(() => (repo = new TempRepo()));
  afterEach(() => repo.dispose());

  it('keeps the index in the cache folder by blob hash: a second run parses only the file that changed', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'quorum-context-cache-'));
    for (let i = 0; i < 5; i++) repo.write(`src/m${i}.py`, `def f${i}(x):\n    return x + ${i}\n`);
    repo.commit();
    const first = await RepositoryIndex.open(options(repo, cacheDir));
    assert.ok(first);
    await first.complete();
    await first.save();
    assert.deepEqual(first.size, { files: 5, indexed: 5, parsedNow: 5 });
    repo.write('src/m2.py', 'def f2(x):\n    return x * 2\n\n\ndef g2():\n    return 0\n');
    const second = await RepositoryIndex.open(options(repo, cacheDir));
    assert.ok(second);
    assert.deepEqual(second.size, { files: 5, indexed: 4, parsedNow: 0 });
    await second.complete();
    assert.equal(second.size.parsedNow, 1);
    assert.deepEqual(second.definitions('g2').map((d) => [d.file, d.startLine]), [['src/m2.py', 5]]);
  });

  it('lists the working tree as it is, with one git process: a changed file by its content now, staged, untracked and conflicted files; a deleted one is gone', async () => {
    repo.write('kept.py', 'def kept():\n    return 1\n').write('changed.py', 'def before():\n    return 1\n').write('gone.py', 'def gone():\n    return 1\n').write('both.py', 'def base():\n    return 0\n').commit();
    repo.git('checkout', '-q', '-b', 'other');
    repo.write('both.py', 'def theirs():\n    return 2\n').commit();
    repo.git('checkout', '-q', 'main');
    repo.write('both.py', 'def ours():\n    return 1\n').commit();
    assert.throws(() => repo.git('merge', '-q', 'other'));
    repo.write('changed.py', 'def after():\n    return 2\n').remove('gone.py').write('staged.py', 'def staged():\n    return 3\n').write('new.py', 'def untracked():\n    return 4\n');
    repo.git('add', 'staged.py');
    const index = await RepositoryIndex.open(options(repo));
    assert.ok(index);
    await index.complete();
    assert.deepEqual(index.size, { files: 5, indexed: 5, parsedNow: 5 });
    for (const [name, file] of [['kept', 'kept.py'], ['after', 'changed.py'], ['staged', 'staged.py'], ['untracked', 'new.py'], ['ours', 'both.py'], ['theirs', 'both.py']]) {
      assert.deepEqual(index.definitions(name ?? '').map((d) => d.file), [file], name);
    }
    for (const name of ['before', 'gone', 'base']) assert.deepEqual(index.definitions(name), [], name);
    assert.equal(index.holds('gone.py'), false);
  });

  it('reads the identifiers of the lines asked for only, inside a statement that starts before them too', async () => {
    const text = 'const first = alpha(1);\nconst second = beta(\n  gamma,\n  delta,\n);\nconst third = epsilon;\n';
    const parsed = await parseFile(text, 'typescript', [{ start: 3, end: 3 }, { start: 6, end: 6 }]);
    assert.deepEqual(parsed?.identifiers, [['gamma', 3], ['third', 6], ['epsilon', 6]]);
    assert.deepEqual((await parseFile(text, 'typescript'))?.identifiers, []);
    assert.deepEqual(parsed?.definitions.map((d) => d.name), (await parseFile(text, 'typescript'))?.definitions.map((d) => d.name));
  });

  it("gives a reviewed file's symbols from the index only while its content is the one indexed", async () => {
    repo.write('a.ts', 'export function one(): number {\n  return 1;\n}\n').commit();
    const index = await RepositoryIndex.open(options(repo));
    assert.ok(index);
    await index.complete();
    const indexed = Buffer.from('export function one(): number {\n  return 1;\n}\n');
    assert.deepEqual(index.symbolsAt('a.ts', indexed)?.definitions.map((d) => [d.name, d.startLine, d.endLine]), [['one', 1, 3]]);
    assert.equal(index.symbolsAt('a.ts', Buffer.from('export function two(): number {\n  return 2;\n}\n')), undefined);
    assert.equal(index.symbolsAt('b.ts', indexed), undefined);
  });

  it('in a repository never indexed, a lookup parses only the files that may define or call the names it needs', async () => {
    for (let i = 0; i < 80; i++) repo.write(`fill/f${i}.ts`, `export function filler${i}(total: number): number {\n  let total2 = total;\n  return total2 + ${i};\n}\n`);
    repo
      .write('a/consts.ts', 'export const helperConst = (x: number) => x + 1;\n')
      .write('b/util.py', 'MAX_SIZE = 3\n\ndef py_helper(a):\n    return a\n')
      .write('c/box.go', 'package c\n\ntype Box struct{}\n\nfunc (b *Box) GoHelper() int { return 1 }\n')
      .write('d/Lib.java', 'class Lib {\n    int javaHelper(int a) {\n        return a;\n    }\n}\n')
      .write('e/lib.rb', 'def ruby_helper(a)\n  a\nend\n')
      .write('f/use.ts', 'import { run } from "./run";\nexport const x = run(1);\n')
      .commit();
    const index = await RepositoryIndex.open(options(repo));
    assert.ok(index);
    for (const name of ['helperConst', 'MAX_SIZE', 'py_helper', 'GoHelper', 'javaHelper', 'ruby_helper', 'total']) await index.reachDefinitions(name, 'z/review.ts');
    await index.reachCalls('run', 'z/run.ts');
    for (const name of ['helperConst', 'MAX_SIZE', 'py_helper', 'GoHelper', 'javaHelper', 'ruby_helper']) assert.equal(index.definitions(name).length, 1, name);
    assert.deepEqual(index.nearestCalls('run', '', 100).map((c) => c.file), ['f/use.ts']);
    assert.equal(index.size.parsedNow, 6, `a local named like a needed name does not make every file a candidate (${index.size.parsedNow} parsed)`);
  });

  it('never indexes files the review may not send: privacy globs, .quorumignore, generated files, lockfiles', async () => {
    repo
      .write('a.ts', 'export function fromA(): number { return 1; }\n')
      .write('secret/b.ts', 'export function fromB(): number { return 2; }\n')
      .write('gen/c.ts', '// Code generated by protoc. DO NOT EDIT.\nexport function fromC(): number { return 3; }\n')
      .write('d.min.js', 'function fromD(){return 4}\n')
      .write('e.ts', 'export function fromE(): number { return 5; }\n')
      .write('.quorumignore', 'e.ts\n')
      .commit();
    const index = await RepositoryIndex.open({ ...options(repo, undefined, ['secret/**']), excluder: createExcluder({ globs: ['secret/**'], quorumignore: 'e.ts\n' }) });
    assert.ok(index);
    await index.complete();
    assert.equal(index.definitions('fromA').length, 1);
    for (const name of ['fromB', 'fromC', 'fromD', 'fromE']) assert.deepEqual(index.definitions(name), [], name);
  });

  it('sends the signatures that hold a hunk which does not show them, and never a line the batch sends', async () => {
    const body = Array.from({ length: 30 }, (_, i) => `    const v${i} = ${i};`).join('\n');
    repo.write('svc.ts', `export class Service {\n  private n = 0;\n\n  handle(request: string, retries: number): number {\n${body}\n    return this.n + retries;\n  }\n}\n`).commit();
    const text = Array.from({ length: 11 }, (_, i) => `    const v${i + 14} = ${i + 14};`).join('\n');
    const target: ReviewTarget = { kind: 'changes', label: 't', regions: [{ file: 'svc.ts', language: 'typescript', text, startLine: 19, endLine: 29, changedLines: [{ start: 24, end: 24 }] }] };
    const step = await addContext([target], { ...options(repo), maxTokens: 3000, redactor: undefined });
    const context = step.targets[0]?.context ?? [];
    assert.deepEqual(
      context.filter((c) => c.kind === 'enclosing').map((c) => [c.symbol, c.startLine, c.endLine, c.text]),
      [
        ['Service.handle', 4, 4, '  handle(request: string, retries: number): number {'],
        ['Service', 1, 1, 'export class Service {'],
      ],
    );
    assert.ok(!context.some((c) => c.file === 'svc.ts' && c.endLine >= 19 && c.startLine <= 29));
  });

  it('gives the time budget its due: past it the requests go without context, and the status says how many regions had theirs', async () => {
    repo.write('lib.ts', 'export function helper(x: number): number {\n  return x + 1;\n}\n').write('a.ts', 'import { helper } from "./lib";\nexport const a = helper(1);\n').write('b.ts', 'import { helper } from "./lib";\nexport const b = helper(2);\n').commit();
    const batch = (file: string): ReviewTarget => ({ kind: 'changes', label: 't', regions: [{ file, language: 'typescript', text: `export const ${file[0]} = helper(1);`, startLine: 2, endLine: 2, changedLines: [{ start: 2, end: 2 }] }] });
    const batches = [batch('a.ts'), batch('b.ts')];
    const input = { ...options(repo), maxTokens: 3000, redactor: undefined };
    const timely = await addContext(batches, { ...input, timeBudgetMs: 60_000 });
    assert.deepEqual(timely.targets.map((t) => t.context?.map((c) => `${c.kind} ${c.symbol}`)), [['definition helper'], ['definition helper']]);
    assert.deepEqual({ ...timely.status, index: undefined }, { regions: 2, chosen: 2, index: undefined });
    const late = await addContext(batches, { ...input, timeBudgetMs: 0 });
    assert.deepEqual(late.targets, batches, 'the review goes on with the batches as they were');
    assert.deepEqual({ ...late.status, index: undefined }, { regions: 2, chosen: 0, stopped: 'time-budget', index: undefined });
  });

  it('keeps the context chosen for a change: the same change again reads it, a change in the working tree looks it up again, never stale lines', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'quorum-context-cache-'));
    repo.write('lib.ts', 'export function helper(x: number): number {\n  return x + 1;\n}\n').write('a.ts', 'import { helper } from "./lib";\nexport const a = helper(1);\n').write('other.ts', 'export const other = 1;\n').commit();
    const batch: ReviewTarget = { kind: 'changes', label: 't', regions: [{ file: 'a.ts', language: 'typescript', text: 'export const a = helper(1);', startLine: 2, endLine: 2, changedLines: [{ start: 2, end: 2 }] }] };
    const input = { ...options(repo, cacheDir), maxTokens: 3000, redactor: undefined };
    const review = async () => {
      const step = await addContext([batch], input);
      await step.finish();
      return { snippets: step.targets[0]?.context?.map((c) => `${c.file}:${c.startLine}-${c.endLine} ${c.text}`), status: step.status };
    };
    const first = await review();
    assert.deepEqual(first.snippets, ['lib.ts:1-3 export function helper(x: number): number {\n  return x + 1;\n}']);
    const again = await review();
    assert.deepEqual(again, { ...first, status: { ...first.status, index: { files: 3, read: 0, parsed: 0 } } as typeof first.status });
    // Another file of the working tree changed: looked up again (the index reads that file only), the same context.
    repo.write('other.ts', 'export const other = 2;\n');
    const touched = await review();
    assert.deepEqual([touched.snippets, touched.status?.index.read], [first.snippets, 1]);
    // The definition changed: its new lines, not the kept ones.
    repo.write('lib.ts', '// moved down\nexport function helper(x: number): number {\n  return x + 2;\n}\n');
    assert.deepEqual((await review()).snippets, ['lib.ts:2-4 export function helper(x: number): number {\n  return x + 2;\n}']);
  });

  it('drops a finding on context lines, in a context file or in the reviewed file', () => {
    const scope = { kind: 'selection' as const, regions: [{ file: 'a.ts', startLine: 10, endLine: 20 }], context: [{ file: 'lib/b.ts', startLine: 3, endLine: 8 }, { file: 'a.ts', startLine: 1, endLine: 2 }] };
    const answer = JSON.stringify({ findings: [
      { file: 'lib/b.ts', severity: 'high', title: 'In a context file', startLine: 4, endLine: 4, confidence: 0.9 },
      { file: 'a.ts', severity: 'high', title: 'On a context line of the reviewed file', startLine: 1, endLine: 1, confidence: 0.9 },
      { file: 'a.ts', severity: 'high', title: 'Reviewed', startLine: 12, endLine: 12, confidence: 0.9 },
    ] });
    assert.deepEqual(parseFindings(answer, 'analyst', scope).findings.map((f) => f.title), ['Reviewed']);
  });
});
