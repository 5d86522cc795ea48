import { strict as assert } from 'node:assert';
import { parseFindings } from '../../../src/core/agents/findings';
import { buildMessages } from '../../../src/core/agents/messages';
import { singleTarget } from '../../../src/core/domain/target';
import { fitReplacement, looksLikeProse } from '../../../src/core/fix/replacement';
import { syntaxErrorCount } from '../../../src/core/fix/syntax';

const scope = { regions: [{ file: 'orders.py', startLine: 7, endLine: 14 }] };

describe('Apply fix: code for the lines, never prose', () => {
  it('tells prose from code', () => {
    const prose = [
      'Use a parameterized query: cur.execute("SELECT * FROM t WHERE id = ?", (id,))',
      'Consider validating the input before using it.',
      'You should escape the value instead of concatenating it.',
      '매개변수화된 쿼리를 사용하세요',
      'Replace the string concatenation with a prepared statement',
      'Avoid eval here; parse the JSON instead.',
      'Validate order_id as an integer.',
    ];
    const code = [
      '    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))',
      'if user is not None and user.active:\n    return user',
      'use std::io;', 'from a import b as c', 'return a + b if x else y', 'else:', '}', 'make install',
      "const row = await db.get('SELECT * FROM users WHERE name = ?', [username]);",
      '# Use a parameterized query here\nx = 1',
      'raise ValueError("the value should be positive, not zero.")',
      '"""\nThis function returns the order for the given id.\n"""\nreturn x',
      'SELECT name FROM users WHERE id = ?;',
      'export default function App() { return <div>Hello the world</div>; }',
      'x = y  # you should not do this',
      'let total = prices.reduce((a, b) => a + b, 0);',
    ];
    for (const p of prose) assert.equal(looksLikeProse(p), true, p);
    for (const c of code) assert.equal(looksLikeProse(c), false, c);
  });

  it('keeps the lines\' indentation: a column-0 replacement is moved in, another indentation is refused', () => {
    assert.deepEqual(fitReplacement('cur.execute(q, (id,))\nif x:\n    y()', '    cur = conn.execute(q)\n    return 1'), { ok: true, code: '    cur.execute(q, (id,))\n    if x:\n        y()' });
    assert.deepEqual(fitReplacement('    a = 1', '    b = 2'), { ok: true, code: '    a = 1' });
    assert.deepEqual(fitReplacement('  a = 1', '    b = 2'), { ok: false, reason: 'indentation' });
    assert.deepEqual(fitReplacement('Use a parameterized query: cur.execute(q)', '    cur.execute(x)'), { ok: false, reason: 'prose' });
    assert.deepEqual(fitReplacement('x = 1 \u202E', 'x = 2'), { ok: false, reason: 'bidi' });
    assert.deepEqual(fitReplacement('Use the new API.', 'Use the old API.', { prose: true }), { ok: true, code: 'Use the new API.' });
    assert.deepEqual(fitReplacement('', '    x = 1'), { ok: true, code: '' }, 'deleting the lines is code');
  });

  it('the tree-sitter grammars count the syntax errors a replacement would add, in every language with a grammar', async function () {
    this.timeout(60_000);
    assert.equal(await syntaxErrorCount('const a = 1;\nfunction f(x: number) { return x + 1; }', 'typescript'), 0);
    assert.ok(((await syntaxErrorCount('const a = 1;\nUse a parameterized query: db.get(q, [x])\n', 'typescript')) ?? 0) > 0);
    assert.ok(((await syntaxErrorCount('let x = foo(;', 'javascript')) ?? 0) > 0);
    assert.equal(await syntaxErrorCount('const x = <div>hi</div>;', 'typescriptreact'), 0);
    assert.equal(await syntaxErrorCount('const x = <b>hi</b>;', 'javascriptreact'), 0);
    assert.equal(await syntaxErrorCount('let x: number = "s";', 'typescript'), 0, 'syntax only, no type checking');
    const cases: [language: string, good: string, bad: string][] = [
      ['python', 'def f(x):\n    return x + 1\n', 'def f(x):\n    return x +\n'],
      ['go', 'package p\n\nfunc F(x int) int {\n\treturn x + 1\n}\n', 'package p\n\nfunc F(x int) int {\n\treturn x +\n}\n'],
      ['java', 'class A {\n  int f(int x) { return x + 1; }\n}\n', 'class A {\n  int f(int x) { return x + ; }\n}\n'],
      ['csharp', 'class A {\n  int F(int x) { return x + 1; }\n}\n', 'class A {\n  int F(int x) { return (x + 1; }\n}\n'],
      ['php', '<?php\nfunction f($x) { return $x + 1; }\n', '<?php\nfunction f($x) { return $x + ; }\n'],
      ['ruby', 'def f(x)\n  x + 1\nend\n', 'def f(x)\n  if x\n    x + 1\nend\n'],
      ['rust', 'fn f(x: i32) -> i32 {\n    x + 1\n}\n', 'fn f(x: i32) -> i32 {\n    x + \n}\n'],
    ];
    for (const [language, good, bad] of cases) {
      assert.equal(await syntaxErrorCount(good, language), 0, `${language}: ${good}`);
      assert.ok(((await syntaxErrorCount(bad, language)) ?? 0) > 0, `${language}: ${bad}`);
    }
    assert.equal(await syntaxErrorCount('x = 1', 'plaintext'), undefined);
  });

  it('asks for the replacement code and the advice in separate fields', () => {
    const target = singleTarget({ file: 'orders.py', language: 'python', text: 'x = 1', startLine: 7, endLine: 7 });
    const messages = buildMessages({ agent: { systemPrompt: 'Review.', output: 'findings' }, target, language: 'en' });
    const system = messages[0]?.content ?? '';
    assert.match(system, /"replacement":"…","advice":"…"/);
    assert.match(system, /replacement is optional and must be CODE ONLY/);
    assert.match(system, /advice is optional: how to fix it, in words/);
    assert.doesNotMatch(system, /"suggestion"/);
  });

  it('parses replacement and advice; prose in a code field (old answers) becomes advice, never a fix', () => {
    const answer = JSON.stringify({ findings: [
      { title: 'SQL injection', severity: 'high', startLine: 10, endLine: 11, replacement: '    cur.execute(q, (id,))', advice: 'Bind the id as a parameter.' },
      { title: 'Old answer with prose', severity: 'high', startLine: 10, endLine: 11, suggestion: 'Use a parameterized query: cur.execute(...)' },
      { title: 'Old answer with code', severity: 'low', startLine: 12, endLine: 12, suggestion: '    return rows[0]' },
      { title: 'Prose in replacement', severity: 'low', startLine: 12, endLine: 12, replacement: 'Consider checking for an empty result first.', advice: 'Check the length.' },
    ] });
    const { findings } = parseFindings(answer, 'security', scope);
    assert.deepEqual(findings.map((f) => [f.suggestion, f.advice]), [
      ['    cur.execute(q, (id,))', 'Bind the id as a parameter.'],
      [undefined, 'Use a parameterized query: cur.execute(...)'],
      ['    return rows[0]', undefined],
      [undefined, 'Check the length.\n\nConsider checking for an empty result first.'],
    ]);
  });
});

describe('findings outside the reviewed lines', () => {
  it('are marked with the lines the agent named, or dropped below the confidence floor', () => {
    const answer = JSON.stringify({ findings: [
      { title: 'Outside, sure', startLine: 54, endLine: 56, confidence: 0.9 },
      { title: 'Outside, unsure', startLine: 54, endLine: 56, confidence: 0.3 },
      { title: 'Across the edge, unsure', startLine: 13, endLine: 16, confidence: 0.3 },
      { title: 'Inside', startLine: 8, endLine: 9, confidence: 0.2 },
    ] });
    const { findings } = parseFindings(answer, 'analyst', scope);
    assert.deepEqual(findings.map((f) => [f.title, f.startLine, f.endLine, f.clamped ?? false, f.reportedLines]), [
      ['Outside, sure', 14, 14, true, { startLine: 54, endLine: 56 }],
      ['Across the edge, unsure', 13, 14, true, { startLine: 13, endLine: 16 }],
      ['Inside', 8, 9, false, undefined],
    ]);
  });
});
