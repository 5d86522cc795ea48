import { strict as assert } from 'node:assert';
import * as z from 'zod';
import { renderReport } from '../../../src/core/report/render';
import { finding, summary } from './fixtures';

/**
 * `--format codequality`: GitLab's Code Quality report (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format),
 * checked against the documented fields, with fingerprints that do not move when the code does.
 */

const issueSchema = z.strictObject({
  type: z.literal('issue'),
  description: z.string().min(1),
  check_name: z.string().min(1),
  fingerprint: z.string().regex(/^[0-9a-f]{32}$/),
  severity: z.enum(['info', 'minor', 'major', 'critical', 'blocker']),
  location: z.strictObject({ path: z.string(), lines: z.strictObject({ begin: z.number().int().min(1), end: z.number().int().min(1) }) }),
});
const reportSchema = z.array(issueSchema);

const code = ['import os', 'def run(cmd):', '    return os.system(cmd)', 'x = 1', 'y = 2', '    return os.system(cmd)'];
const render = (lines: readonly string[], findings: Parameters<typeof summary>[0]) =>
  reportSchema.parse(JSON.parse(renderReport(summary(findings), 'codequality', { version: '1.0.0', pathOf: (f) => f.replace(/^\/repo\//, ''), linesOf: () => lines })));

describe('--format codequality (GitLab Code Quality report)', () => {
  it('one issue per finding with the documented fields, severities on GitLab\'s scale, paths relative to the repository', () => {
    const report = render(code, [
      finding({ severity: 'critical', title: 'Command injection', cwe: 'CWE-78', startLine: 3, endLine: 3, agents: ['security'] }),
      finding({ severity: 'high', title: 'Shell', startLine: 2, endLine: 3 }),
      finding({ severity: 'medium', title: 'M', startLine: 4, endLine: 4 }),
      finding({ severity: 'low', title: 'L', startLine: 5, endLine: 5 }),
      finding({ severity: 'info', title: 'I', startLine: 1, endLine: 1 }),
    ]);
    assert.deepEqual(report.map((i) => i.severity), ['blocker', 'critical', 'major', 'minor', 'info']);
    assert.deepEqual(report[0], { ...report[0], description: 'Command injection (CWE-78) [security]', check_name: 'quorum/security/CWE-78', location: { path: 'src/db/users.py', lines: { begin: 3, end: 3 } } });
    assert.equal(new Set(report.map((i) => i.fingerprint)).size, 5);
  });

  it('fingerprints follow the flagged code, not its line numbers: moved code keeps its issue, edited code gets a new one, twins stay apart', () => {
    const raised = finding({ severity: 'high', title: 'Command injection', cwe: 'CWE-78', startLine: 3, endLine: 3 });
    const [before] = render(code, [raised]);
    const [moved] = render(['# a', '# b', ...code], [{ ...raised, startLine: 5, endLine: 5 }]);
    const [edited] = render(code.map((l, i) => (i === 2 ? '    return subprocess.run(cmd)' : l)), [raised]);
    assert.equal(moved?.fingerprint, before?.fingerprint);
    assert.notEqual(edited?.fingerprint, before?.fingerprint);
    const twins = render(code, [raised, { ...raised, id: 'twin', startLine: 6, endLine: 6 }]);
    assert.notEqual(twins[0]?.fingerprint, twins[1]?.fingerprint, 'the same finding on two identical lines');
    const [elsewhere] = reportSchema.parse(JSON.parse(renderReport(summary([raised]), 'codequality', { version: '1.0.0', pathOf: () => 'other.py', linesOf: () => code })));
    assert.notEqual(elsewhere?.fingerprint, before?.fingerprint, 'the path is part of it');
  });

  it('an empty review is an empty array (the widget then shows no new issue)', () => {
    assert.deepEqual(render(code, []), []);
  });
});
