import { strict as assert } from 'node:assert';
import { escapeData, escapeProperty, toGithubAnnotations, workflowCommand } from '../../../src/core/report/githubAnnotations';
import { toStepSummary } from '../../../src/core/report/stepSummary';
import { agent, finding, summary } from './fixtures';

const pathOf = (file: string) => file.replace(/^\/repo\//, '');

describe('GitHub annotations', () => {
  it('escapes data and properties exactly as @actions/core does', () => {
    assert.equal(escapeData('50% done\r\nnext: a, b'), '50%25 done%0D%0Anext: a, b');
    assert.equal(escapeProperty('50% done\r\nnext: a, b'), '50%25 done%0D%0Anext%3A a%2C b');
    assert.equal(escapeData('%0A already'), '%250A already', 'an escape in the text is not taken as one');
    assert.equal(workflowCommand('error', { file: 'a,b:c.ts', line: 3, title: undefined }, 'x'), '::error file=a%2Cb%3Ac.ts,line=3::x');
    assert.equal(workflowCommand('notice', {}, 'plain'), '::notice::plain');
  });

  it('prints one command per finding, at its file and lines, so model text cannot start a command of its own', () => {
    const hostile = finding({ severity: 'high', title: 'Title, with: colon', explanation: 'line one\n::add-mask::secret\r\n100%', startLine: 3, endLine: 5, agents: ['security', 'analyst'], cwe: 'CWE-78', confidence: 0.8 });
    const out = toGithubAnnotations(summary([hostile, finding({ severity: 'medium', title: 'm' }), finding({ severity: 'info', title: 'i' })]), { pathOf });
    const lines = out.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], '::error file=src/db/users.py,line=3,endLine=5,title=[high] Title%2C with%3A colon::line one%0A::add-mask::secret%0D%0A100%25%0A%0Asecurity, analyst · confidence 80%25 · CWE-78');
    assert.match(lines[1] ?? '', /^::warning file=src\/db\/users\.py,line=2,endLine=2,title=\[medium\] m::/);
    assert.match(lines[2] ?? '', /^::notice file=src\/db\/users\.py,line=2,endLine=2,title=\[info\] i::/);
  });

  it('shows at most 10 annotations of each level and sums up the rest in one notice', () => {
    const many = [
      ...Array.from({ length: 13 }, (_, i) => finding({ severity: i % 2 ? 'high' : 'critical', title: `e${i}` })),
      ...Array.from({ length: 4 }, (_, i) => finding({ severity: 'medium', title: `w${i}` })),
      ...Array.from({ length: 12 }, (_, i) => finding({ severity: 'low', title: `n${i}` })),
    ];
    const lines = toGithubAnnotations(summary(many), { pathOf }).trimEnd().split('\n');
    const count = (c: string) => lines.filter((l) => l.startsWith(`::${c} `) || l.startsWith(`::${c}::`)).length;
    assert.equal(count('error'), 10);
    assert.equal(count('warning'), 4);
    assert.equal(count('notice'), 10, '9 findings and the summary');
    assert.equal(lines.at(-1), '::notice title=Quorum%3A more findings::6 more findings are not annotated (3 errors, 3 notices): a step shows at most 10 annotations of each level. See the job summary or the SARIF report for all 29.');
  });

  it('adds no summary line when every level fits, and reports failed agents as errors', () => {
    const s = summary(Array.from({ length: 10 }, (_, i) => finding({ severity: 'low', title: `n${i}` })), {
      agents: [agent('analyst'), agent('security', { status: 'error', error: { code: 'auth', message: 'invalid key' } })],
    });
    const lines = toGithubAnnotations(s, { pathOf }).trimEnd().split('\n');
    assert.equal(lines.length, 11);
    assert.equal(lines[0], '::error title=Quorum%3A security failed::security (security-model) failed: auth - invalid key');
    assert.equal(toGithubAnnotations(summary([]), { pathOf }), '');
  });
});

describe('GitHub step summary', () => {
  it('has the findings table, the models and the cost, with model text escaped', () => {
    const md = toStepSummary(summary([finding({ severity: 'critical', title: 'Bad | <b>pipe</b> [x](javascript:alert(1))', cwe: 'CWE-89', agents: ['security', 'analyst'], startLine: 4, endLine: 6, confidence: 0.88 })], {
      agents: [agent('analyst', { cached: true, costUsd: 0, costSource: 'cached' }), agent('security', { status: 'error', error: { code: 'quota', message: 'spent' } })],
    }), { pathOf });
    assert.match(md, /^### Quorum review: src\/db\/users\.py lines 1–12$/m);
    assert.match(md, /\*\*1 finding\*\* · cost \$0\.0040 · 4 requests · 1 cached · \*\*1 agent failed\*\*/);
    assert.match(md, /\| 🔴 critical \| `src\/db\/users\.py:4–6` \| Bad \\\| \\<b\\>pipe\\<\/b\\> \\\[x\\\]\(javascript:alert\(1\)\) \(CWE-89\) \| security, analyst \| 88% \|/);
    assert.match(md, /^\| analyst \| analyst-model \| ok \(cached\) \| 100\/50 \| \$0\.00 \|$/m);
    assert.match(md, /^\| security \| security-model \| failed: quota \|/m);
    assert.match(md, /^\| \*\*Total\*\* \| \| \| 400\/200 \| \*\*\$0\.0040\*\* \|$/m);
    assert.ok(!/<b>/.test(md), 'no raw HTML');
  });
});
