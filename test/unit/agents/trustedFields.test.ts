import { strict as assert } from 'node:assert';
import { normalizeCwe, parseFindings } from '../../../src/core/agents/findings';
import { findBidi, revealBidi } from '../../../src/shared/bidi';

describe('untrusted fields of a finding', () => {
  it('CWE: only a well-formed id is accepted; text that merely contains a number gives none', () => {
    const accepted: [unknown, string][] = [
      ['CWE-89', 'CWE-89'], ['cwe-79', 'CWE-79'], ['CWE 22', 'CWE-22'], ['CWE_78', 'CWE-78'], ['CWE502', 'CWE-502'],
      ['  CWE-89: SQL Injection', 'CWE-89'], ['CWE-918 (SSRF)', 'CWE-918'], [89, 'CWE-89'], ['611', 'CWE-611'],
    ];
    for (const [raw, want] of accepted) assert.equal(normalizeCwe(raw), want, String(raw));
    const refused: unknown[] = [
      'javascript:alert(1)//79', 'see CWE-89', 'SQL injection (CWE-89)', 'CWE-0', 'CWE-', 'CWE-89abc', 'CWE-123456', 'CWE-89x',
      '79 or 89', 'https://cwe.mitre.org/data/definitions/79.html', '', 0, -5, 1.5, Number.NaN, null, { id: 79 }, ['CWE-79'],
    ];
    for (const raw of refused) assert.equal(normalizeCwe(raw), undefined, JSON.stringify(raw));
  });

  it('CWE: a hostile value in an answer does not become a CWE of the finding', () => {
    const answer = JSON.stringify({ findings: [{ title: 'x', severity: 'high', line: 3, cwe: 'javascript:alert(1)//79' }, { title: 'y', line: 4, cwe: 'cwe-89' }] });
    const { findings } = parseFindings(answer, 'security', { regions: [{ file: 'a.ts', startLine: 1, endLine: 10 }] });
    assert.deepEqual(findings.map((f) => f.cwe), [undefined, 'CWE-89']);
  });

  it('bidi controls: found with their lines, revealed as visible tokens', () => {
    const text = 'ok\nif (isAdmin\u202E \u2066// check\u2069\u2066) {\nx\u200Fy\u061C';
    assert.deepEqual(findBidi(text), [
      { line: 2, codePoint: 'U+202E' }, { line: 2, codePoint: 'U+2066' }, { line: 2, codePoint: 'U+2069' }, { line: 2, codePoint: 'U+2066' },
      { line: 3, codePoint: 'U+200F' }, { line: 3, codePoint: 'U+061C' },
    ]);
    assert.equal(revealBidi(text), 'ok\nif (isAdmin<U+202E> <U+2066>// check<U+2069><U+2066>) {\nx<U+200F>y<U+061C>');
    assert.deepEqual(findBidi(revealBidi(text)), []);
    for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u2067', '\u2068', '\u200E']) assert.equal(findBidi(`a${c}b`).length, 1, c.codePointAt(0)?.toString(16));
    assert.deepEqual(findBidi('plain — “quotes” 한국어 \u200B'), []);
  });
});

describe('the panel shows bidi controls in model output visibly', () => {
  it('in findings, streamed text, answers, improved code, rationale and errors', async () => {
    const { toViewEvent } = await import('../../../src/core/report/viewEvents');
    const RLO = '\u202E';
    const usage = { promptTokens: 1, completionTokens: 1, cachedTokens: 0, reasoningTokens: 0 };
    const result = {
      agent: 'coding', title: 'Coding', role: 'coder' as const, model: 'm', status: 'ok' as const, text: `a${RLO}b`, findings: [], usage, costUsd: 0, costSource: 'reported' as const,
      latencyMs: 1, attempts: 1, cached: false, improvedCode: `x = 1 ${RLO}`, rationale: `why${RLO}`, error: { code: 'empty-answer' as const, message: `m${RLO}` },
    };
    const views = [
      toViewEvent({ type: 'delta', reviewId: 'r', agent: 'coding', text: `d${RLO}` }),
      toViewEvent({ type: 'finding', reviewId: 'r', agent: 'security', finding: { id: 'f', file: 'a.ts', agents: ['security'], severity: 'high', title: `t${RLO}`, explanation: `e${RLO}`, suggestion: `s${RLO}`, startLine: 1, endLine: 1, confidence: 1 } }),
      toViewEvent({ type: 'done', reviewId: 'r', agent: 'coding', result }),
    ];
    const json = JSON.stringify(views);
    assert.ok(!json.includes(RLO));
    assert.equal(json.match(/<U\+202E>/g)?.length, 8);
  });
});
