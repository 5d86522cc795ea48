import { strict as assert } from 'node:assert';
import { buildMessages } from '../../../src/core/agents/messages';
import { toolResultsFor } from '../../../src/core/toolResults/select';
import { createExcluder } from '../../../src/core/prompt/exclude';
import { SecretRedactor } from '../../../src/core/redaction/redactor';
import { TOOL_RESULTS_HEADING } from '../../../src/core/toolResults/prompt';
import type { ToolResult } from '../../../src/core/domain/toolResult';
import type { ReviewTarget } from '../../../src/core/domain/target';

const agent = { systemPrompt: 'You review code.', output: 'findings' as const };
const region = { file: 'src/app.ts', language: 'typescript', text: 'const a = 1;\nconst total = a + 1;\nif (a == 1) {}\n', startLine: 10, endLine: 12 };
const target: ReviewTarget = { kind: 'selection', label: 'src/app.ts:10-12', regions: [region] };
const r = (over: Partial<ToolResult>): ToolResult => ({ tool: 'eslint', rule: 'no-unused-vars', severity: 'warning', file: 'src/app.ts', startLine: 11, endLine: 11, message: "'total' is assigned a value but never used.", ...over });

describe('tool results in the prompt', () => {
  it('one read-only block with tool, rule and lines, fenced, and the rule not to repeat them and to build on them', () => {
    const results = [r({}), r({ rule: 'eqeqeq', severity: 'error', startLine: 12, endLine: 12, message: "Expected '===' and instead saw '=='. ```" })];
    const [system, user] = buildMessages({ agent, target: { ...target, toolResults: results }, language: 'en' });
    assert.equal(user?.content.split(TOOL_RESULTS_HEADING).length, 2, 'one block');
    assert.match(user?.content ?? '', /Already reported by the project's tools \(read-only\):\n````text\nsrc\/app\.ts:11 eslint no-unused-vars \(warning\): 'total' is assigned a value but never used\.\nsrc\/app\.ts:12 eslint eqeqeq \(error\): Expected '===' and instead saw '=='\. ```\n````/);
    assert.match(system?.content ?? '', /Do not report them again/);
    assert.match(system?.content ?? '', /You may build on them/);
    const without = buildMessages({ agent, target, language: 'en' });
    assert.doesNotMatch(without[0]?.content ?? '', /Do not report them again/);
    assert.doesNotMatch(without[1]?.content ?? '', /Already reported/);
  });

  it('a request gets only the results on its regions, never of an excluded file, messages redacted, each once', async () => {
    const key = 'AKIA' + 'IOSFODNN7EXAMPLE';
    const all = [
      r({}),
      r({}),
      r({ startLine: 30, endLine: 31, message: 'far away' }),
      r({ file: 'src/other.ts' }),
      r({ rule: 'no-secrets', startLine: 10, endLine: 10, message: `Found AWS key ${key}` }),
    ];
    const redactor = new SecretRedactor();
    const chosen = await toolResultsFor(target, all, { pathOf: () => 'src/app.ts', excluder: createExcluder({ globs: [] }), redactor });
    assert.deepEqual(chosen.map((c) => [c.rule, c.startLine]), [['no-secrets', 10], ['no-unused-vars', 11]]);
    assert.doesNotMatch(JSON.stringify(chosen), new RegExp(key));
    assert.match(chosen[0]?.message ?? '', /\[REDACTED:aws-access-key-id\]/);
    const excluded = await toolResultsFor(target, all, { pathOf: () => 'src/app.ts', excluder: createExcluder({ globs: ['src/**'] }), redactor: undefined });
    assert.deepEqual(excluded, []);
  });
});
