import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dismissFinding } from '../../../src/core/memory/dismissed';
import { outcomePath } from '../../../src/core/outcomes/store';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../../fixtures/gateway/server';
import { verifierPersona } from '../../fixtures/gateway/verifier';
import { TempRepo } from '../changes/gitRepo';
import { messagesOf, runQuorum, shellSections } from './cliKit';

const KEY = 'sk-test-stats-0123456789abcdef';
const clean = (name: string) => ['import os', '', `def ${name}(cmd):`, '    return cmd', ''].join('\n');
const risky = (name: string) => ['import os', '', `def ${name}(cmd):`, '    return os.system("sh -c " + cmd)', ''].join('\n');

/** The agent of a reviewer request, by its system prompt (core/agents/prompts.ts). */
const agentOf = (r: RecordedRequest) => (/security auditor/.test(messagesOf(r).find((m) => m.role === 'system')?.content ?? '') ? 'security' : 'analyst');

const counts = (raised: number, addressed: number, dismissed: number, open: number, gone: number, refuted: number) => ({ raised, addressed, dismissed, open, gone, refuted });

describe('quorum stats: what became of the findings over a repository\'s history (a real git repository, the test gateway)', function () {
  this.timeout(120_000);
  let tg: TestGateway;
  let repo: TempRepo;
  let cache: string;
  /** The title each file's finding gets; the analyst reports only the files listed in `analystToo`. */
  const titles: Record<string, string> = { 'a.py': 'Command injection in a.py', 'b.py': 'Command injection in b.py', 'c.py': 'Command injection in c.py', 'd.py': 'Naming of the helper in d.py' };
  const analystToo = new Set(['a.py']);

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    const verifier = verifierPersona();
    tg.script((r) => {
      if (!r.path.endsWith('/chat/completions')) return undefined;
      const v = verifier(r);
      if (v) return v;
      const agent = agentOf(r);
      const findings = shellSections(r)
        .filter(({ file }) => agent === 'security' || analystToo.has(file))
        .map(({ file, line }) => ({ file, severity: file === 'd.py' ? 'low' : 'high', title: titles[file] ?? 'Issue', explanation: 'cmd reaches a shell.', startLine: line, endLine: line, confidence: 0.9 }));
      return { text: JSON.stringify({ findings }), cost: 2 ** -6 };
    });
  });
  after(() => tg.close());
  beforeEach(() => {
    repo = new TempRepo();
    cache = mkdtempSync(join(tmpdir(), 'quorum-stats-cache-'));
  });
  afterEach(() => {
    repo.dispose();
    rmSync(cache, { recursive: true, force: true });
  });

  const quorum = (...argv: string[]) => runQuorum(repo.dir, KEY, tg.url, argv);
  async function review(): Promise<void> {
    const r = await quorum('review', '--changes', '--last-commit', '--agents', 'security,analyst', '--format', 'json', '--cache-dir', cache);
    assert.equal(r.code, 0, r.stderr);
  }
  async function stats(...extra: string[]): Promise<unknown> {
    const r = await quorum('stats', '--format', 'json', '--cache-dir', cache, ...extra);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  }
  const withoutCost = (s: unknown) => JSON.parse(JSON.stringify(s, (k, v: unknown) => (k === 'costUsd' ? undefined : v))) as unknown;

  it('fixed, deleted, dismissed, untouched and moved findings over four commits: the counts of quorum stats --format json', async () => {
    for (const f of ['a.py', 'b.py', 'c.py', 'd.py']) repo.write(f, clean(f.slice(0, 1)));
    repo.commit('base');
    const empty = await quorum('stats', '--cache-dir', cache);
    assert.deepEqual([empty.code, empty.stdout.trim().split('\n').length, /no review outcomes recorded yet/.test(empty.stdout)], [0, 1, true]);
    assert.deepEqual(await stats(), { findings: 0, byAgent: {}, byModel: {}, bySeverity: {} });

    // 1: four risky helpers. a.py's finding is told by two agents; d.py's is refuted by the verifier.
    for (const f of ['a.py', 'b.py', 'c.py', 'd.py']) repo.write(f, risky(f.slice(0, 1)));
    repo.commit('risky');
    await review();
    const first = (await stats()) as { findings: number; byAgent: Record<string, { costUsd: number }> };
    assert.equal(first.findings, 4);
    assert.deepEqual(withoutCost(first), {
      findings: 4,
      byAgent: { security: counts(4, 0, 0, 4, 0, 1), analyst: counts(1, 0, 0, 1, 0, 0) },
      byModel: { 'gemini-2.5-flash': counts(4, 0, 0, 4, 0, 1), 'gpt-4.1': counts(1, 0, 0, 1, 0, 0) },
      bySeverity: { high: counts(3, 0, 0, 3, 0, 0), low: counts(1, 0, 0, 1, 0, 1) },
    });
    // Each agent's request cost 2^-6, split over the findings it raised.
    assert.deepEqual([first.byAgent.security?.costUsd, first.byAgent.analyst?.costUsd], [2 ** -6, 2 ** -6]);

    // 2: a.py fixed, b.py deleted; c.py and d.py untouched (not reviewed: still open).
    repo.write('a.py', ['import os', 'import subprocess', '', 'def a(cmd):', '    return subprocess.run([cmd])', ''].join('\n'));
    repo.remove('b.py');
    repo.commit('fix a, drop b');
    await review();
    // 3: c.py's finding dismissed in the project, then c.py edited; d.py moved down by lines added above.
    await dismissFinding(repo.dir, { finding: { agents: ['security'], title: titles['c.py'] ?? '', startLine: 4, endLine: 4 }, text: readFileSync(join(repo.dir, 'c.py'), 'utf8'), firstLine: 1, file: 'c.py' });
    repo.write('c.py', [risky('c'), '# reviewed'].join('\n'));
    repo.write('d.py', ['# helper', '', risky('d')].join('\n'));
    repo.commit('dismiss c, move d');
    await review();
    assert.deepEqual(withoutCost(await stats()), {
      findings: 4,
      byAgent: { security: counts(4, 1, 1, 1, 1, 1), analyst: counts(1, 1, 0, 0, 0, 0) },
      byModel: { 'gemini-2.5-flash': counts(4, 1, 1, 1, 1, 1), 'gpt-4.1': counts(1, 1, 0, 0, 0, 0) },
      bySeverity: { high: counts(3, 1, 1, 0, 1, 0), low: counts(1, 0, 0, 1, 0, 1) },
    });
    // --since: findings first raised from a date on.
    assert.deepEqual(await stats('--since', '2999-01-01'), { findings: 0, byAgent: {}, byModel: {}, bySeverity: {} });
    const text = await quorum('stats', '--cache-dir', cache);
    assert.match(text.stdout, /^4 findings/);
    assert.match(text.stdout, /security\s+4\s+1\s+1\s+1\s+1\s+1\s+25%\s+25%/);
    // The store holds hashes and lines, never the code, and no key.
    const raw = readFileSync(outcomePath(cache, repo.dir), 'utf8');
    assert.equal(raw.includes('os.system'), false);
    assert.equal(raw.includes(KEY), false);
  });

  it('bad arguments and a store that is torn: one line, never fatal', async () => {
    repo.write('a.py', clean('a')).commit();
    const bad = await quorum('stats', '--since', 'yesterday');
    assert.deepEqual([bad.code, bad.stderr.trim()], [2, 'quorum: --since takes a date such as 2026-11-30 (see quorum stats --help)']);
    const format = await quorum('stats', '--format', 'xml');
    assert.equal(format.code, 2);
    repo.write('a.py', risky('a')).commit();
    await review();
    const { appendFileSync } = await import('node:fs');
    appendFileSync(outcomePath(cache, repo.dir), '{"v":1,"id":"torn');
    const torn = await quorum('stats', '--format', 'json', '--cache-dir', cache);
    assert.equal(torn.code, 0);
    assert.match(torn.stderr, /the outcome store had 1 invalid line; rebuilt from the valid ones/);
    assert.equal((JSON.parse(torn.stdout) as { findings: number }).findings, 1);
  });
});
