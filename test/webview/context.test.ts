import { strict as assert } from 'node:assert';
import type { ContextView } from '../../src/shared/protocol';
import { actions, closeBrowser, closeChecked, openReady, type PanelPage, settle } from './harness';
import { doneReview, snapshot, STRINGS } from './fixtures';

/** Six definitions, three callers, from five files, 1,900 tokens: the header's example. */
function sixAndThree(): ContextView {
  const def = (file: string, symbol: string, startLine: number, endLine: number) => ({ file, startLine, endLine, symbol, kind: 'definition' as const, forFile: 'src/auth/session.ts' });
  const caller = (file: string, line: number) => ({ file, startLine: line - 2, endLine: line + 2, symbol: 'getSession', kind: 'caller' as const, forFile: 'src/auth/session.ts' });
  return {
    enabled: true,
    root: 'file:///work/project',
    items: [
      def('src/db.ts', 'Database.get', 10, 24), def('src/db.ts', 'Row', 3, 8), def('src/db.ts', 'now', 30, 34),
      def('src/config.ts', 'SESSION_TTL_MS', 7, 7), def('src/auth/token.ts', 'verifyToken', 12, 30), def('src/auth/token.ts', 'Token', 1, 10),
      caller('src/routes/login.ts', 40), caller('src/routes/login.ts', 88), caller('src/routes/logout.ts', 15),
    ],
    tokens: 1_900,
    cut: [],
  };
}

describe('webview: the context sent, in the header', () => {
  let panel: PanelPage;
  afterEach(() => closeChecked(panel));
  after(closeBrowser);

  it('says what went out in one line, lists it on click, and opens an entry through the host', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview({ context: sixAndThree() })));
    await settle(panel);
    const toggle = panel.page.locator('header.review-head .context-toggle');
    assert.equal((await toggle.innerText()).trim(), 'context: 6 definitions, 3 callers from 5 files · 1,900 tokens');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await panel.page.locator('#context-list').isHidden(), true, 'listed on click only');

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const entries = panel.page.locator('#context-list .context-entry');
    assert.equal(await entries.count(), 9);
    assert.deepEqual(
      [await entries.nth(0).locator('.context-symbol').innerText(), await entries.nth(0).locator('.context-kind').innerText(), await entries.nth(0).locator('.context-where').innerText()],
      ['Database.get', 'definition', 'src/db.ts:10–24'],
    );
    assert.equal(await entries.nth(3).locator('.context-where').innerText(), 'src/config.ts:7', 'one line is named as one');
    assert.equal(await entries.nth(8).locator('.context-kind').innerText(), 'caller');

    await entries.nth(7).click();
    await entries.nth(7).press('Enter');
    assert.deepEqual(await actions(panel), [
      { type: 'openContext', file: 'src/routes/login.ts', startLine: 86, endLine: 90 },
      { type: 'openContext', file: 'src/routes/login.ts', startLine: 86, endLine: 90 },
    ], 'a click and the keyboard open the entry; the page sends no root, only what it lists');

    await toggle.click();
    assert.equal(await panel.page.locator('#context-list').isHidden(), true, 'a second click folds it');
  });

  it('file names and symbols are text, never markup', async () => {
    panel = await openReady();
    const context: ContextView = {
      enabled: true, root: 'file:///work/project', tokens: 120,
      items: [{ file: 'src/<img src=x onerror=alert(1)>.ts', startLine: 1, endLine: 2, symbol: '<b>bold</b>', kind: 'definition', forFile: 'a.ts' }],
      cut: [{ file: 'src/<script>x</script>.ts', symbol: '<i>cut</i>', kind: 'caller' }],
    };
    await panel.send(snapshot(doneReview({ context })));
    await settle(panel);
    await panel.page.locator('.context-toggle').click();
    const head = panel.page.locator('header.review-head .context');
    assert.equal(await head.locator('img, b, i, script').count(), 0);
    assert.equal(await head.locator('.context-symbol').innerText(), '<b>bold</b>');
    assert.equal(await head.locator('.context-where').innerText(), 'src/<img src=x onerror=alert(1)>.ts:1–2');
    assert.match(await head.locator('.context-cut').innerText(), /Left out \(over quorum\.context\.maxTokens\): <i>cut<\/i> \(caller, src\/<script>x<\/script>\.ts\)/);
  });

  it('"context: off" when the setting was off (not a button), and nothing when no context was needed', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview({ context: { enabled: false, items: [], tokens: 0, cut: [] } })));
    await settle(panel);
    const off = panel.page.locator('header.review-head .context-off');
    assert.equal(await off.innerText(), 'context: off');
    assert.match((await off.getAttribute('title')) ?? '', /quorum\.context\.enabled is off/);
    assert.equal(await panel.page.locator('header.review-head .context-toggle').isHidden(), true);

    await panel.send(snapshot(doneReview({ context: { enabled: true, items: [], tokens: 0, cut: [] } }), 2));
    await settle(panel);
    assert.equal(await panel.page.locator('header.review-head .context').isHidden(), true);
    await panel.send(snapshot(doneReview(), 3));
    await settle(panel);
    assert.equal(await panel.page.locator('header.review-head .context').isHidden(), true, 'a review stored before context was shown');
  });

  it('in the UI language the host sent', async () => {
    panel = await openReady();
    const ko = { ...STRINGS, contextSent: '컨텍스트: {0}(파일 {1}개) · 토큰 {2}개', contextDefinitions: '정의 {0}개', contextCallers: '호출하는 곳 {0}개' };
    await panel.send({ ...snapshot(doneReview({ context: sixAndThree() })), strings: ko });
    await settle(panel);
    assert.equal((await panel.page.locator('.context-toggle').innerText()).trim(), '컨텍스트: 정의 6개, 호출하는 곳 3개(파일 5개) · 토큰 1,900개');
  });
});
