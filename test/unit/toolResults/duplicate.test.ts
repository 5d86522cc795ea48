import { strict as assert } from 'node:assert';
import { repeatedToolResult, saysTheSame } from '../../../src/core/toolResults/duplicate';
import { splitByNoise } from '../../../src/core/review/noise';
import { markRepeats } from '../../../src/core/toolResults/repeats';
import type { ToolResult } from '../../../src/core/domain/toolResult';
import type { Finding } from '../../../src/core/domain/finding';

const finding = (over: Partial<Finding>): Finding => ({ id: 'f1', file: 'src/app.ts', agents: ['coding'], severity: 'low', title: 't', explanation: '', startLine: 3, endLine: 3, confidence: 0.8, ...over });
const result = (over: Partial<ToolResult>): ToolResult => ({ tool: 'eslint', rule: 'no-unused-vars', severity: 'warning', file: 'src/app.ts', startLine: 3, endLine: 3, message: "'total' is assigned a value but never used.", ...over });

describe('the duplicate rule: a finding that repeats a tool result', () => {
  it('the same rule family in other words: unused, undefined names, type errors, bare except, loose equality', () => {
    const cases: [Partial<Finding>, Partial<ToolResult>][] = [
      [{ title: 'Variable total is never used' }, {}],
      [{ title: 'Unused import os' }, { tool: 'ruff', rule: 'F401', message: '`os` imported but unused', file: 'src/app.ts' }],
      [{ title: 'Reference to an undefined variable `cfg`' }, { tool: 'ts', rule: '2304', message: "Cannot find name 'cfg'.", severity: 'error' }],
      [{ title: 'Type mismatch: string passed where number expected' }, { tool: 'ts', rule: '2345', message: "Argument of type 'string' is not assignable to parameter of type 'number'.", severity: 'error' }],
      [{ title: 'Bare except swallows every error' }, { tool: 'ruff', rule: 'E722', message: 'Do not use bare `except`' }],
      [{ title: 'Loose equality (==) may coerce types' }, { rule: 'eqeqeq', message: "Expected '===' and instead saw '=='." }],
    ];
    for (const [f, r] of cases) assert.ok(saysTheSame(finding(f), result(r)), `${f.title} vs ${r.rule ?? 'no-unused-vars'}`);
  });

  it('the same CWE or one of its family, the rule named in the finding, or a similar title', () => {
    const semgrep = result({ tool: 'semgrep', rule: 'python.lang.security.audit.dangerous-system-call.dangerous-system-call', message: 'Found user-controlled data used in a system call.', cwe: ['CWE-78'] });
    assert.ok(saysTheSame(finding({ title: 'Shell injection through cmd', cwe: 'CWE-78' }), semgrep));
    assert.ok(saysTheSame(finding({ title: 'Shell injection through cmd', cwe: 'CWE-77' }), semgrep), 'CWE-77 is of the family of CWE-78');
    assert.ok(saysTheSame(finding({ title: 'Violates no-unused-vars' }), result({ message: 'x' })));
    assert.ok(saysTheSame(finding({ title: 'TS2322 on the assignment' }), result({ tool: 'ts', rule: '2322', message: 'x' })));
    assert.ok(saysTheSame(finding({ title: 'Flagged as dangerous-system-call' }), result({ tool: 'semgrep', rule: 'python.lang.security.audit.dangerous-system-call.dangerous-system-call', message: 'x' })));
    assert.ok(saysTheSame(finding({ title: 'The compiler says ts(2322) here' }), result({ tool: 'ts', rule: '2322', message: 'x' })));
    assert.equal(saysTheSame(finding({ title: 'Magic number 2322' }), result({ tool: 'ts', rule: '2322', message: 'x' })), false, 'a bare number is not the rule');
    assert.equal(saysTheSame(finding({ title: 'Magic number TS23220' }), result({ tool: 'ts', rule: '2322', message: 'x' })), false, 'only whole names');
    assert.ok(saysTheSame(finding({ title: 'Found user-controlled data used in a system call' }), result({ tool: 'bandit', rule: 'B605', message: 'Found user-controlled data used in a system call.' })));
  });

  it('another thing on the same lines is not a repeat: a logic bug beside a lint warning, another CWE', () => {
    assert.equal(saysTheSame(finding({ title: 'Off-by-one: the loop skips the last item', explanation: 'i < n - 1 leaves out items[n-1].' }), result({})), false);
    assert.equal(saysTheSame(finding({ title: 'SQL injection through name', cwe: 'CWE-89' }), result({ tool: 'semgrep', rule: 'dangerous-system-call', message: 'system call', cwe: ['CWE-78'] })), false);
    assert.equal(saysTheSame(finding({ title: 'Division by zero when the list is empty' }), result({ tool: 'ts', rule: '2322', message: "Type 'string' is not assignable to type 'number'.", severity: 'error' })), false);
  });

  it('needs the same file and overlapping lines', () => {
    const f = finding({ title: 'Variable total is never used', startLine: 3, endLine: 4 });
    assert.deepEqual(repeatedToolResult(f, [result({ startLine: 4, endLine: 6 })]), { tool: 'eslint', rule: 'no-unused-vars' });
    assert.equal(repeatedToolResult(f, [result({ startLine: 5, endLine: 6 })]), undefined);
    assert.equal(repeatedToolResult(f, [result({ file: 'src/other.ts' })]), undefined);
  });

  it('a repeat is hidden as reported-by-tool with the tool and rule; the rest as they were', () => {
    const repeat = finding({ id: 'a', title: 'Variable total is never used' });
    const other = finding({ id: 'b', title: 'Off-by-one in the loop', severity: 'high' });
    const summary = markRepeats({ reviewId: 'r', target: { kind: 'file', label: 'x', regions: [] }, agents: [], findings: [repeat, other], totals: { costUsd: 0, estimatedUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0, retries: 0 }, cancelled: false, elapsedMs: 0 }, [result({})]);
    assert.deepEqual(summary.findings.map((f) => f.reportedBy), [{ tool: 'eslint', rule: 'no-unused-vars' }, undefined]);
    const split = splitByNoise(summary.findings, { minConfidence: 0, minSeverity: 'info' });
    assert.deepEqual([split.shown.map((f) => f.id), split.hidden.map((h) => [h.finding.id, h.reason])], [['b'], [['a', 'reported-by-tool']]]);
    // A streamed finding (not marked yet) is judged with the tool results directly: the same rule.
    assert.deepEqual(splitByNoise([repeat], { minConfidence: 0, minSeverity: 'info', toolResults: [result({})] }).hidden.map((h) => h.reason), ['reported-by-tool']);
  });
});
