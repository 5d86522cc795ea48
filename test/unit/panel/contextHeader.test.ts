import { strict as assert } from 'node:assert';
import type { ContextSnippet } from '../../../src/core/domain/context';
import { contextIndexLine, contextLine } from '../../../src/core/report/contextLine';
import { toContextView } from '../../../src/core/report/viewEvents';
import { contextLabel, formatString, PANEL_STRINGS, type PanelStringKey } from '../../../src/shared/panelStrings';
import { hostToWebviewSchema, reviewViewSchema, webviewToHostSchema, type ContextView } from '../../../src/shared/protocol';
import { applyViewEvent, emptyReview } from '../../../src/shared/reviewReducer';

const t = (key: PanelStringKey, ...args: (string | number)[]) => formatString(PANEL_STRINGS[key], args);
const snippet = (file: string, kind: ContextSnippet['kind'], symbol: string, tokens: number, startLine = 1, endLine = 4): ContextSnippet =>
  ({ file, language: 'typescript', startLine, endLine, text: 'const secret = 1;', symbol, kind, forFile: 'src/app.ts', tokens });
const target = { file: 'src/app.ts', language: 'typescript', startLine: 3, endLine: 9 };
const totals = { costUsd: 0, promptTokens: 1, completionTokens: 1, cachedTokens: 0, requests: 1, retries: 0 };

describe('panel: the context the header names', () => {
  const context = [
    snippet('src/rates.ts', 'definition', 'applyDiscount', 700),
    snippet('src/rates.ts', 'definition', 'Rate', 300, 10, 14),
    snippet('src/cart.ts', 'caller', 'total', 600, 20, 24),
    snippet('src/app.ts', 'enclosing', 'checkout', 300, 1, 1),
  ];

  it('the view lists each snippet without its text, counts its tokens, names what the budget cut', () => {
    const v = toContextView({ context, contextCut: [{ file: 'src/big.ts', symbol: 'huge', kind: 'definition' }] }, { enabled: true, root: 'file:///work/repo' });
    assert.equal(v.tokens, 1900);
    assert.equal(v.root, 'file:///work/repo');
    assert.deepEqual(v.items[0], { file: 'src/rates.ts', startLine: 1, endLine: 4, symbol: 'applyDiscount', kind: 'definition', forFile: 'src/app.ts' });
    assert.ok(!JSON.stringify(v).includes('secret'), 'no snippet text crosses to the page');
    assert.deepEqual(v.cut, [{ file: 'src/big.ts', symbol: 'huge', kind: 'definition' }]);
    assert.equal(reviewViewSchema.safeParse({ ...emptyReview({ sessionId: 's', targetKey: 'k', target, startedAt: 0 }), context: v }).success, true);
  });

  it("a symbol's bidi controls are shown, never obeyed (the repository's text)", () => {
    const v = toContextView({ context: [snippet('a.ts', 'definition', 'is\u202EnimdA', 10)] }, { enabled: true });
    assert.equal(v.items[0]?.symbol, 'is<U+202E>nimdA');
  });

  it('says what went out: kinds, files and tokens, singular and plural', () => {
    const v = toContextView({ context }, { enabled: true });
    assert.equal(contextLabel(t, v), 'context: 2 definitions, 1 caller, 1 enclosing signature from 3 files · 1,900 tokens');
    const one = toContextView({ context: [snippet('src/rates.ts', 'caller', 'f', 40), snippet('src/rates.ts', 'caller', 'g', 60, 8, 9)] }, { enabled: true });
    assert.equal(contextLabel(t, one), 'context: 2 callers from 1 file · 100 tokens');
  });

  it('"context: off" when the setting was off (even if a target carried some), nothing when none was needed, "none" when all was cut', () => {
    const off = toContextView({ context }, { enabled: false });
    assert.deepEqual(off.items, []);
    assert.equal(contextLabel(t, off), 'context: off');
    assert.equal(contextLabel(t, toContextView({}, { enabled: true })), '');
    assert.equal(contextLabel(t, toContextView({ contextCut: [{ file: 'a.ts', symbol: 'x', kind: 'caller' }] }, { enabled: true })), 'context: none');
  });

  it('says when the time budget stopped the context: how many regions had theirs, in the header and the text line; zod-checked on the way', () => {
    const contextStatus = { regions: 545, chosen: 31, stopped: 'time-budget' as const, index: { files: 12_000, read: 3, parsed: 40 } };
    const v = toContextView({ context, contextStatus }, { enabled: true });
    assert.deepEqual(v.stopped, { chosen: 31, regions: 545 });
    assert.equal(contextLabel(t, v), 'context: 2 definitions, 1 caller, 1 enclosing signature from 3 files · 1,900 tokens · 31 of 545 regions, time budget');
    assert.equal(contextLabel(t, toContextView({ contextStatus: { ...contextStatus, chosen: 0 } }, { enabled: true })), 'context: 0 of 545 regions, time budget');
    assert.equal(toContextView({ context, contextStatus: { regions: 545, chosen: 545, index: contextStatus.index } }, { enabled: true }).stopped, undefined, 'nothing said when every region had its context');
    assert.equal(reviewViewSchema.safeParse({ ...emptyReview({ sessionId: 's', targetKey: 'k', target, startedAt: 0 }), context: v }).success, true);
    assert.equal(reviewViewSchema.safeParse({ ...emptyReview({ sessionId: 's', targetKey: 'k', target, startedAt: 0 }), context: { ...v, stopped: { chosen: -1, regions: 'x' } } }).success, false);
    const info = { context: context.map(({ file, startLine, endLine, symbol, kind, forFile }) => ({ file, startLine, endLine, symbol, kind, forFile })), contextTokens: 1900, contextStatus };
    assert.equal(contextLine(info), 'context: 31 of 545 regions, time budget · 2 definitions, 1 caller, 1 enclosing signature from 3 files · 1,900 tokens');
    assert.equal(contextIndexLine(info), 'context index: 12,000 files, 3 read, 40 parsed');
  });

  it('the reducer: a review starts with its context, and no event of the run drops it', () => {
    const ctx: ContextView = toContextView({ context }, { enabled: true, root: 'file:///work/repo' });
    const view = emptyReview({ sessionId: 's', targetKey: 'k', target, startedAt: 0, context: ctx });
    applyViewEvent(view, { kind: 'queued', agent: 'analyst', title: 'Analyst', model: 'm' });
    applyViewEvent(view, { kind: 'review-done', status: 'done', elapsedMs: 10, totals, findings: [] });
    applyViewEvent(view, { kind: 'hidden', findings: [] });
    assert.equal(view.context, ctx);
    const snap = hostToWebviewSchema.safeParse({ type: 'snapshot', seq: 1, review: view, strings: {} });
    assert.equal(snap.success, true);
    assert.equal(snap.success && snap.data.type === 'snapshot' ? snap.data.review?.context?.items.length : -1, 4);
  });

  it('the protocol refuses a context of an unknown kind and an open request without lines', () => {
    const bad = { ...toContextView({ context }, { enabled: true }), items: [{ file: 'a.ts', startLine: 1, endLine: 2, symbol: 'x', kind: 'import', forFile: 'a.ts' }] };
    assert.equal(reviewViewSchema.safeParse({ ...emptyReview({ sessionId: 's', targetKey: 'k', target, startedAt: 0 }), context: bad }).success, false);
    assert.equal(webviewToHostSchema.safeParse({ type: 'openContext', file: 'src/rates.ts', startLine: 1, endLine: 4 }).success, true);
    assert.equal(webviewToHostSchema.safeParse({ type: 'openContext', file: 'src/rates.ts' }).success, false);
    assert.equal(webviewToHostSchema.safeParse({ type: 'openContext', file: 'x'.repeat(8_001), startLine: 1, endLine: 1 }).success, false);
  });
});
