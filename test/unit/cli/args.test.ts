import { strict as assert } from 'node:assert';
import { parseArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/cli/flags';
import { parseEvalArgs } from '../../../src/cli/evalArgs';
import { parseMcpArgs } from '../../../src/cli/mcp/mcpArgs';
import { keepsOutsideChanges } from '../../../src/core/pipeline/options';
import { formatMarkdown, formatText } from '../../../src/core/report/readable';
import { formatUsd } from '../../../src/shared/format';
import { jsonOutputSchema, toJsonOutput } from '../../../src/core/report/json';
import { ProgressReporter } from '../../../src/cli/progress';
import { exitCodeOf } from '../../../src/cli/exit';
import { languageOfFile, splitLines } from '../../../src/cli/target';
import type { AgentResult, ReviewSummary } from '../../../src/core/domain/result';

const usage = { promptTokens: 10, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0 };
function result(agent: string, over: Partial<AgentResult> = {}): AgentResult {
  return { agent, title: agent, role: 'reviewer', model: 'm', status: 'ok', text: '', findings: [], usage, costUsd: 0.001, costSource: 'reported', latencyMs: 1200, attempts: 1, cached: false, ...over };
}
function summary(over: Partial<ReviewSummary> = {}): ReviewSummary {
  return {
    reviewId: 'r', target: { kind: 'selection', label: 'a.ts:3-9', regions: [{ file: 'a.ts', language: 'typescript', startLine: 3, endLine: 9 }] },
    agents: [result('analyst'), result('security')], findings: [],
    totals: { costUsd: 0.002, estimatedUsd: 0, promptTokens: 20, completionTokens: 10, cachedTokens: 0, requests: 2, retries: 0 }, cancelled: false, elapsedMs: 1500, ...over,
  };
}
const finding = { id: 'analyst-1', file: 'a.ts', agents: ['analyst', 'security'], severity: 'high' as const, title: 'Bad <thing> | here', explanation: 'why', startLine: 4, endLine: 5, confidence: 0.8, suggestion: 'x();' };

describe('CLI arguments', () => {
  it('parses every option, in both --flag value and --flag=value forms', () => {
    const a = parseArgs(['review', 'src/a.ts', '--lines', '10-40', '--agents=analyst,security', '--model', 'analyst=gpt-4o', '--model=security=gemini-2.5-pro',
      '--base-url', 'http://127.0.0.1:8080/v1', '--language', 'ko', '--format', 'json', '--no-cache', '--max-concurrency', '2', '--fail-on', 'high', '--no-rules', '--dry-run', '--cache-dir', '/tmp/qc', '--cache-ttl=30',
      '--min-confidence', '0.5', '--min-severity=medium', '--show-hidden', '--context', 'off', '--context-tokens=500']);
    assert.deepEqual(a, {
      command: 'review', file: 'src/a.ts', lines: { start: 10, end: 40 }, agents: ['analyst', 'security'],
      models: { analyst: 'gpt-4o', security: 'gemini-2.5-pro' }, baseUrl: 'http://127.0.0.1:8080/v1', language: 'ko',
      format: 'json', noCache: true, maxConcurrency: 2, failOn: 'high', noRules: true, dryRun: true, cacheDir: '/tmp/qc', cacheTtl: 30, allFindings: false,
      minConfidence: 0.5, minSeverity: 'medium', showHidden: true, context: false, contextTokens: 500,
    });
  });

  it('--tool-results is repeatable, in both forms, and needs a file', () => {
    const a = parseArgs(['review', 'src/a.ts', '--tool-results', 'eslint.sarif', '--tool-results=ruff.sarif']);
    assert.ok(a.command === 'review');
    assert.deepEqual(a.toolResults, ['eslint.sarif', 'ruff.sarif']);
    assert.throws(() => parseArgs(['review', 'src/a.ts', '--tool-results']), /--tool-results needs a value/);
    assert.throws(() => parseArgs(['review', 'src/a.ts', '--tool-results=']), /--tool-results needs a SARIF file/);
  });

  it('has defaults and accepts a single line', () => {
    assert.deepEqual(parseArgs(['review', 'f.py', '--lines', '7']), { command: 'review', file: 'f.py', lines: { start: 7, end: 7 }, models: {}, format: 'text', noCache: false, failOn: 'none', noRules: false, dryRun: false, cacheTtl: 10080, minConfidence: 0, minSeverity: 'info', showHidden: false, allFindings: false, context: true });
    assert.deepEqual(parseArgs(['--help']), { command: 'help' });
  });

  it('refuses bad input with one-line UsageErrors', () => {
    for (const [argv, re] of [
      [['review', 'f', '--lines', '0-3'], /START <= END/],
      [['review', 'f', '--lines'], /--lines needs a value/],
      [['review', 'f', '--context', 'maybe'], /--context is on or off/],
      [['review', 'f', '--context-tokens', '-1'], /--context-tokens is at least 0/],
      [['review', 'f', '--format', 'json', '--format', 'text'], /given twice/],
      [['review', 'f', '--model', 'analyst=gpt 4'], /model ids/],
      [['review', 'f', '--model', 'a=x', '--model', 'a=y'], /twice for "a"/],
      [['review', 'f', '--agents', 'Analyst'], /agent ids/],
      [['review', 'f', '--max-concurrency', 'many'], /takes a number/],
      [['review', 'f', '--base-url', 'localhost:8080'], /--base-url/],
      [['review', 'f', '--language', 'korean!'], /--language/],
      [['review'], /missing <file>/],
    ] as [string[], RegExp][]) {
      assert.throws(() => parseArgs(argv), (e: unknown) => e instanceof UsageError && re.test(e.message) && !e.message.includes('\n'), argv.join(' '));
    }
  });
});

describe('one reader of every command line', () => {
  it('--model verifier=MODEL is the verifier\'s model, not an agent of the review (review, eval and mcp alike)', () => {
    const review = parseArgs(['review', 'f.py', '--model', 'verifier=checker', '--model', 'analyst=gpt-4o']);
    assert.ok(review.command === 'review');
    assert.deepEqual([review.models, review.verifierModel], [{ analyst: 'gpt-4o' }, 'checker']);
    const evalArgs = parseEvalArgs(['--model=verifier=checker', '--compare', 'security=a,b']);
    assert.deepEqual([evalArgs.models, evalArgs.verifierModel, evalArgs.compare], [{}, 'checker', { security: ['a', 'b'] }]);
    const mcp = parseMcpArgs(['--model', 'verifier=checker', '--context', 'off']);
    assert.deepEqual([mcp.models, mcp.verifierModel, mcp.context, mcp.cacheTtl], [{}, 'checker', false, 10080]);
    assert.equal(parseEvalArgs([]).contextTokens, undefined, 'eval\'s context budget defaults to quorum.context.maxTokens, not a copy of it');
  });

  it('says in one line what is wrong with a word, whichever command reads it', () => {
    for (const [parse, argv, message] of [
      [parseArgs, ['review', 'f', '--no-cache=yes'], '--no-cache takes no value'],
      [parseArgs, ['review', 'f', '-abc'], 'unknown option "-abc"'],
      [parseArgs, ['review', 'f', '--lines', '--format', 'json'], '--lines needs a value'],
      [parseEvalArgs, ['--corpus', 'a', '--corpus=b'], '--corpus was given twice'],
      [parseEvalArgs, ['--colour'], 'unknown option "--colour" for quorum eval'],
      [parseMcpArgs, ['--format', 'json'], 'unknown option "--format" for quorum mcp'],
      [parseMcpArgs, ['src/a.ts'], 'quorum mcp takes no "src/a.ts"'],
      [parseMcpArgs, ['--model', 'a=x', '--model', 'a=y'], '--model was given twice for "a"'],
    ] as [(argv: string[]) => unknown, string[], string][]) {
      assert.throws(() => parse(argv), (e: unknown) => e instanceof UsageError && e.message === message, argv.join(' '));
    }
    const afterDashes = parseArgs(['review', '--', '-odd-name.ts']);
    assert.ok(afterDashes.command === 'review' && afterDashes.file === '-odd-name.ts', 'after --, a word is the file');
  });

  it('keeps findings outside the changed lines when asked (--all-findings) or when quorum.changes.onlyChangedLines is off: one rule', () => {
    const only = { changes: { onlyChangedLines: true } } as const;
    assert.equal(keepsOutsideChanges(only), false);
    assert.equal(keepsOutsideChanges(only, true), true);
    assert.equal(keepsOutsideChanges({ changes: { onlyChangedLines: false } }), true);
  });
});

describe('CLI output', () => {
  it('maps a summary to exit codes: interrupted, then --fail-on, then failed agents', () => {
    const withFinding = summary({ findings: [finding] });
    assert.equal(exitCodeOf(withFinding, 'none', false), 0);
    assert.equal(exitCodeOf(withFinding, 'high', false), 1);
    assert.equal(exitCodeOf(withFinding, 'medium', false), 1);
    assert.equal(exitCodeOf(withFinding, 'critical', false), 0);
    const failed = summary({ agents: [result('analyst'), result('security', { status: 'error', error: { code: 'timeout', message: 't' } })] });
    assert.equal(exitCodeOf(failed, 'none', false), 3);
    assert.equal(exitCodeOf({ ...failed, findings: [finding] }, 'low', false), 1);
    assert.equal(exitCodeOf(failed, 'none', true), 130);
  });

  it('a failed verifier leaves the exit code alone (the findings stay as raised); a failed coder does not', () => {
    const failed = { status: 'error' as const, error: { code: 'timeout' as const, message: 't' } };
    assert.equal(exitCodeOf(summary({ agents: [result('analyst'), result('verifier', { role: 'verifier', ...failed })] }), 'none', false), 0);
    assert.equal(exitCodeOf(summary({ agents: [result('analyst'), result('coding', { role: 'coder', ...failed })] }), 'none', false), 3);
  });

  it('lists each merged finding once in JSON, under the first agent that reported it, and keeps to the schema', () => {
    const out = toJsonOutput(summary({ findings: [finding], agents: [result('analyst', { findings: [finding] }), result('security', { status: 'error', error: { code: 'quota', message: 'no credit' }, costUsd: Number.NaN })] }));
    assert.ok(jsonOutputSchema.safeParse(out).success);
    assert.equal(out.agents[0]?.findings.length, 1);
    assert.equal(out.agents[1]?.findings.length, 0);
    assert.deepEqual(out.agents[1]?.error, { code: 'quota', message: 'no credit' });
    assert.equal(out.agents[1]?.costUsd, 0, 'a NaN from a gateway becomes 0');
  });

  it('formats text and Markdown, escaping model text in Markdown', () => {
    const s = summary({ findings: [finding] });
    assert.match(formatText(s), /a\.ts:4–5 \[high\] Bad <thing> \| here - analyst, security, confidence 80%/);
    const md = formatMarkdown(s);
    assert.match(md, /### HIGH: Bad \\<thing\\> \\\| here/);
    assert.match(md, /```typescript\nx\(\);\n```/);
    // One formatUsd for the CLI, the panel, the status bar and the export.
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(0.00012), '$0.0001');
    assert.equal(formatUsd(0.00004), '<$0.0001');
    assert.equal(formatUsd(0.1234567), '$0.1235');
    assert.equal(formatUsd(12.345), '$12.35');
  });

  it("shows a finding's advice as text, apart from the replacement code, in text and JSON; a terminal never gets escape sequences or bidi controls", () => {
    const hostile = { ...finding, title: 'Evil \u001b]8;;https://x.test\u001b\\link\u001b]8;;\u001b\\ \u001b[2J', advice: 'Use a parameterized query:\r\u001b[31mcur.execute(sql, [name])\u202E', suggestion: 'x();\u2066' };
    const s = summary({ findings: [hostile], agents: [result('analyst', { findings: [hostile] })], cancelled: true, totals: { ...summary().totals, estimatedUsd: 0.0004 } });
    const text = formatText(s);
    assert.match(text, /\n {4}Advice:\n {6}Use a parameterized query:<U\+000D><U\+001B>\[31mcur\.execute\(sql, \[name\]\)<U\+202E>\n {4}Suggested replacement:\n {6}\| x\(\);<U\+2066>\n/);
    assert.match(text, /Evil <U\+001B>\]8;;https:\/\/x\.test<U\+001B>\\link/);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters the output must not hold
    assert.doesNotMatch(text, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
    assert.match(text, /Total: \$0\.0020 \(incl\. \$0\.0004 estimated\)/);
    const json = toJsonOutput(s);
    assert.ok(jsonOutputSchema.safeParse(json).success);
    assert.equal(json.agents[0]?.findings[0]?.advice, hostile.advice, 'JSON carries the advice as it is (a JSON string escapes it)');
    assert.equal(json.agents[0]?.findings[0]?.suggestion, hostile.suggestion);
    assert.equal(json.totals.estimatedUsd, 0.0004);
  });

  it('reports progress one line per state change, with a live line only on a terminal', () => {
    const plain: string[] = [];
    const p = new ProgressReporter({ write: (t: string) => plain.push(t) });
    p.onEvent({ type: 'queued', reviewId: 'r', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', output: 'findings' });
    p.onEvent({ type: 'started', reviewId: 'r', agent: 'analyst', model: 'gpt-4.1' });
    p.onEvent({ type: 'delta', reviewId: 'r', agent: 'analyst', text: 'abc' });
    p.onEvent({ type: 'done', reviewId: 'r', agent: 'analyst', result: result('analyst') });
    assert.deepEqual(plain, ['quorum: [analyst] queued (gpt-4.1)\n', 'quorum: [analyst] started (gpt-4.1)\n', 'quorum: [analyst] done: 0 findings, 1.2s, $0.0010\n']);

    const tty: string[] = [];
    let now = 0;
    const t = new ProgressReporter({ write: (x: string) => tty.push(x), isTTY: true }, { now: () => now, redrawMs: 100 });
    t.onEvent({ type: 'queued', reviewId: 'r', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', output: 'findings' });
    t.onEvent({ type: 'started', reviewId: 'r', agent: 'analyst', model: 'gpt-4.1' });
    now = 500;
    t.onEvent({ type: 'delta', reviewId: 'r', agent: 'analyst', text: 'abcdef' });
    assert.equal(tty.at(-1), 'analyst 6 chars');
    t.onEvent({ type: 'delta', reviewId: 'r', agent: 'analyst', text: 'g' });
    assert.equal(tty.at(-1), 'analyst 6 chars', 'not redrawn within redrawMs');
    t.close();
    assert.equal(tty.at(-1), '\r\x1b[K', 'the live line is cleared');
  });

  it('knows file languages and counts lines like an editor', () => {
    assert.equal(languageOfFile('a/b/c.py'), 'python');
    assert.equal(languageOfFile('Dockerfile'), 'dockerfile');
    assert.equal(languageOfFile('x.unknown'), 'plaintext');
    assert.deepEqual(splitLines('a\r\nb\n'), ['a', 'b']);
    assert.deepEqual(splitLines('a\n\n'), ['a', '']);
  });
});
