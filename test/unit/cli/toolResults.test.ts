import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsonOutputSchema, type JsonOutput } from '../../../src/core/report/json';
import { runCli } from '../../../src/cli/run';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';
import { isVerifierRequest } from '../../fixtures/gateway/verifier';

/**
 * `quorum review --tool-results`: the project's linter's SARIF (ESLint's, as its formatter writes it; see
 * test/fixtures/sarif/README.md) goes in the prompt, and a gateway whose agent repeats the linter's warning gets
 * that finding hidden as reported-by-tool.
 */

const KEY = 'sk-tool-results-test-key-0123456789';
const CODE = ['const a = Number(process.argv[2]);', '', 'const total = a + 1;', '', 'if (a == 1) {', '  console.log("one");', '}', '', 'function legacy() {}', ''].join('\n');
const REPEAT = { severity: 'low', title: 'Unused variable total', explanation: 'total is assigned but never read.', startLine: 3, endLine: 3, confidence: 0.9 };
const OWN = { severity: 'medium', title: 'Argument is not validated', explanation: 'a may be NaN when no argument is given.', startLine: 1, endLine: 1, confidence: 0.8 };

describe('quorum review --tool-results (SARIF of the project\'s tools)', function () {
  this.timeout(30_000);
  let tg: TestGateway;
  let dir: string;
  let file: string;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1 });
    tg.script(() => ({ text: JSON.stringify({ findings: [REPEAT, OWN] }) }));
  });
  after(() => tg.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quorum-tools-'));
    mkdirSync(join(dir, 'src'));
    file = join(dir, 'src', 'app.js');
    writeFileSync(file, CODE);
    const sarif = readFileSync(join(__dirname, '../../fixtures/sarif/eslint.sarif'), 'utf8').replaceAll('file:///__ROOT__/', pathToFileURL(dir + '/').href);
    writeFileSync(join(dir, 'eslint.sarif'), sarif);
  });

  async function review(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['review', file, '--agents', 'analyst', ...extra],
      env: { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, LANG: 'en_US.UTF-8' }, cwd: dir,
      version: '0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }
  const json = (stdout: string): JsonOutput => jsonOutputSchema.parse(JSON.parse(stdout));
  const lastPrompt = () => {
    const chat = tg.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const messages = (chat[chat.length - 1]?.body?.messages ?? []) as { content: string }[];
    return messages.map((m) => m.content).join('\n');
  };

  it('sends the results on the reviewed lines read-only, and hides the finding that repeats one (reported-by-tool, with the rule)', async () => {
    const r = await review('--no-cache', '--verify', 'off', '--format', 'json', '--tool-results', 'eslint.sarif', '--show-hidden');
    assert.equal(r.code, 0, r.stderr);
    const prompt = lastPrompt();
    assert.match(prompt, /Already reported by the project's tools \(read-only\):/);
    assert.match(prompt, /src\/app\.js:3 eslint no-unused-vars \(warning\): 'total' is assigned a value but never used\./);
    assert.match(prompt, /src\/app\.js:5 eslint eqeqeq \(error\)/);
    assert.doesNotMatch(prompt, /'helper' is defined|'legacy' is defined/, 'another file, and a suppressed result, are not sent');
    const out = json(r.stdout);
    assert.deepEqual(out.toolResults.map((t) => [t.tool, t.rule, t.startLine]), [['eslint', 'no-unused-vars', 3], ['eslint', 'eqeqeq', 5]]);
    assert.equal(out.totals.toolResultsHidden, 1);
    assert.equal(out.hiddenFindings, 1);
    const repeat = out.findings.find((f) => f.title === REPEAT.title);
    assert.deepEqual([repeat?.hidden, repeat?.hiddenReason, repeat?.reportedBy], [true, 'reported-by-tool', { tool: 'eslint', rule: 'no-unused-vars' }]);
    assert.equal(out.findings.find((f) => f.title === OWN.title)?.hidden, undefined);
  });

  it('says it in the text report and on stderr; without --show-hidden the repeat is left out and counted', async () => {
    const r = await review('--no-cache', '--verify', 'off', '--tool-results', 'eslint.sarif');
    assert.match(r.stderr, /tools: 2 results from eslint/);
    assert.match(r.stdout, /Tools: 2 results from eslint; 1 finding already reported, hidden/);
    assert.match(r.stdout, /1 finding hidden \(1 already reported by the project's tools\); --show-hidden lists them/);
    assert.doesNotMatch(r.stdout, /Unused variable total/);
    const listed = await review('--no-cache', '--verify', 'off', '--tool-results', 'eslint.sarif', '--show-hidden');
    assert.match(listed.stdout, /Unused variable total .*already reported by eslint \(no-unused-vars\)/);
  });

  it('reads .quorum/tool-results/*.sarif too; a broken file is one warning and the review goes on', async () => {
    mkdirSync(join(dir, '.quorum', 'tool-results'), { recursive: true });
    writeFileSync(join(dir, '.quorum', 'tool-results', 'eslint.sarif'), readFileSync(join(dir, 'eslint.sarif')));
    writeFileSync(join(dir, 'broken.sarif'), '{"version": "2.1.0", "runs": [');
    const r = await review('--no-cache', '--verify', 'off', '--format', 'json', '--tool-results', 'broken.sarif');
    assert.equal(r.code, 0);
    assert.deepEqual(r.stderr.split('\n').filter((l) => /tool results/.test(l)), ['quorum: warning: tool results: broken.sarif: not JSON (is it a SARIF file?); ignored']);
    assert.equal(json(r.stdout).totals.toolResultsHidden, 1);
  });

  it('the verifier sees the tool results on the lines of the finding it checks; a repeat is not sent to it', async () => {
    const before = tg.requests.length;
    tg.enqueue({ text: JSON.stringify({ findings: [REPEAT, { ...OWN, title: 'Branch is never taken for NaN', startLine: 5, endLine: 5 }] }) });
    const r = await review('--no-cache', '--verify', 'cross-model', '--format', 'json', '--tool-results', 'eslint.sarif');
    assert.equal(r.code, 0, r.stderr);
    const verifier = tg.requests.slice(before).filter((q) => q.path.endsWith('/chat/completions') && isVerifierRequest(q));
    assert.equal(verifier.length, 1);
    const sent = ((verifier[0]?.body?.messages ?? []) as { content: string }[]).map((m) => m.content).join('\n');
    assert.match(sent, /Already reported on these lines by the project's tools[^\n]*\n`{3,}\n\S*src\/app\.js:5 eslint eqeqeq \(error\)/);
    assert.doesNotMatch(sent, /Unused variable total/, 'the repeat is hidden, not verified');
  });

  it('--dry-run shows the block; the cache key has it (other tool results are another answer)', async () => {
    const dry = await review('--dry-run', '--tool-results', 'eslint.sarif');
    assert.equal(dry.code, 0);
    assert.match(dry.stdout, /Already reported by the project's tools/);
    assert.match(dry.stdout, /src\/app\.js:3 eslint no-unused-vars/);
    const cacheDir = join(dir, 'cache');
    const before = tg.requests.length;
    await review('--verify', 'off', '--cache-dir', cacheDir, '--tool-results', 'eslint.sarif');
    await review('--verify', 'off', '--cache-dir', cacheDir, '--tool-results', 'eslint.sarif');
    const once = tg.requests.length - before;
    await review('--verify', 'off', '--cache-dir', cacheDir);
    assert.equal(tg.requests.length - before, once * 2, 'the same tool results are served from the cache; none is another request');
  });
});
