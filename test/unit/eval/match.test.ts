import { strict as assert } from 'node:assert';
import type { ExpectedFinding } from '../../../src/core/eval/corpus';
import { sameCweFamily } from '../../../src/core/domain/cwe';
import { kindsOf, matchCase, matches, type ReportedFinding } from '../../../src/core/eval/match';

const sec = (startLine: number, endLine: number, cwe: string): ExpectedFinding => ({ startLine, endLine, kind: 'security', cwe });
const bug = (startLine: number, endLine: number, ...keywords: string[]): ExpectedFinding => ({ startLine, endLine, kind: 'bug', keywords });
const design = (startLine: number, endLine: number, ...keywords: string[]): ExpectedFinding => ({ startLine, endLine, kind: 'design', keywords });
const rep = (startLine: number, endLine: number, title: string, extra: Partial<ReportedFinding> = {}): ReportedFinding => ({
  startLine, endLine, title, explanation: '', confidence: 0.8, ...extra,
});

describe('eval matcher', () => {
  it('lines: the expected range widened by exactly 2 on each side', () => {
    const e = sec(10, 11, 'CWE-89');
    assert.equal(matches(e, rep(8, 8, 'x', { cwe: 'CWE-89' })), true, 'two above');
    assert.equal(matches(e, rep(7, 7, 'x', { cwe: 'CWE-89' })), false, 'three above');
    assert.equal(matches(e, rep(13, 20, 'x', { cwe: 'CWE-89' })), true, 'two below');
    assert.equal(matches(e, rep(14, 20, 'x', { cwe: 'CWE-89' })), false, 'three below');
    assert.equal(matches(e, rep(1, 30, 'x', { cwe: 'CWE-89' })), true, 'around');
  });

  it('security: same CWE or same family; a CWE of another family, or none, does not match', () => {
    const e = sec(5, 5, 'CWE-89');
    assert.equal(matches(e, rep(5, 5, 'SQLi', { cwe: 'CWE-89' })), true);
    assert.equal(matches(e, rep(5, 5, 'SQLi', { cwe: 'CWE-943' })), true);
    assert.equal(matches(e, rep(5, 5, 'SQL injection', { cwe: 'CWE-78' })), false);
    assert.equal(matches(e, rep(5, 5, 'SQL injection (CWE-89)')), false, 'a CWE in the title is not the CWE field');
    assert.equal(sameCweFamily('CWE-22', 'CWE-23'), true);
    assert.equal(sameCweFamily('CWE-22', 'javascript:alert(1)//22'), false);
  });

  it('bug/design: any keyword, case-insensitively, in title or explanation', () => {
    const e = bug(3, 4, 'off-by-one', 'bounds');
    assert.equal(matches(e, rep(3, 3, 'Loop runs OFF-BY-ONE')), true);
    assert.equal(matches(e, rep(3, 3, 'Loop', { explanation: 'reads out of Bounds' })), true);
    assert.equal(matches(e, rep(3, 3, 'Loop is slow')), false);
  });

  it('scope per agent', () => {
    assert.deepEqual(kindsOf('analyst'), ['bug']);
    assert.deepEqual(kindsOf('architecture'), ['design']);
    assert.deepEqual(kindsOf('security'), ['security']);
    assert.deepEqual(kindsOf('my-agent'), ['security', 'bug', 'design']);
  });

  it('an identical finding reported twice counts once as true and once as false', () => {
    const m = matchCase([sec(10, 10, 'CWE-89')], [rep(10, 10, 'a', { cwe: 'CWE-89' }), rep(10, 10, 'a', { cwe: 'CWE-89' })], ['security']);
    assert.deepEqual({ tp: m.truePositives, fp: m.falsePositives, reported: m.reported, matched: m.matchedExpected }, { tp: 1, fp: 1, reported: 2, matched: 1 });
  });

  it('maximum matching, not greedy: the first report would steal the only expected the second can match', () => {
    // r0 matches e0 and e1; r1 matches only e0. Greedy in order gives 1 pair; maximum gives 2.
    const expected = [sec(10, 10, 'CWE-89'), sec(20, 20, 'CWE-89')];
    const reported = [rep(10, 20, 'wide', { cwe: 'CWE-89' }), rep(10, 10, 'narrow', { cwe: 'CWE-89' })];
    const m = matchCase(expected, reported, ['security']);
    assert.equal(m.truePositives, 2);
    assert.deepEqual(m.pairs, [1, 0]);
  });

  it('ties: two reports for one expected finding match the first reported', () => {
    const m = matchCase([bug(5, 5, 'null')], [rep(5, 5, 'null deref A'), rep(5, 5, 'null deref B')], ['bug']);
    assert.deepEqual(m.pairs, [0, -1]);
  });

  it('a report matching an expected finding of another kind is ignored, neither true nor false', () => {
    const expected = [sec(10, 10, 'CWE-89'), bug(20, 20, 'leak')];
    const reported = [rep(10, 10, 'SQLi', { cwe: 'CWE-89' }), rep(20, 20, 'file handle leak'), rep(30, 30, 'unrelated')];
    const analyst = matchCase(expected, reported, kindsOf('analyst'));
    assert.deepEqual({ e: analyst.expected, tp: analyst.truePositives, fp: analyst.falsePositives, ign: analyst.ignored }, { e: 1, tp: 1, fp: 1, ign: 1 });
    const custom = matchCase(expected, reported, kindsOf('custom'));
    assert.deepEqual({ e: custom.expected, tp: custom.truePositives, fp: custom.falsePositives, ign: custom.ignored }, { e: 2, tp: 2, fp: 1, ign: 0 });
  });

  it('among maximum matchings, the one that leaves an ignorable report unmatched is chosen', () => {
    // r0 matches the bug and the (out-of-scope) design finding; r1 matches only the bug. Either pairs 1 report;
    // leaving r0 unmatched makes it ignored instead of a false positive.
    const expected = [bug(10, 10, 'race'), design(10, 10, 'race')];
    const reported = [rep(10, 10, 'race in cache'), rep(10, 10, 'race condition', { explanation: 'x' })];
    const both = matchCase(expected, reported, ['bug']);
    // both reports match both expected findings: one is matched, the other is ignorable (matches the design one)
    assert.deepEqual({ tp: both.truePositives, fp: both.falsePositives, ign: both.ignored }, { tp: 1, fp: 0, ign: 1 });
    const onlyOne = matchCase([bug(10, 10, 'race'), design(10, 10, 'cache')], [rep(10, 10, 'race in cache'), rep(10, 10, 'race condition')], ['bug']);
    assert.deepEqual({ tp: onlyOne.truePositives, fp: onlyOne.falsePositives, ign: onlyOne.ignored }, { tp: 1, fp: 0, ign: 1 });
    assert.deepEqual(onlyOne.pairs, [-1, 0]);
  });
});
