import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCodeAnswer } from '../../../src/core/agents/codeAnswer';
import { MAX_FINDINGS_PER_AGENT, parseFindings } from '../../../src/core/agents/findings';

const dir = join(__dirname, '..', '..', 'fixtures', 'answers');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

type Expected = Record<string, unknown>;
interface FindingsCase { parsed: boolean; findings: Expected[] }
interface CodeCase { parsed: boolean; improvedCode?: string; rationale?: string; rationaleIncludes?: string[] }
const { _target: findingsTarget, ...findingsCases } = JSON.parse(read('expected.json')) as { _target: { startLine: number; endLine: number } } & Record<string, FindingsCase>;
const { _target: codeTarget, ...codeCases } = JSON.parse(read('expected-code.json')) as { _target: { startLine: number } } & Record<string, CodeCase>;

const findingsScope = { regions: [{ file: 'src/users.ts', ...findingsTarget }] };
const codeScope = { regions: [{ file: 'src/users.ts', startLine: codeTarget.startLine, endLine: codeTarget.startLine + 1000 }] };

describe('findings parser over a corpus of messy model answers', () => {
  const target = findingsTarget;
  for (const [name, expected] of Object.entries<FindingsCase>(findingsCases)) {
    it(name, () => {
      const result = parseFindings(read(name), 'analyst', findingsScope);
      assert.equal(result.parsed, expected.parsed, 'parsed');
      assert.equal(result.findings.length, expected.findings.length, 'number of findings');
      expected.findings.forEach((want, i) => {
        const got = result.findings[i] as unknown as Record<string, unknown>;
        for (const [key, value] of Object.entries(want)) {
          if (value === null) assert.equal(got[key], undefined, `finding ${i}: ${key} should be absent`);
          else assert.deepEqual(got[key], value, `finding ${i}: ${key}`);
        }
        assert.ok((got.startLine as number) >= target.startLine && (got.endLine as number) <= target.endLine, 'lines inside the range');
        assert.deepEqual(got.agents, ['analyst']);
        assert.equal(got.file, 'src/users.ts', 'a single-region review puts every finding in its file');
        assert.ok(typeof got.confidence === 'number' && got.confidence >= 0 && got.confidence <= 1);
      });
    });
  }
});

describe('coding-agent answer parser over a corpus', () => {
  for (const [name, expected] of Object.entries<CodeCase>(codeCases)) {
    it(name, () => {
      const result = parseCodeAnswer(read(name), codeScope);
      assert.equal(result.parsed, expected.parsed);
      if (expected.improvedCode !== undefined) assert.equal(result.improvedCode, expected.improvedCode);
      if (expected.rationale !== undefined) assert.equal(result.rationale, expected.rationale);
      for (const part of expected.rationaleIncludes ?? []) assert.ok(result.rationale?.includes(part), `rationale mentions "${part}"`);
      if (!expected.parsed) assert.equal(result.improvedCode, undefined);
    });
  }
});

describe('findings parser limits', () => {
  it('keeps at most MAX_FINDINGS_PER_AGENT findings of a runaway answer', () => {
    const many = JSON.stringify({ findings: Array.from({ length: 500 }, (_, i) => ({ severity: 'low', title: `t${i}`, explanation: 'e', startLine: 12 })) });
    const result = parseFindings(many, 'analyst', findingsScope);
    assert.equal(result.findings.length, MAX_FINDINGS_PER_AGENT);
    assert.deepEqual(new Set(result.findings.map((f) => f.id)).size, MAX_FINDINGS_PER_AGENT, 'ids are unique');
  });
});

