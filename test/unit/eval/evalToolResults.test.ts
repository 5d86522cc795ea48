import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { runCli } from '../../../src/cli/run';
import { loadCorpus, CorpusError } from '../../../src/core/eval/corpus';
import { startTestGateway, type TestGateway } from '../../fixtures/gateway/server';

const KEY = 'sk-eval-tools-key-0123456789';
const CODE = ['def total(items):', '    import os', '    s = 0', '    for i in range(len(items) - 1):', '        s += items[i]', '    return s', ''].join('\n');
/** What Ruff says of line 2 (`ruff check --output-format sarif`, test/fixtures/sarif/README.md). */
const RUFF = { tool: 'ruff', rule: 'F401', severity: 'error', startLine: 2, endLine: 2, message: '`os` imported but unused' };
const REPEAT = { severity: 'low', title: 'Unused import os', explanation: 'os is imported and never used.', startLine: 2, endLine: 2, confidence: 0.9 };
const BUG = { severity: 'high', title: 'Off-by-one: the last item is never added', explanation: 'range(len(items) - 1) stops one early.', startLine: 4, endLine: 4, confidence: 0.9 };

function corpus(toolResults: unknown[] | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-eval-tools-'));
  mkdirSync(join(dir, 'py-off-by-one'));
  writeFileSync(join(dir, 'py-off-by-one', 'sum.py'), CODE);
  writeFileSync(join(dir, 'py-off-by-one', 'expected.json'), JSON.stringify({ language: 'python', file: 'sum.py', findings: [{ startLine: 4, endLine: 4, kind: 'bug', keywords: ['off-by-one', 'last item'] }], ...(toolResults ? { toolResults } : {}) }));
  return dir;
}

const figures = z.object({ precision: z.number().nullable(), recall: z.number().nullable(), f1: z.number().nullable() });
const docSchema = z.object({ toolResults: z.array(z.object({ agent: z.string(), model: z.string(), without: figures, with: figures, repeatsHidden: z.number() })).optional() });

describe('quorum eval on cases that carry tool results: precision with and without their repeats', function () {
  this.timeout(30_000);
  let tg: TestGateway;

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1 });
    // A reviewer that repeats what Ruff said, and finds the real bug.
    tg.script(() => ({ text: JSON.stringify({ findings: [REPEAT, BUG] }) }));
  });
  after(() => tg.close());

  async function evalRun(dir: string, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli({
      argv: ['eval', '--corpus', dir, '--agents', 'analyst', ...argv], env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url },
      version: '0', signal: new AbortController().signal, cwd: dir, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }

  it('sends the tool results with the case and scores the answer twice: the repeat of Ruff\'s F401 goes, precision rises, recall stays', async () => {
    const dir = corpus([RUFF]);
    tg.requests.length = 0;
    const r = await evalRun(dir, '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const sent = tg.requests.filter((q) => q.path.endsWith('/chat/completions')).map((q) => JSON.stringify(q.body));
    assert.equal(sent.length, 1);
    assert.match(sent[0] ?? '', /py-off-by-one\/sum\.py:2 ruff F401 \(error\): `os` imported but unused/);
    const [row] = docSchema.parse(JSON.parse(r.stdout)).toolResults ?? [];
    assert.deepEqual([row?.without.precision, row?.with.precision, row?.without.recall, row?.with.recall, row?.repeatsHidden], [0.5, 1, 1, 1, 1]);
    const text = await evalRun(dir);
    assert.match(text.stdout, /Every finding -> less the repeats of tool results:\nagent\s+model\s+precision\s+recall\s+F1\s+repeats hidden/);
    assert.match(text.stdout, /analyst\s+\S+\s+0\.500 -> 1\.000\s+1\.000 -> 1\.000\s+0\.667 -> 1\.000\s+1/);
  });

  it('a corpus without tool results has no such figures', async () => {
    const r = await evalRun(corpus(undefined), '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(docSchema.parse(JSON.parse(r.stdout)).toolResults, undefined);
  });

  it('a malformed tool result is a corpus error naming the case and the field', async () => {
    await assert.rejects(loadCorpus(corpus([{ ...RUFF, severity: 'fatal' }])), (e: unknown) => e instanceof CorpusError && e.field === 'toolResults.0.severity');
    await assert.rejects(loadCorpus(corpus([{ ...RUFF, startLine: 3, endLine: 2 }])), (e: unknown) => e instanceof CorpusError && e.field === 'toolResults.0.endLine');
    await assert.rejects(loadCorpus(corpus([{ ...RUFF, startLine: 40, endLine: 40 }])), (e: unknown) => e instanceof CorpusError && /past the end of sum\.py/.test(e.message));
    await assert.rejects(loadCorpus(corpus([{ ...RUFF, file: 'other.py' }])), (e: unknown) => e instanceof CorpusError && e.field === 'toolResults.0');
    const loaded = await loadCorpus(corpus([RUFF]));
    assert.deepEqual(loaded.cases[0]?.toolResults, [{ ...RUFF, file: 'py-off-by-one/sum.py' }]);
  });
});
