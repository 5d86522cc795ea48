import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { HostToWebview } from '../../src/shared/protocol';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../fixtures/gateway/server';
import { AGENT_OF_MODEL, ScriptedPrompter, closeAll, quorum, setSetting } from './helpers';

const KEY = 'sk-quorum-changes-test-7d1e5b9c3a';

/** A real git repository in a temp folder: commits, a branch, an edit, a staged change, an untracked file. */
class Repo {
  readonly dir = mkdtempSync(join(tmpdir(), 'quorum-scm-'));
  constructor() {
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.email', 'test@example.invalid');
    this.git('config', 'user.name', 'Test');
    this.git('config', 'core.autocrlf', 'false');
  }
  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, encoding: 'utf8' });
  }
  write(path: string, text: string): this {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), text);
    return this;
  }
  uri(path: string): vscode.Uri {
    return vscode.Uri.joinPath(vscode.Uri.file(this.dir), ...path.split('/'));
  }
}

const lines = (n: number, make = (i: number) => `// line ${i}`) => Array.from({ length: n }, (_, i) => make(i + 1) + '\n').join('');
const APP = (edited: boolean) => [
  'export function total(prices: number[]): number {',
  '  let sum = 0;',
  edited ? '  for (let i = 0; i <= prices.length; i++) sum += prices[i];' : '  for (let i = 0; i < prices.length; i++) sum += prices[i];',
  '  return sum;',
  '}',
  lines(40),
].join('\n');

const APP_FIX = '  for (let i = 0; i < prices.length; i++) sum += prices[i];';
const DB_FIX = '    return conn.execute("SELECT * FROM users WHERE id = ?", (user_id,))';

/** Which file and lines each agent reports, from the regions it was sent (the prompt names each file). */
function answers(req: RecordedRequest): { text: string; promptTokens: number } | undefined {
  if (req.method !== 'POST' || !req.model) return undefined;
  const agent = AGENT_OF_MODEL[req.model];
  const prompt = JSON.stringify(req.body ?? '');
  const findings: object[] = [];
  if (agent === 'analyst' && prompt.includes('src/app.ts')) {
    findings.push({ file: 'src/app.ts', severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'i <= prices.length reads prices[prices.length].', startLine: 3, endLine: 3, confidence: 0.9 });
  }
  if (agent === 'security' && prompt.includes('src/db.py')) {
    findings.push({ file: 'src/db.py', severity: 'critical', title: 'SQL built by concatenation', explanation: 'user input in SQL text', startLine: 2, endLine: 2, cwe: 'CWE-89', confidence: 0.9 });
  }
  if (agent === 'architecture' && prompt.includes('src/feature.ts')) {
    findings.push({ file: 'src/feature.ts', severity: 'medium', title: 'Feature flag read at import time', explanation: 'x', startLine: 1, endLine: 1, confidence: 0.7 });
  }
  const replacements: object[] = [];
  if (agent === 'coding' && prompt.includes('src/app.ts')) replacements.push({ file: 'src/app.ts', startLine: 3, endLine: 3, code: APP_FIX });
  if (agent === 'coding' && prompt.includes('src/db.py')) replacements.push({ file: 'src/db.py', startLine: 2, endLine: 2, code: DB_FIX });
  const body = agent === 'coding' ? { rationale: 'Bounds and a parameterised query.', replacements } : { findings };
  return { text: JSON.stringify(body), promptTokens: 700 };
}

describe('review changes (real VS Code, a real git repository, loopback gateway)', function () {
  this.timeout(120_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let prompter: ScriptedPrompter;
  let repo: Repo;
  const posted: HostToWebview[] = [];
  let postSub: vscode.Disposable | undefined;

  before(async () => {
    api = await quorum();
    // The web workbench saves edits after a delay by default; these tests edit the repository's files and must not write them.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    repo = new Repo();
    repo.write('src/app.ts', APP(false)).write('src/db.py', 'def find(conn, user_id):\n    return conn.execute("SELECT 1")\n');
    repo.write('package-lock.json', '{"lockfileVersion": 3}\n').write('old.ts', 'export const old = 1;\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'base');
    repo.git('branch', 'base');
    repo.write('src/feature.ts', 'export const flag = process.env.FEATURE === "1";\n' + lines(10));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'feature');
    // Uncommitted: an edit, a staged change, an untracked file, a lockfile change, a deletion.
    repo.write('src/app.ts', APP(true));
    repo.write('src/db.py', 'def find(conn, user_id):\n    return conn.execute("SELECT * FROM users WHERE id = " + user_id)\n');
    repo.git('add', 'src/db.py');
    repo.write('notes/todo.md', '# To do\n\n- review the changes\n');
    repo.write('package-lock.json', '{"lockfileVersion": 3, "packages": {}}\n');
    rmSync(join(repo.dir, 'old.ts'));

    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script(answers);
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    await setSetting(api, 'limits.maxRetries', 1);
    postSub = api.panels.onDidPostMessage((m) => posted.push(m.message));
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    // With several repositories open (the extension's own checkout may be one), pick the test's.
    prompter.onPick('changes.repository', (items) => items.find((i) => i.label === repo.dir.split('/').pop()));
    api.usePrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);

    const git = vscode.extensions.getExtension<{ getAPI(v: 1): { openRepository(uri: vscode.Uri): Promise<unknown> } }>('vscode.git');
    assert.ok(git, 'the built-in Git extension is there');
    const gitApi = (git.isActive ? git.exports : await git.activate()).getAPI(1) as { openRepository(uri: vscode.Uri): Promise<{ state: { workingTreeChanges: { uri: vscode.Uri }[]; untrackedChanges?: { uri: vscode.Uri }[] } } | null> };
    const opened = await gitApi.openRepository(vscode.Uri.file(repo.dir));
    assert.ok(opened, 'the Git extension opened the test repository');
    // The Git extension's first status of a freshly opened repository can lag on a loaded machine: start once it lists the untracked file.
    const lists = () => [...opened.state.workingTreeChanges, ...(opened.state.untrackedChanges ?? [])].some((c) => c.uri.path.endsWith('/notes/todo.md'));
    while (!lists()) await new Promise((r) => setTimeout(r, 100));
  });

  after(async () => {
    postSub?.dispose();
    api.usePrompter(undefined);
    await closeAll();
    await setSetting(api, 'gateway.baseUrl', undefined);
    await setSetting(api, 'cache.ttlMinutes', undefined);
    await setSetting(api, 'limits.maxRetries', undefined);
    await gateway.close();
    rmSync(repo.dir, { recursive: true, force: true });
  });

  const review = async (kind: string, ref?: string): Promise<ReviewSummary> => {
    prompter.onPick('changes.kind', (items) => items.find((i) => (i as vscode.QuickPickItem & { change?: string }).change === kind));
    if (ref) prompter.onPick('changes.ref', (items) => items.find((i) => (i as vscode.QuickPickItem & { ref?: string }).ref === ref));
    const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewChanges');
    assert.ok(summary, `the ${kind} review ran (${JSON.stringify(prompter.calls.filter((c) => c.kind === 'message').map((c) => c.text))})`);
    return summary;
  };
  const quorumDiagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Quorum');
  type Header = NonNullable<NonNullable<Extract<HostToWebview, { type: 'snapshot' }>['review']>['changes']>;
  /** The header a review's panel shows once it has loaded (each review of other changes opens a panel of its own). */
  const headerOf = (label: string): Promise<Header> => {
    const find = () => [...posted].reverse().flatMap((m) => (m.type === 'snapshot' && m.review?.changes?.label === label ? [m.review.changes] : []))[0];
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const sub = api.panels.onDidPostMessage(() => {
        const h = find();
        if (!h) return;
        sub.dispose();
        resolve(h);
      });
    });
  };

  it('uncommitted: reviews the edit, the staged change and the untracked file; skips the lockfile and the deleted file; findings land in Problems in their files', async () => {
    const summary = await review('uncommitted');
    assert.equal(summary.target.kind, 'changes');
    assert.deepEqual([...new Set(summary.target.regions.map((r) => r.file))].sort(), ['notes/todo.md', 'src/app.ts', 'src/db.py']);
    assert.deepEqual(Object.fromEntries((summary.target.skipped ?? []).map((k) => [k.file, k.reason])), { 'old.ts': 'deleted', 'package-lock.json': 'lockfile' });
    assert.deepEqual(summary.findings.map((f) => [f.file, f.startLine, f.severity]).sort(), [['src/app.ts', 3, 'high'], ['src/db.py', 2, 'critical']]);

    const app = quorumDiagnostics(repo.uri('src/app.ts'));
    assert.deepEqual(app.map((d) => [d.range.start.line + 1, d.message.includes('Off-by-one')]), [[3, true]]);
    const db = quorumDiagnostics(repo.uri('src/db.py'));
    assert.deepEqual(db.map((d) => d.range.start.line + 1), [2]);

    const header = await headerOf('Uncommitted changes');
    assert.deepEqual([header.files.length, header.skipped.length], [3, 2]);
    assert.ok(header.added >= 5 && header.removed >= 2, `+${header.added} −${header.removed}`);
  });

  it('staged: only the index against HEAD', async () => {
    const summary = await review('staged');
    assert.deepEqual([...new Set(summary.target.regions.map((r) => r.file))], ['src/db.py']);
    assert.deepEqual(summary.findings.map((f) => f.file), ['src/db.py']);
    assert.deepEqual((await headerOf('Staged changes')).files, ['src/db.py']);
  });

  it('against a branch: from the merge base to the working tree, the committed feature included', async () => {
    const summary = await review('ref', 'base');
    assert.deepEqual([...new Set(summary.target.regions.map((r) => r.file))].sort(), ['notes/todo.md', 'src/app.ts', 'src/db.py', 'src/feature.ts']);
    assert.ok(summary.findings.some((f) => f.file === 'src/feature.ts'));
    assert.equal((await headerOf('Changes against base')).files.length, 4);
    assert.ok(quorumDiagnostics(repo.uri('src/feature.ts')).length > 0);
  });

  it('Review with Quorum on files of the Source Control view reviews just those files', async () => {
    const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewChangedFiles', { resourceUri: repo.uri('src/app.ts') }, { resourceUri: repo.uri('notes/todo.md') });
    assert.ok(summary);
    assert.deepEqual([...new Set(summary.target.regions.map((r) => r.file))].sort(), ['notes/todo.md', 'src/app.ts']);
    assert.deepEqual(summary.target.skipped ?? [], []);
  });

  it('Review with Quorum on files of Staged Changes reviews what is staged (index against HEAD), not the working tree', async () => {
    // app.ts staged with the off-by-one, then edited again in the working tree only.
    repo.git('add', 'src/app.ts');
    repo.write('src/app.ts', APP(true).replace('let sum = 0;', 'let sum = 0; // WORKING TREE ONLY'));
    // What the gateway was sent by one command.
    const sentBy = async (command: string, ...states: object[]): Promise<{ summary: ReviewSummary | undefined; sent: string }> => {
      const before = gateway.requests.length;
      const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>(command, ...states);
      return { summary, sent: gateway.requests.slice(before).map((r) => JSON.stringify(r.body ?? '')).join('\n') };
    };
    try {
      const staged = await sentBy('quorum.reviewStagedFiles', { resourceUri: repo.uri('src/app.ts') });
      assert.ok(staged.summary, 'the staged review ran');
      assert.equal(staged.summary.target.label, 'Staged changes');
      assert.deepEqual([...new Set(staged.summary.target.regions.map((r) => r.file))], ['src/app.ts']);
      assert.match(staged.sent, /i <= prices\.length/);
      assert.doesNotMatch(staged.sent, /WORKING TREE ONLY/);
      // The same file picked in Changes: the working tree.
      const unstaged = await sentBy('quorum.reviewChangedFiles', { resourceUri: repo.uri('src/app.ts') });
      assert.equal(unstaged.summary?.target.label, 'Uncommitted changes');
      assert.match(unstaged.sent, /WORKING TREE ONLY/);
      // Git's resource states say their group: picks from both groups are reviewed as uncommitted changes, and the user is told.
      const mixed = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewStagedFiles', { resourceUri: repo.uri('src/db.py'), resourceGroupType: 1 }, { resourceUri: repo.uri('notes/todo.md'), resourceGroupType: 3 });
      assert.deepEqual([...new Set(mixed?.target.regions.map((r) => r.file))].sort(), ['notes/todo.md', 'src/db.py']);
      assert.match((await prompter.next((c) => c.id === 'changes.mixedGroups')).text ?? '', /uncommitted changes/);
    } finally {
      repo.git('reset', '-q', 'src/app.ts');
      repo.write('src/app.ts', APP(true));
    }
  });

  it('above quorum.changes.confirmOverFiles it asks first, naming the files, skipped files, tokens and cost; declined, nothing is sent', async () => {
    await setSetting(api, 'changes.confirmOverFiles', 2);
    try {
      const before = gateway.requests.length;
      prompter.onPick('changes.kind', (items) => items.find((i) => (i as vscode.QuickPickItem & { change?: string }).change === 'uncommitted'));
      assert.equal(await vscode.commands.executeCommand('quorum.reviewChanges'), undefined);
      const asked = await prompter.next((c) => c.id === 'changes.manyFiles');
      assert.equal(asked.modal, true);
      assert.match(asked.text ?? '', /3 files/);
      assert.match(asked.detail ?? '', /3 files, \+\d+ −\d+, 2 skipped · about [\d,]+ tokens in 4 requests · ≈ \$/);
      assert.match(asked.detail ?? '', /package-lock\.json \(lockfile\)/);
      assert.match(asked.detail ?? '', /old\.ts \(deleted\)/);
      assert.equal(gateway.requests.length, before);
    } finally {
      await setSetting(api, 'changes.confirmOverFiles', undefined);
    }
  });

  it('Show What Will Be Sent for changes: the regions as sent, nothing sent to make it', async () => {
    const before = gateway.requests.length;
    prompter.onPick('changes.kind', (items) => items.find((i) => (i as vscode.QuickPickItem & { change?: string }).change === 'staged'));
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('quorum.showWhatWillBeSentForChanges');
    assert.ok(doc, 'the preview opened');
    const text = doc.getText();
    assert.match(text, /src\/db\.py/);
    assert.match(text, /SELECT \* FROM users WHERE id = " \+ user_id/);
    assert.doesNotMatch(text, /src\/app\.ts/);
    assert.equal(gateway.requests.length, before);
  });

  it('Show What Will Be Sent for changes shows each request (batch) as it is sent, with the regions it holds', async () => {
    await setSetting(api, 'changes.batchTokens', 500);
    repo.write('src/big.ts', lines(120, (i) => `export const big${i} = ${i}; // a longer line of big.ts, number ${i}`));
    try {
      prompter.onPick('changes.kind', (items) => items.find((i) => (i as vscode.QuickPickItem & { change?: string }).change === 'uncommitted'));
      const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('quorum.showWhatWillBeSentForChanges');
      assert.ok(doc, 'the preview opened');
      const text = doc.getText();
      const count = Number(/^## Request 1 of (\d+)$/m.exec(text)?.[1] ?? 0);
      assert.ok(count >= 3, `${count} requests`);
      const requests = text.split(/^## Request \d+ of \d+$/m).slice(1);
      assert.equal(requests.length, count);
      for (const r of requests) {
        // Each request's messages hold the files it lists, and no other.
        const holds = new Set([...(/\*\*Holds:\*\* ([^\n]*)/.exec(r)?.[1] ?? '').matchAll(/([\w./]+) \(lines? /g)].map((m) => m[1]));
        const sent = new Set([...r.matchAll(/^File: (.+)$/gm)].map((m) => m[1]));
        assert.ok(holds.size > 0);
        assert.deepEqual([...sent].sort(), [...holds].sort());
        assert.equal(r.match(/^### .+ \((analyst|architecture|security|coding)\)$/gm)?.length, 4);
      }
      assert.match(text, /big120/);
    } finally {
      rmSync(join(repo.dir, 'src/big.ts'));
      await setSetting(api, 'changes.batchTokens', undefined);
    }
  });

  it('the coding agent\'s proposals across files: one multi-file preview, one edit, a region whose lines changed refused', async () => {
    const summary = await review('uncommitted');
    const coding = summary.agents.find((a) => a.agent === 'coding');
    assert.deepEqual(coding?.replacements?.map((r) => r.file).sort(), ['src/app.ts', 'src/db.py']);
    void vscode.commands.executeCommand('quorum.internal.previewImprovedCode', summary.reviewId);
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.startsWith('Quorum improved code'));
    while (tabs().length === 0) await new Promise((r) => setTimeout(r, 100));
    // The user edits db.py's reviewed line before applying: that region is refused, app.ts's applied.
    const db = await vscode.workspace.openTextDocument(repo.uri('src/db.py'));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(db.uri, db.lineAt(1).range, '    return None');
    assert.ok(await vscode.workspace.applyEdit(edit));
    void vscode.commands.executeCommand('quorum.internal.applyImprovedCode', summary.reviewId);
    const told = await prompter.next((c) => c.id === 'fix.regionsRefused');
    assert.match(told.text ?? '', /applied 1 of 2 .*1 were refused \(1 because their lines changed/);
    const app = await vscode.workspace.openTextDocument(repo.uri('src/app.ts'));
    assert.equal(app.lineAt(2).text, APP_FIX);
    assert.equal(db.lineAt(1).text, '    return None');
    await closeAll();
  });

  it("last commit of a repository with one commit: that commit against the empty tree, every file added", async () => {
    const first = new Repo();
    first.write('src/start.py', 'def start(user_id):\n    return db.execute("SELECT * FROM users WHERE id = " + user_id)\n').write('README.md', '# start\n');
    first.git('add', '-A');
    first.git('commit', '-q', '-m', 'first');
    const name = first.dir.split('/').pop();
    prompter.onPick('changes.repository', (items) => items.find((i) => i.label === name));
    try {
      const git = vscode.extensions.getExtension<{ getAPI(v: 1): { openRepository(uri: vscode.Uri): Promise<unknown> } }>('vscode.git');
      assert.ok(await git?.exports.getAPI(1).openRepository(vscode.Uri.file(first.dir)), 'the Git extension opened the one-commit repository');
      const summary = await review('last-commit');
      assert.deepEqual(summary.target.regions.map((r) => [r.file, r.startLine, r.endLine]), [['README.md', 1, 1], ['src/start.py', 1, 2]]);
      assert.deepEqual(summary.findings.map((f) => [f.file, f.severity]), []);
      assert.equal(prompter.calls.filter((c) => c.id === 'changes.no-commits').length, 0);
    } finally {
      prompter.onPick('changes.repository', (items) => items.find((i) => i.label === repo.dir.split('/').pop()));
      rmSync(first.dir, { recursive: true, force: true });
    }
  });

  it('with git.untrackedChanges hidden, untracked files are left out as the user chose, and the pick says so', async () => {
    const git = vscode.workspace.getConfiguration('git');
    await git.update('untrackedChanges', 'hidden', vscode.ConfigurationTarget.Global);
    try {
      let detail = '';
      prompter.onPick('changes.kind', (items) => {
        const item = items.find((i) => (i as vscode.QuickPickItem & { change?: string }).change === 'uncommitted');
        detail = item?.detail ?? '';
        return item;
      });
      const summary = await vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewChanges');
      assert.match(detail, /untracked files left out \(git\.untrackedChanges is hidden\)/);
      assert.deepEqual([...new Set(summary?.target.regions.map((r) => r.file))].sort(), ['src/app.ts', 'src/db.py']);
    } finally {
      await git.update('untrackedChanges', undefined, vscode.ConfigurationTarget.Global);
    }
    // Shown again, they are reviewed again.
    const summary = await review('uncommitted');
    assert.ok(summary.target.regions.some((r) => r.file === 'notes/todo.md'));
  });

  it('skips the files a nested .gitattributes marks generated or binary, as git reads them', async () => {
    repo.write('src/gen/.gitattributes', 'api.ts linguist-generated\nblob.txt -diff\n');
    repo.write('src/gen/api.ts', 'export const api = 1;\n').write('src/gen/blob.txt', 'text that git diffs as binary\n').write('src/gen/kept.ts', 'export const kept = 1;\n');
    try {
      const summary = await review('uncommitted');
      const skipped = Object.fromEntries((summary.target.skipped ?? []).map((k) => [k.file, k.reason]));
      assert.deepEqual([skipped['src/gen/api.ts'], skipped['src/gen/blob.txt']], ['generated', 'binary']);
      assert.ok(summary.target.regions.some((r) => r.file === 'src/gen/kept.ts'));
    } finally {
      rmSync(join(repo.dir, 'src/gen'), { recursive: true, force: true });
    }
  });

  it('honours .git/info/attributes above every .gitattributes and core.attributesFile below them, as git does, in a linked worktree too', async () => {
    // Each file contradicts another: only git's precedence gives what is expected (and `git check-attr` agrees).
    const globalDir = mkdtempSync(join(tmpdir(), 'quorum-attributes-'));
    const globalFile = join(globalDir, 'attributes');
    writeFileSync(globalFile, '*.dat -diff\nsrc/attr/kept.ts linguist-generated\nsrc/attr/global.ts linguist-generated\n');
    repo.write('.git/info/attributes', 'src/attr/forced.ts linguist-generated\n');
    repo.git('config', 'core.attributesFile', globalFile);
    repo.write('src/attr/.gitattributes', 'kept.ts -linguist-generated\nforced.ts -linguist-generated\n');
    for (const f of ['kept.ts', 'forced.ts', 'global.ts', 'plain.ts']) repo.write(`src/attr/${f}`, `export const v = '${f}';\n`);
    repo.write('src/attr/blob.dat', 'text that git diffs as binary\n');
    const expected = { 'src/attr/blob.dat': 'binary', 'src/attr/forced.ts': 'generated', 'src/attr/global.ts': 'generated' };
    const attrSkips = (summary: ReviewSummary) => Object.fromEntries((summary.target.skipped ?? []).filter((k) => k.file.startsWith('src/attr/')).map((k) => [k.file, k.reason]));
    const attrFiles = (summary: ReviewSummary) => [...new Set(summary.target.regions.map((r) => r.file).filter((f) => f.startsWith('src/attr/')))].sort();
    const checkAttr = repo.git('check-attr', 'linguist-generated', 'diff', '--', 'src/attr/kept.ts', 'src/attr/forced.ts', 'src/attr/global.ts', 'src/attr/blob.dat');
    assert.match(checkAttr, /forced\.ts: linguist-generated: set/);
    assert.match(checkAttr, /kept\.ts: linguist-generated: unset/);
    const worktree = join(globalDir, 'linked');
    try {
      const summary = await review('uncommitted');
      assert.deepEqual(attrSkips(summary), expected);
      assert.deepEqual(attrFiles(summary), ['src/attr/.gitattributes', 'src/attr/kept.ts', 'src/attr/plain.ts']);

      // A linked worktree (its own branch): `.git` is a file naming its git folder, whose `commondir` holds info/attributes.
      repo.git('worktree', 'add', '-q', '-b', 'attr-worktree', worktree);
      const inWorktree = (...args: string[]) => execFileSync('git', args, { cwd: worktree, encoding: 'utf8' });
      const writeInWorktree = (path: string, text: string) => {
        mkdirSync(dirname(join(worktree, path)), { recursive: true });
        writeFileSync(join(worktree, path), text);
      };
      writeInWorktree('src/attr/.gitattributes', 'kept.ts -linguist-generated\nforced.ts -linguist-generated\n');
      for (const f of ['kept.ts', 'forced.ts', 'global.ts', 'plain.ts', 'blob.dat']) writeInWorktree(`src/attr/${f}`, `${f}\n`);
      inWorktree('add', 'src/attr');
      inWorktree('commit', '-q', '-m', 'attr');
      for (const f of ['kept.ts', 'forced.ts', 'global.ts', 'plain.ts', 'blob.dat']) writeInWorktree(`src/attr/${f}`, `${f} edited\n`);
      const git = vscode.extensions.getExtension<{ getAPI(v: 1): { openRepository(uri: vscode.Uri): Promise<unknown> } }>('vscode.git');
      assert.ok(await git?.exports.getAPI(1).openRepository(vscode.Uri.file(worktree)), 'the Git extension opened the linked worktree');
      prompter.onPick('changes.repository', (items) => items.find((i) => i.label === 'linked'));
      const linked = await review('uncommitted');
      assert.deepEqual(attrSkips(linked), expected);
      assert.deepEqual(attrFiles(linked), ['src/attr/kept.ts', 'src/attr/plain.ts']);
    } finally {
      prompter.onPick('changes.repository', (items) => items.find((i) => i.label === repo.dir.split('/').pop()));
      try {
        repo.git('worktree', 'remove', '--force', worktree);
        repo.git('branch', '-q', '-D', 'attr-worktree');
      } catch {
        // The worktree was not made.
      }
      repo.git('config', '--unset', 'core.attributesFile');
      rmSync(join(repo.dir, '.git/info/attributes'), { force: true });
      rmSync(join(repo.dir, 'src/attr'), { recursive: true, force: true });
      rmSync(globalDir, { recursive: true, force: true });
    }
  });

  it('skips symbolic links as symlink (a staged link, git mode 120000, and an untracked one), never as unreadable', async () => {
    symlinkSync('src/app.ts', join(repo.dir, 'app-link.ts'));
    symlinkSync('src', join(repo.dir, 'src-link'));
    repo.git('add', 'app-link.ts');
    try {
      const summary = await review('uncommitted');
      const skips = Object.fromEntries((summary.target.skipped ?? []).map((k) => [k.file, k.reason]));
      assert.deepEqual([skips['app-link.ts'], skips['src-link']], ['symlink', 'symlink'], JSON.stringify(summary.target.skipped));
      assert.ok(!summary.target.regions.some((r) => r.file === 'app-link.ts' || r.file.startsWith('src-link')));
    } finally {
      repo.git('rm', '-q', '--cached', 'app-link.ts');
      rmSync(join(repo.dir, 'app-link.ts'));
      rmSync(join(repo.dir, 'src-link'));
    }
  });

  it('an unknown ref is named, nothing is sent', async () => {
    const before = gateway.requests.length;
    prompter.onPick('changes.kind', (items) => items.find((i) => (i as vscode.QuickPickItem & { change?: string }).change === 'ref'));
    prompter.onPick('changes.ref', (items) => items.find((i) => (i as vscode.QuickPickItem & { ref?: string }).ref === undefined));
    prompter.onInput('changes.refInput', () => 'no-such-branch');
    assert.equal(await vscode.commands.executeCommand('quorum.reviewChanges'), undefined);
    const told = await prompter.next((c) => c.id === 'changes.unknown-ref');
    assert.match(told.text ?? '', /no-such-branch/);
    assert.equal(gateway.requests.length, before);
  });
});
