import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { dismissFinding, DISMISSED_FILE } from '../../../src/core/memory/dismissed';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-noise-test-key-0123456789';
const CODE = ['import os', 'def run(cmd):', '    os.system("sh -c " + cmd)', '', 'x = 1', ''].join('\n');
const CRITICAL = { severity: 'critical', title: 'Command injection', explanation: 'cmd reaches a shell.', startLine: 3, endLine: 3, cwe: 'CWE-78', confidence: 0.9 };
const LOW = { severity: 'low', title: 'Unclear name x', explanation: 'Name it.', startLine: 5, endLine: 5, confidence: 0.3 };

describe('noise controls on quorum review (--min-confidence, --min-severity, --show-hidden, dismissed)', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let dir: string;
  let file: string;
  let reply: object[];

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1 });
    tg.script(() => ({ text: JSON.stringify({ findings: reply }) }));
  });
  after(() => tg.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quorum-noise-'));
    file = join(dir, 'app.py');
    writeFileSync(file, CODE);
    reply = [CRITICAL, LOW];
  });

  async function review(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['review', file, '--agents', 'security', '--no-cache', '--verify', 'off', ...extra], env: { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, LANG: 'en_US.UTF-8' },
      version: '0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }
  const json = (stdout: string): JsonOutput => jsonOutputSchema.parse(JSON.parse(stdout));
  const titles = (out: JsonOutput) => out.agents.flatMap((a) => a.findings.map((f) => f.title));

  it('hides findings below --min-confidence or --min-severity, counts them, and lists them with --show-hidden', async () => {
    const all = json((await review('--format', 'json')).stdout);
    assert.deepEqual([titles(all), all.hiddenFindings], [['Command injection', 'Unclear name x'], 0]);
    const byConfidence = json((await review('--format', 'json', '--min-confidence', '0.5')).stdout);
    assert.deepEqual([titles(byConfidence), byConfidence.hiddenFindings], [['Command injection'], 1]);
    const bySeverity = json((await review('--format', 'json', '--min-severity', 'medium')).stdout);
    assert.deepEqual([titles(bySeverity), bySeverity.hiddenFindings], [['Command injection'], 1]);
    const shown = json((await review('--format', 'json', '--min-confidence', '0.5', '--show-hidden')).stdout);
    assert.deepEqual(shown.agents.flatMap((a) => a.findings.map((f) => [f.title, f.hidden ?? false])), [['Command injection', false], ['Unclear name x', true]]);
    assert.equal(shown.hiddenFindings, 1);
    const text = await review('--min-confidence', '0.5');
    assert.match(text.stdout, /1 finding hidden \(1 below --min-confidence\); --show-hidden lists them/);
    assert.doesNotMatch(text.stdout, /Unclear name x/);
    // Markdown: the panel's Export renderer, the same hidden findings left out and counted, or listed apart.
    const md = (await review('--format', 'markdown', '--min-confidence', '0.5')).stdout;
    assert.match(md, /## Findings \(1\)/);
    assert.doesNotMatch(md, /Unclear name x/);
    assert.match(md, /_1 hidden \(1 below --min-confidence\); --show-hidden lists them_/);
    const mdShown = (await review('--format', 'markdown', '--min-confidence', '0.5', '--show-hidden')).stdout;
    assert.match(mdShown, /## Findings \(1\)\n\n### CRITICAL: Command injection/);
    assert.match(mdShown, /## Hidden findings \(1\)\n\n### LOW: Unclear name x\n\n_Line 5 · security · confidence 30% · hidden: below --min-confidence_/);
    assert.match(mdShown, /1 hidden \(1 below --min-confidence\); listed under Hidden findings, never counted for --fail-on/);
  });

  it('hidden findings never trigger --fail-on, even when listed', async () => {
    reply = [LOW];
    assert.equal((await review('--format', 'json', '--fail-on', 'low')).code, 1);
    assert.equal((await review('--format', 'json', '--fail-on', 'low', '--min-confidence', '0.31')).code, 0);
    assert.equal((await review('--format', 'json', '--fail-on', 'low', '--min-severity', 'medium', '--show-hidden')).code, 0);
  });

  it('usage errors: --min-confidence outside 0..1 or not a number, an unknown --min-severity', async () => {
    for (const args of [['--min-confidence', '1.5'], ['--min-confidence', '-0.1'], ['--min-confidence', 'high'], ['--min-severity', 'urgent']]) {
      const r = await review(...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /--min-(confidence|severity)/);
    }
    assert.equal((await review('--min-confidence', '1')).code, 0);
    assert.equal((await review('--min-confidence', '0.25')).code, 0);
  });

  it('a finding dismissed in the project stays hidden on later reviews until the code of its lines changes', async () => {
    await dismissFinding(dir, { finding: { agents: ['security'], cwe: 'CWE-78', title: 'Command injection', startLine: 3, endLine: 3 }, text: CODE, firstLine: 1, file: 'app.py' });
    const stored = JSON.parse(readFileSync(join(dir, DISMISSED_FILE), 'utf8')) as { version: number; dismissed: { agent: string; rule: string }[] };
    assert.deepEqual(stored.dismissed.map((d) => [d.agent, d.rule]), [['security', 'CWE-78']]);
    assert.equal(stored.version, 1);
    const again = await review('--format', 'json', '--fail-on', 'critical');
    assert.deepEqual([titles(json(again.stdout)), json(again.stdout).hiddenFindings, again.code], [['Unclear name x'], 1, 0]);
    // Re-indenting the line is not a change of code; changing what it does is.
    writeFileSync(file, CODE.replace('    os.system', '        os.system'));
    assert.deepEqual(titles(json((await review('--format', 'json')).stdout)), ['Unclear name x']);
    writeFileSync(file, CODE.replace('"sh -c " + cmd', '"sh -c " + cmd + " &"'));
    assert.deepEqual(titles(json((await review('--format', 'json')).stdout)), ['Command injection', 'Unclear name x']);
  });

  it('an invalid dismissed.json is reported and ignored, not fatal', async () => {
    await dismissFinding(dir, { finding: { agents: ['security'], cwe: 'CWE-78', title: 'x', startLine: 3, endLine: 3 }, text: CODE, firstLine: 1, file: 'app.py' });
    writeFileSync(join(dir, DISMISSED_FILE), JSON.stringify({ version: 1, dismissed: [{ agent: 'security', rule: 'CWE-78', code: 'nothex' }] }));
    const r = await review('--format', 'json');
    assert.equal(r.code, 0);
    assert.match(r.stderr, /dismissed\.json: dismissed\.0\.code/);
    assert.deepEqual(titles(json(r.stdout)), ['Command injection', 'Unclear name x']);
  });
});
