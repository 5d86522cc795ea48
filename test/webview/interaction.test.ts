import { strict as assert } from 'node:assert';
import { actions, closeBrowser, openReady, settle, type PanelPage } from './harness';
import { DARK } from './themes';
import { baseReview, doneReview, events, queuedAll, snapshot } from './fixtures';

const findingIds = (p: PanelPage) => p.page.locator('li.finding').evaluateAll((els) => els.map((e) => e.getAttribute('data-finding')));

describe('webview: interaction', () => {
  let panel: PanelPage;
  afterEach(async () => {
    if (panel) await panel.close();
  });
  after(closeBrowser);

  it('filters findings by agent and by severity', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    await panel.page.locator('select.agent-filter').selectOption('analyst');
    assert.deepEqual(await findingIds(panel), ['analyst-1', 'analyst-0']);
    await panel.page.locator('button.chip[data-severity="low"]').click();
    assert.deepEqual(await findingIds(panel), ['analyst-0']);
    assert.equal(await panel.page.locator('button.chip[data-severity="low"]').getAttribute('aria-pressed'), 'true');
    await panel.page.locator('button.chip[data-severity="critical"]').click();
    assert.deepEqual(await findingIds(panel), ['analyst-0'], 'the critical one is not the analyst\'s');
    await panel.page.locator('select.agent-filter').selectOption('');
    assert.deepEqual(await findingIds(panel), ['security-0', 'analyst-0']);
    await panel.page.locator('select.agent-filter').selectOption('coding');
    assert.deepEqual(await findingIds(panel), []);
    assert.match(await panel.page.locator('ul.findings').innerText(), /No findings match the filter\./);
    assert.deepEqual(await actions(panel), [], 'filtering is local');
  });

  it('clicking a finding asks the host to reveal it; its buttons post their actions', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const first = panel.page.locator('li.finding').first();
    await first.locator('.finding-title').click();
    await first.locator('button[data-action="previewFix"]').click();
    await first.locator('button[data-action="applyFix"]').click();
    await panel.page.locator('li.finding').nth(1).locator('button[data-action="dismiss"]').click();
    assert.deepEqual(await actions(panel), [
      { type: 'reveal', findingId: 'security-0' },
      { type: 'previewFix', findingId: 'security-0' },
      { type: 'applyFix', findingId: 'security-0' },
      { type: 'dismiss', findingId: 'analyst-1' },
    ]);
    // The host confirms the dismissal; the finding leaves the list.
    await panel.send(events(2, { kind: 'dismissed', findingId: 'analyst-1' }));
    await settle(panel);
    assert.deepEqual(await findingIds(panel), ['security-0', 'architecture-0', 'analyst-0', 'security-1']);
    assert.match(await panel.page.locator('.findings-footer').innerText(), /1 dismissed/);
  });

  it('counts the findings the noise controls hide, lists them on request with why, and offers Dismiss in this project', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview({ projectDismiss: true, hidden: [{ id: 'analyst-1', reason: 'confidence' }] })));
    await settle(panel);
    assert.deepEqual(await findingIds(panel), ['security-0', 'architecture-0', 'analyst-0', 'security-1']);
    const toggle = panel.page.locator('button.hidden-toggle');
    assert.equal((await toggle.innerText()).trim(), '1 hidden — show');
    assert.match(await panel.page.locator('h2#findings-title').innerText(), /\(4\)/, 'the heading counts what is shown');
    // The host's merged list hides one more (dismissed in the project on an earlier review).
    await panel.send(events(2, { kind: 'hidden', findings: [{ id: 'analyst-1', reason: 'confidence' }, { id: 'security-1', reason: 'dismissed' }] }));
    await settle(panel);
    assert.equal((await toggle.innerText()).trim(), '2 hidden — show');
    await toggle.click();
    assert.deepEqual(await findingIds(panel), ['security-0', 'analyst-1', 'architecture-0', 'analyst-0', 'security-1']);
    assert.equal((await toggle.innerText()).trim(), '2 hidden — hide');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    const shownHidden = panel.page.locator('li.finding[data-finding="analyst-1"]');
    assert.match(await shownHidden.locator('.finding-hidden-reason').innerText(), /below quorum\.review\.minConfidence/);
    assert.match(await panel.page.locator('li.finding[data-finding="security-1"] .finding-hidden-reason').innerText(), /dismissed in this project/);
    assert.equal(await panel.page.locator('li.finding[data-finding="security-1"] button[data-action="dismissInProject"]').count(), 0, 'already dismissed in the project');
    await panel.page.locator('li.finding[data-finding="security-0"] button[data-action="dismissInProject"]').click();
    assert.deepEqual(await actions(panel), [{ type: 'dismissInProject', findingId: 'security-0' }], 'showing hidden findings is local');
    // Export follows the page: hidden findings listed (apart) only while the page lists them.
    await panel.page.locator('header button[data-action="export"]').click();
    await toggle.click();
    assert.deepEqual(await findingIds(panel), ['security-0', 'architecture-0', 'analyst-0']);
    await panel.page.locator('header button[data-action="export"]').click();
    assert.deepEqual((await actions(panel)).slice(-2), [{ type: 'export', showHidden: true }, { type: 'export' }]);
  });

  it('offers no Dismiss in this project unless the host says it can (an untrusted workspace, a restored review)', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    assert.equal(await panel.page.locator('button[data-action="dismissInProject"]').count(), 0);
    assert.equal(await panel.page.locator('button.hidden-toggle').isVisible(), false, 'nothing hidden, no toggle');
    await panel.send(snapshot(doneReview({ projectDismiss: true, live: false }), 2));
    await settle(panel);
    assert.equal(await panel.page.locator('button[data-action="dismissInProject"]').count(), 0);
  });

  it('a finding whose fix was applied says so and offers no fix buttons', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const first = panel.page.locator('li.finding').first();
    assert.equal(await first.locator('button[data-action="applyFix"]').count(), 1);
    await panel.send(events(2, { kind: 'applied', findingId: 'security-0' }));
    await settle(panel);
    assert.deepEqual(await findingIds(panel), ['security-0', 'analyst-1', 'architecture-0', 'analyst-0', 'security-1'], 'it stays listed');
    assert.equal(await first.locator('button[data-action="applyFix"]').count(), 0);
    assert.equal(await first.locator('button[data-action="previewFix"]').count(), 0);
    assert.equal((await first.locator('.fix-applied').innerText()).trim(), 'Fix applied');
    assert.equal(await first.locator('button[data-action="dismiss"]').count(), 1);
    // A snapshot (the page shown again) carries it too.
    await panel.send(snapshot({ ...doneReview(), applied: ['security-0'] }, 3));
    await settle(panel);
    assert.equal(await panel.page.locator('li.finding').first().locator('.fix-applied').count(), 1);
  });

  it('works from the keyboard: Tab to a finding, arrows between findings, Enter reveals', async () => {
    panel = await openReady({ themeClass: DARK.bodyClass, themeVars: DARK.vars });
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    await panel.page.locator('li.finding button.finding-main').first().focus();
    await panel.page.keyboard.press('ArrowDown');
    await panel.page.keyboard.press('ArrowDown');
    await panel.page.keyboard.press('Enter');
    await panel.page.keyboard.press('End');
    await panel.page.keyboard.press(' ');
    await panel.page.keyboard.press('Home');
    await panel.page.keyboard.press('Tab'); // the link in the first finding's explanation
    await panel.page.keyboard.press('Enter');
    await panel.page.keyboard.press('Tab'); // its "Preview fix"
    await panel.page.keyboard.press('Enter');
    assert.deepEqual(await actions(panel), [
      { type: 'reveal', findingId: 'architecture-0' },
      { type: 'reveal', findingId: 'security-1' },
      { type: 'openLink', href: 'https://owasp.org/www-community/attacks/SQL_Injection' },
      { type: 'previewFix', findingId: 'security-0' },
    ]);
    // Focus is visible: the focused control has an outline.
    const outline = await panel.page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    assert.notEqual(outline, 'none');
  });

  it('every interactive element is reachable with Tab and has an accessible name', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const unnamed = await panel.page.evaluate(() => [...document.querySelectorAll('button, select, a[href], [tabindex]')]
      .filter((el) => (el as HTMLElement).tabIndex < 0 || !(el.getAttribute('aria-label') || (el as HTMLElement).innerText.trim() || el.getAttribute('title')))
      .map((el) => el.outerHTML.slice(0, 80)));
    assert.deepEqual(unnamed, []);
    assert.equal(await panel.page.locator('[role="status"][aria-live="polite"]').count(), 1);
    assert.equal(await panel.page.locator('[role="toolbar"]').count(), 1);
  });

  it('header buttons post stop, re-run (with and without cache) and export', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    await settle(panel);
    await panel.page.locator('header button[data-action="stop"]').click();
    await panel.page.locator('header button[data-action="rerun"][data-nocache="false"]').click();
    await panel.page.locator('header button[data-action="rerun"][data-nocache="true"]').click();
    await panel.page.locator('header button[data-action="export"]').click();
    await panel.page.locator('section.card[data-agent="security"] .card-head button[data-action="switchModel"]').click();
    assert.deepEqual(await actions(panel), [
      { type: 'stop' },
      { type: 'rerun', noCache: false },
      { type: 'rerun', noCache: true },
      { type: 'export' },
      { type: 'switchModel', agent: 'security' },
    ]);
  });

  it('improved code: Copy, Preview diff and Apply go to the host', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    for (const a of ['copyImproved', 'previewImproved', 'applyImproved']) await panel.page.locator(`button[data-action="${a}"]`).click();
    assert.deepEqual(await actions(panel), [{ type: 'copyImproved' }, { type: 'previewImproved' }, { type: 'applyImproved' }]);
  });

  it('links in answers open through the host, never in the page', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const before = panel.page.url();
    await panel.page.locator('li.finding a[href^="https://owasp.org"]').click();
    await panel.page.locator('li.finding a[href^="https://owasp.org"]').click({ button: 'middle' });
    await settle(panel);
    assert.equal(panel.page.url(), before);
    assert.deepEqual(await actions(panel), [
      { type: 'openLink', href: 'https://owasp.org/www-community/attacks/SQL_Injection' },
      { type: 'openLink', href: 'https://owasp.org/www-community/attacks/SQL_Injection' },
    ]);
    assert.deepEqual(panel.blockedRequests, []);
  });
});
