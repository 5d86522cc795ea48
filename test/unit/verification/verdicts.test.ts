import { strict as assert } from 'node:assert';
import { parseVerdicts, verifierMessages } from '../../../src/core/verification/verifier';
import { splitByNoise } from '../../../src/core/review/noise';
import type { Finding } from '../../../src/core/domain/finding';
import { applyVerdict, needsVerification, verifierModelFor } from '../../../src/core/verification/verdicts';
import { parseSettings } from '../../../src/core/settings/parse';

const finding = (over: Partial<Finding>): Finding => ({
  id: 'security-1', file: 'a.py', agents: ['security'], severity: 'high', title: 'SQL injection', explanation: 'x', startLine: 3, endLine: 3, confidence: 0.8, ...over,
});
const agents = [
  { agent: 'analyst', model: 'gpt-4.1' },
  { agent: 'architecture', model: 'claude-sonnet-4.5' },
  { agent: 'security', model: 'gemini-2.5-flash' },
];

describe('verification: the verdict rules', () => {
  it('confirmed raises confidence like a second opinion; uncertain keeps it; refuted keeps it and the noise filter hides it with reason refuted', () => {
    const f = finding({ confidence: 0.6 });
    const confirmed = applyVerdict(f, { verdict: 'confirmed', reason: 'yes' }, 'gpt-4.1');
    assert.equal(confirmed.confidence, 0.8);
    assert.deepEqual(confirmed.verification, { verdict: 'confirmed', by: 'gpt-4.1', reason: 'yes' });
    assert.equal(applyVerdict(f, { verdict: 'uncertain', reason: 'hm' }, 'm').confidence, 0.6);
    const refuted = applyVerdict(f, { verdict: 'refuted', reason: 'no' }, 'm');
    assert.equal(refuted.confidence, 0.6);
    const split = splitByNoise([confirmed, refuted], { minConfidence: 0, minSeverity: 'info' });
    assert.deepEqual(split.shown.map((x) => x.verification?.verdict), ['confirmed']);
    assert.deepEqual(split.hidden.map((h) => h.reason), ['refuted']);
  });

  it('no verdict: the finding is as it was, marked unverified; a later verdict clears the mark', () => {
    const f = finding({});
    const u = applyVerdict(f, undefined, 'm');
    assert.deepEqual({ ...u, unverified: undefined }, { ...f, unverified: undefined });
    assert.equal(u.unverified, true);
    assert.equal(applyVerdict(u, { verdict: 'confirmed', reason: '' }, 'm').unverified, undefined);
  });

  it('only findings at or above quorum.review.verifyMinSeverity that have no verdict yet are checked', () => {
    const settings = parseSettings({ review: { verifyMinSeverity: 'medium' } }).settings;
    assert.equal(needsVerification(finding({ severity: 'high' }), settings), true);
    assert.equal(needsVerification(finding({ severity: 'low' }), settings), false);
    assert.equal(needsVerification(finding({ verification: { verdict: 'confirmed', by: 'm', reason: '' } }), settings), false);
    assert.equal(parseSettings({}).settings.review.verifyMinSeverity, 'low');
    assert.equal(parseSettings({}).settings.review.verify, 'cross-model');
  });

  it('cross-model: never a model whose agent raised the finding; by default one that raised none of them', () => {
    const bySecurity = finding({ agents: ['security'] });
    const byTwo = finding({ agents: ['analyst', 'security'] });
    // Reviewers used gpt-4.1, claude and gemini; the first model that raised none of the checked findings.
    assert.equal(verifierModelFor(bySecurity, [bySecurity, byTwo], agents, 'cross-model', ''), 'claude-sonnet-4.5');
    // The configured model, unless it raised this finding.
    assert.equal(verifierModelFor(bySecurity, [bySecurity], agents, 'cross-model', 'gpt-4o'), 'gpt-4o');
    assert.equal(verifierModelFor(bySecurity, [bySecurity], agents, 'cross-model', 'gemini-2.5-flash'), 'gpt-4.1');
    // Every reviewer model raised something: the first that did not raise this one.
    const byAll = [finding({ agents: ['analyst'] }), finding({ agents: ['architecture'] }), bySecurity];
    const four = [...agents, { agent: 'coding', model: 'deepseek-v3.2' }];
    assert.equal(verifierModelFor(bySecurity, byAll, four, 'cross-model', ''), 'deepseek-v3.2');
    const everyModel = [{ agent: 'security', model: 'm1' }];
    assert.notEqual(verifierModelFor(finding({}), [finding({})], everyModel, 'cross-model', ''), 'm1');
  });

  it('same-model: the configured model, else the model that raised it', () => {
    assert.equal(verifierModelFor(finding({}), [], agents, 'same-model', ''), 'gemini-2.5-flash');
    assert.equal(verifierModelFor(finding({}), [], agents, 'same-model', 'gpt-4o'), 'gpt-4o');
  });
});

describe('verification: the verifier agent\'s request and its untrusted answer', () => {
  const region = { file: 'a.py', language: 'python', text: ['a = 1', 'b = 2', 'q = "SELECT " + x', 'c = 3'].join('\n'), startLine: 1, endLine: 4 };

  it('sends several findings in one request, each with its lines numbered and its context when there is one', () => {
    const [system, user] = verifierMessages([
      { id: 'F1', finding: finding({}), region },
      { id: 'F2', finding: finding({ title: 'Other', startLine: 1, endLine: 1 }), region, context: 'def helper(): pass' },
    ], 'ko');
    assert.match(system?.content ?? '', /verdicts/);
    assert.match(system?.content ?? '', /Korean/);
    assert.match(user?.content ?? '', /## Finding F1\nFile: a\.py, line 3\nSeverity: high\nTitle: SQL injection/);
    assert.match(user?.content ?? '', /3 \| q = "SELECT " \+ x/);
    assert.match(user?.content ?? '', /## Finding F2[\s\S]*Context \(code elsewhere[\s\S]*def helper\(\): pass/);
  });

  it('keeps only well-formed verdicts for ids it was sent; nonsense is undefined', () => {
    const text = '```json\n{"verdicts":[{"id":"F1","verdict":"REFUTED","reason":"no"},{"id":"F9","verdict":"confirmed"},{"id":"F2","verdict":"probably"},{"id":"F3","verdict":"confirmed"},{"id":"F1","verdict":"confirmed"}]}\n```';
    const v = parseVerdicts(text, ['F1', 'F2', 'F3']);
    assert.deepEqual(v && [...v], [['F1', { verdict: 'refuted', reason: 'no' }], ['F3', { verdict: 'confirmed', reason: '' }]]);
    assert.equal(parseVerdicts('Looks fine to me.', ['F1']), undefined);
    assert.equal(parseVerdicts('{"findings":[]}', ['F1']), undefined);
    assert.equal(parseVerdicts('{"verdicts":"all good"}', ['F1']), undefined);
  });
});
