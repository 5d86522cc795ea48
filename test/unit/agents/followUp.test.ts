import { strict as assert } from 'node:assert';
import { buildFollowUp, type FollowUpInput } from '../../../src/core/agents/followUp';
import { compactFindings } from '../../../src/core/report/compactFindings';
import type { Finding } from '../../../src/core/domain/finding';
import { proseMarkdown } from '../../../src/shared/untrustedText';

const code = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n');
const AWS = 'AKIA' + 'QYLPMN5HHHFPZAM2';

function input(over: Partial<FollowUpInput> = {}): FollowUpInput {
  return {
    agent: { id: 'security', title: 'Security', model: 'gemini-2.5-flash', fallbackModel: 'gpt-4.1-mini' },
    finding: { severity: 'critical', title: 'SQL injection', explanation: 'order_id is concatenated.', startLine: 30, endLine: 31, suggestion: 'safe()', cwe: 'CWE-89' },
    code: { file: 'orders.py', language: 'python', startLine: 1, text: code },
    thread: [],
    question: 'Why is this exploitable?',
    language: 'ko',
    redact: true,
    reviewId: 'r1',
    ...over,
  };
}

describe('follow-up requests (core/agents/followUp)', () => {
  it("asks the finding's agent on its model and fallback, tagged with the agent and the review, the question last", async () => {
    const req = await buildFollowUp(input());
    assert.equal(req.model, 'gemini-2.5-flash');
    assert.equal(req.fallbackModel, 'gpt-4.1-mini');
    assert.deepEqual(req.tag, { agent: 'security', reviewId: 'r1' });
    assert.equal(req.messages[0]?.role, 'system');
    assert.match(req.messages[0]?.content ?? '', /Korean/);
    assert.deepEqual(req.messages.at(-1), { role: 'user', content: 'Why is this exploitable?' });
    const finding = req.messages[1]?.content ?? '';
    assert.match(finding, /SQL injection/);
    assert.match(finding, /CWE-89/);
    assert.match(finding, /safe\(\)/);
  });

  it('sends the finding\'s lines with 15 lines of context on each side, numbered as in the file', async () => {
    const finding = (await buildFollowUp(input())).messages[1]?.content ?? '';
    assert.match(finding, /15 \| line 15/);
    assert.match(finding, /46 \| line 46/);
    assert.doesNotMatch(finding, /14 \| line 14/);
    assert.doesNotMatch(finding, /47 \| line 47/);
  });

  it('keeps the conversation so far between the finding and the question', async () => {
    const req = await buildFollowUp(input({ thread: [{ from: 'user', text: 'Is it real?' }, { from: 'agent', text: 'Yes.' }] }));
    assert.deepEqual(req.messages.slice(-3).map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(req.messages.at(-2)?.content, 'Yes.');
  });

  it('redacts secrets in the code it sends, unless redaction is off', async () => {
    const text = code.replace('line 31', `key = "${AWS}"`);
    const redacted = (await buildFollowUp(input({ code: { file: 'a.py', language: 'python', startLine: 1, text } }))).messages[1]?.content ?? '';
    assert.doesNotMatch(redacted, new RegExp(AWS));
    assert.match(redacted, /\[REDACTED:/);
    const plain = (await buildFollowUp(input({ redact: false, code: { file: 'a.py', language: 'python', startLine: 1, text } }))).messages[1]?.content ?? '';
    assert.match(plain, new RegExp(AWS));
  });
});

describe('compact findings (the agent-mode tool\'s result)', () => {
  const f = (over: Partial<Finding>): Finding => ({ id: 'a', file: 'src/a.py', agents: ['security'], severity: 'low', title: 'T', explanation: 'E', startLine: 3, endLine: 3, confidence: 0.9, ...over });

  it('one line per finding, most severe first: file:lines severity [agents] title — fix', () => {
    const text = compactFindings({
      label: 'src/a.py lines 1-20',
      findings: [f({ id: 'b', title: 'Slow loop', advice: 'Use a set.\nIt is faster.' }), f({ severity: 'critical', agents: ['security', 'analyst'], cwe: 'CWE-89', title: 'SQL injection', startLine: 5, endLine: 6, suggestion: 'a()\nb()\n' })],
      hidden: 2,
      costUsd: 0.0123,
      failed: [{ agent: 'coding', code: 'timeout' }],
    });
    const lines = text.split('\n');
    assert.equal(lines[0], 'Quorum review of src/a.py lines 1-20: 2 findings (2 hidden by noise controls), cost $0.0123.');
    assert.equal(lines[1], 'Agents that failed: coding (timeout).');
    assert.equal(lines[2], 'src/a.py:5–6 critical [security+analyst] CWE-89 SQL injection — fix: replace lines 5–6 with 2 lines (first: `a()`)');
    assert.equal(lines[3], 'src/a.py:3 low [security] Slow loop — fix: Use a set. ⏎ It is faster.');
  });

  it('a one-line replacement is the fix itself; control characters in model text are shown as tokens', () => {
    const text = compactFindings({ label: 'x', findings: [f({ title: 'Bad\u001b[31m', suggestion: '    return x' })], hidden: 0, costUsd: 0, failed: [] });
    assert.match(text, /Bad<U\+001B>\[31m — fix: replace with `return x`$/);
  });
});

describe('proseMarkdown (a model answer shown as Markdown)', () => {
  it('breaks links, images, autolinks and HTML outside code, and leaves fenced code as it is', () => {
    const out = proseMarkdown('See [here](command:quorum.x) ![i](http://e/x.png) https://evil.example <img src=x>\n```js\nconst a = "[x](y)";\n```\nafter <b>');
    assert.doesNotMatch(out.split('```')[0] ?? '', /\](?!\\)\(|(?<!\\)<img|https:\/\//);
    assert.match(out, /const a = "\[x\]\(y\)";/);
    assert.match(out, /after \\<b>/);
  });
});
