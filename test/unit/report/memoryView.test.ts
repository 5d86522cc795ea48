import { strict as assert } from 'node:assert';
import { reviewViewEventSchema, type ReviewView } from '../../../src/shared/protocol';
import { applyViewEvent, emptyReview } from '../../../src/shared/reviewReducer';
import { summaryView, toViewEvent } from '../../../src/core/report/viewEvents';
import { zeroTotals } from '../../../src/core/domain/totals';
import type { Finding } from '../../../src/core/domain/finding';
import type { ReviewSummary } from '../../../src/core/domain/result';
import { verdictNote } from '../../../src/shared/labels';
import { formatString, PANEL_STRINGS, type PanelStringKey } from '../../../src/shared/panelStrings';

const finding = (over: Partial<Finding>): Finding => ({ id: 'f1', file: 'a.py', agents: ['security'], severity: 'high', title: 'T', explanation: 'e', startLine: 1, endLine: 1, confidence: 0.5, ...over });

describe('the panel\'s view of verification and memory', () => {
  const t = (key: PanelStringKey, ...args: (string | number)[]) => formatString(PANEL_STRINGS[key], args);

  it('review-done carries the resolved count, the verdicts and the carried marks to the page (validated as the page validates)', () => {
    const refuted = finding({ id: 'f1', verification: { verdict: 'refuted', by: 'gpt-4.1', reason: 'handled above' } });
    const carried = finding({ id: 'f2', carried: true, unverified: true });
    const summary: ReviewSummary = {
      reviewId: 'r', target: { kind: 'changes', label: 'Uncommitted changes', regions: [{ file: 'a.py', language: 'python', startLine: 1, endLine: 3, reused: true }] },
      agents: [], findings: [refuted, carried], totals: zeroTotals(), cancelled: false, elapsedMs: 1, resolved: [finding({ id: 'old' }), finding({ id: 'old2' }), finding({ id: 'old3' })],
    };
    const event = reviewViewEventSchema.parse(toViewEvent({ type: 'review-done', reviewId: 'r', summary }));
    const view: ReviewView = emptyReview({ sessionId: 's', targetKey: 'k', target: { file: 'a.py', language: 'python', startLine: 1, endLine: 3 }, startedAt: 0 });
    applyViewEvent(view, event);
    assert.equal(view.resolved, 3);
    assert.equal(t('resolvedCount', view.resolved), '3 resolved');
    const [f1, f2] = view.findings;
    assert.equal(verdictNote(t, f1 ?? {}), 'refuted by gpt-4.1: handled above');
    assert.deepEqual([f2?.carried, verdictNote(t, f2 ?? {})], [true, 'not verified (the verifier failed)']);
    assert.equal(summaryView(summary).resolved, 3);
  });
});
