import { strict as assert } from 'node:assert';
import { formatMarkdown, formatText } from '../../../src/core/report/readable';
import { compactFindings } from '../../../src/core/report/compactFindings';
import { commentBody } from '../../../src/core/report/pullRequest';
import { toStepSummary } from '../../../src/core/report/stepSummary';
import { toFindingView } from '../../../src/core/report/viewEvents';
import { findingSchema } from '../../../src/shared/finding';
import { findingMarks, hiddenWhy, lineWords, verifierNotice } from '../../../src/shared/labels';
import { lineLabel, lineSpan } from '../../../src/shared/lineLabel';
import { PANEL_STRINGS, translator } from '../../../src/shared/panelStrings';
import { reviewViewEventSchema } from '../../../src/shared/protocol';
import { reviewToMarkdown } from '../../../src/shared/reviewMarkdown';
import { severityLevel } from '../../../src/shared/severity';
import { summaryView } from '../../../src/core/report/viewEvents';
import { finding, summary } from './fixtures';

const t = translator(PANEL_STRINGS);
const pathOf = (file: string) => file.replace(/^\/repo\//, '');

describe('one finding model, said the same way by every face', () => {
  it('a range of lines has one dash everywhere: the text report, Markdown, the step summary, compact findings, a pull request comment', () => {
    const f = finding({ severity: 'high', title: 'Range', startLine: 3, endLine: 5, suggestion: 'a()\nb()' });
    const s = summary([f]);
    const faces = {
      text: formatText(s),
      markdown: formatMarkdown(s),
      stepSummary: toStepSummary(s, { pathOf }),
      compact: compactFindings({ label: 'x', findings: [f], hidden: 0, costUsd: 0, failed: [] }),
      comment: commentBody(f, ['0123456789abcdef'], undefined, 'a()', 'suggestion'),
    };
    for (const [face, out] of Object.entries(faces)) {
      assert.ok(out.includes('3–5'), `${face} names lines 3–5:\n${out}`);
      assert.ok(!/\b3-5\b/.test(out), `${face} has no other dash:\n${out}`);
    }
    assert.deepEqual([lineSpan(3, 3), lineSpan(3, 5), lineLabel(3, 3), lineLabel(3, 5)], ['3', '3–5', 'line 3', 'lines 3–5']);
    assert.deepEqual([lineLabel(7, 7, lineWords(t)), lineLabel(7, 9, lineWords(t)), lineLabel(7, 9, lineWords(t, true))], ['Line 7', 'Lines 7–9', 'lines 7–9']);
  });

  it('a finding\'s marks, why it is hidden and the verifier\'s note come from one place, in one order', () => {
    const f = { clamped: true, outsideChanges: true, verification: { verdict: 'refuted' as const, by: 'gpt-4.1', reason: 'guarded' }, carried: true };
    assert.deepEqual(findingMarks(t, f), ['line numbers adjusted to the selection', 'outside the changes', 'refuted by gpt-4.1: guarded', 'carried over from the last review']);
    assert.deepEqual(findingMarks(t, {}), []);
    assert.equal(hiddenWhy(t, { reportedBy: { tool: 'eslint', rule: 'eqeqeq' } }, 'reported-by-tool'), 'hidden: already reported by eslint (eqeqeq)');
    assert.equal(hiddenWhy(t, {}, 'reported-by-tool'), 'hidden: already reported by the project\'s tools');
    assert.equal(hiddenWhy(t, { learning: 'Generated code' }, 'learned'), 'hidden: by the learning "Generated code" (.quorum/learnings.md)');
    assert.equal(verifierNotice(t, { code: 'same-model', model: 'gpt-4.1' }), t('verifierSameModel', 'gpt-4.1'));
  });

  it('the Export names the tool and rule of a finding hidden as already reported, as the panel does', () => {
    const f = finding({ severity: 'medium', title: 'Loose equality', reportedBy: { tool: 'eslint', rule: 'eqeqeq' } });
    const view = { ...summaryView(summary([f])), hidden: [{ id: f.id, reason: 'reported-by-tool' as const }] };
    const md = reviewToMarkdown(view, { ...PANEL_STRINGS }, new Date(0), true);
    assert.match(md, /### MEDIUM: Loose equality\n\n_Line 2 · analyst · confidence 60% · hidden: already reported by eslint \(eqeqeq\)_/);
  });

  it('the text report marks a finding as every face does: clamped, outside the changes, the verdict, carried over, already reported', () => {
    const f = finding({ severity: 'low', title: 'Marked', clamped: true, outsideChanges: true, unverified: true, carried: true, reportedBy: { tool: 'ruff', rule: 'F401' } });
    assert.match(formatText(summary([f])), /\[low\] Marked - analyst, confidence 60%, lines clamped, outside the changes, not verified \(the verifier failed\), carried over from the last review, hidden: already reported by ruff \(F401\)/);
  });

  it('one level per severity for SARIF, CI annotations and the Problems panel', () => {
    assert.deepEqual((['critical', 'high', 'medium', 'low', 'info'] as const).map(severityLevel), ['error', 'error', 'warning', 'note', 'note']);
  });

  it('what core may hold of a finding, the host can send and the page accepts; what the page refuses, core refuses too', () => {
    const f = finding({ severity: 'critical', title: '\u202Eevil'.repeat(40), explanation: '\u2066'.repeat(8_000), mergedFrom: ['x'], reportedLines: { startLine: 90, endLine: 91 }, learning: 'L'.repeat(200) });
    assert.ok(findingSchema.safeParse(f).success);
    const sent = reviewViewEventSchema.safeParse({ kind: 'finding', agent: 'analyst', finding: toFindingView(f) });
    assert.ok(sent.success, sent.success ? '' : JSON.stringify(sent.error.issues));
    assert.ok(!('mergedFrom' in toFindingView(f)), 'the merge\'s bookkeeping stays on the host');
    for (const bad of [{ agents: [] }, { startLine: 0 }, { confidence: 1.5 }, { title: 'x'.repeat(20_001) }]) {
      assert.equal(findingSchema.safeParse({ ...f, ...bad }).success, false, JSON.stringify(Object.keys(bad)));
      assert.equal(reviewViewEventSchema.safeParse({ kind: 'finding', agent: 'a', finding: { ...toFindingView(f), ...bad } }).success, false, JSON.stringify(Object.keys(bad)));
    }
  });

  it('model text in the step summary shows its bidi controls as tokens, never raw', () => {
    const md = toStepSummary(summary([finding({ severity: 'high', title: 'admin\u202E} if (isAdmin) {' })]), { pathOf });
    assert.ok(!md.includes('\u202E'));
    assert.match(md, /admin\\<U\+202E\\>\}/);
  });
});
