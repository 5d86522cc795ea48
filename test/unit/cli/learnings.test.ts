import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema } from '../../../src/core/report/json';
import { startTestGateway, type RecordedRequest, type TestGateway } from '../../fixtures/gateway/server';
import { TempRepo } from '../changes/gitRepo';
import { messagesOf, runQuorum } from './cliKit';

const KEY = 'sk-test-learnings-0123456789abcd';

describe('learnings travel with the prompts like the repository\'s rules, and a finding they hide or cap says which (a real repository, the test gateway)', function () {
  this.timeout(60_000);
  let tg: TestGateway;
  let repo: TempRepo;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    tg.script((r) => {
      if (!r.path.endsWith('/chat/completions')) return undefined;
      const file = /^File: (.+)$/m.exec(messagesOf(r).find((m) => m.role === 'user')?.content ?? '')?.[1] ?? 'x';
      return { text: JSON.stringify({ findings: [{ file, severity: 'high', title: 'Missing input validation', explanation: 'req.body is used as is.', startLine: 2, endLine: 2, confidence: 0.9 }] }) };
    });
  });
  after(() => tg.close());
  beforeEach(() => {
    repo = new TempRepo();
    repo.write('src/api/users.ts', 'export function create(req: { body: unknown }) {\n  return save(req.body);\n}\n');
    repo.write('src/web/form.ts', 'export function submit(req: { body: unknown }) {\n  return save(req.body);\n}\n');
    repo.write('.quorum/learnings.md', '# Learnings\n\n## We validate at the boundary\napplyTo: src/api/**/*.ts\nhides: missing-input-validation\n\nRequest bodies are validated by the API gateway before handlers run.\n');
    repo.commit();
  });
  afterEach(() => repo.dispose());

  const quorum = (...argv: string[]) => runQuorum(repo.dir, KEY, tg.url, argv);

  it('What Will Be Sent lists the learning for the files in its scope only, and the agents get it as a rule', async () => {
    const inScope = await quorum('review', `${repo.dir}/src/api/users.ts`, '--agents', 'security', '--dry-run', '--no-cache');
    assert.equal(inScope.code, 0, inScope.stderr);
    assert.match(inScope.stdout, /\.quorum\/learnings\.md § We validate at the boundary/);
    const outOfScope = await quorum('review', `${repo.dir}/src/web/form.ts`, '--agents', 'security', '--dry-run', '--no-cache');
    assert.doesNotMatch(outOfScope.stdout, /learnings\.md/);
    tg.requests.length = 0;
    const cache = mkdtempSync(join(tmpdir(), 'quorum-learnings-cache-'));
    const run = await quorum('review', `${repo.dir}/src/api/users.ts`, '--agents', 'security', '--format', 'json', '--no-cache', '--show-hidden', '--cache-dir', cache);
    assert.equal(run.code, 0, run.stderr);
    const system = messagesOf(tg.requests.find((r) => r.path.endsWith('/chat/completions')) as RecordedRequest).find((m) => m.role === 'system')?.content ?? '';
    assert.match(system, /Request bodies are validated by the API gateway before handlers run\./);
    assert.match(run.stderr, /repository rules: .*learnings\.md § We validate at the boundary/);
    const out = jsonOutputSchema.parse(JSON.parse(run.stdout));
    assert.deepEqual(out.findings.map((f) => [f.title, f.hidden, f.hiddenReason, f.learning]), [['Missing input validation', true, 'learned', 'We validate at the boundary']]);
    // Its outcome: dismissed in the project, by the rule learned from a dismissal.
    const stats = JSON.parse((await quorum('stats', '--format', 'json', '--cache-dir', cache)).stdout) as { byAgent: Record<string, { raised: number; dismissed: number }> };
    assert.deepEqual([stats.byAgent.security?.raised, stats.byAgent.security?.dismissed], [1, 1]);
    rmSync(cache, { recursive: true, force: true });
  });

  it('outside its scope the same finding is shown, naming no learning; a broken learning is reported by its title', async () => {
    repo.write('.quorum/learnings.md', '## We validate at the boundary\napplyTo: src/api/**/*.ts\nhides: missing-input-validation\n\nValidated.\n\n## Oops\nseverity: dire\n\nx\n');
    const cache = mkdtempSync(join(tmpdir(), 'quorum-learnings-cache-'));
    const run = await quorum('review', `${repo.dir}/src/web/form.ts`, '--agents', 'security', '--format', 'json', '--no-cache', '--cache-dir', cache);
    rmSync(cache, { recursive: true, force: true });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: \.quorum\/learnings\.md: "Oops": severity: /);
    const out = jsonOutputSchema.parse(JSON.parse(run.stdout));
    assert.deepEqual(out.findings.map((f) => [f.title, f.hidden, f.learning]), [['Missing input validation', undefined, undefined]]);
  });
});
