import { strict as assert } from 'node:assert';
import { closeBrowser, closeChecked, openReady, type PanelPage, settle } from './harness';
import { doneReview, events, snapshot } from './fixtures';

describe('webview: a finding hidden or changed by a learning says which learning', () => {
  let panel: PanelPage;
  afterEach(() => closeChecked(panel));
  after(closeBrowser);

  it('a hidden finding names its learning, a capped one says its severity came from it; the title is text, never markup', async () => {
    panel = await openReady();
    const review = doneReview();
    const title = 'We validate at the <b>boundary</b>';
    review.findings = review.findings.map((f, i) => (i === 0 ? { ...f, learning: title } : i === 1 ? { ...f, learning: 'Generated code' } : f));
    const [hiddenId, cappedId] = review.findings.map((f) => f.id);
    await panel.send(snapshot(review));
    await panel.send(events(2, { kind: 'hidden', findings: [{ id: hiddenId ?? '', reason: 'learned' }] }));
    await settle(panel);
    const capped = panel.page.locator(`li.finding[data-finding="${cappedId ?? ''}"] .finding-learned`);
    assert.equal((await capped.innerText()).trim(), 'severity set by the learning "Generated code" (.quorum/learnings.md)');
    await panel.page.locator('button.hidden-toggle').click();
    const hidden = panel.page.locator(`li.finding[data-finding="${hiddenId ?? ''}"] .finding-hidden-reason`);
    assert.equal((await hidden.innerText()).trim(), `hidden: by the learning "${title}" (.quorum/learnings.md)`);
    assert.equal(await hidden.locator('b').count(), 0);
    assert.equal(await panel.page.locator(`li.finding[data-finding="${hiddenId ?? ''}"] .finding-learned`).count(), 0);
  });
});
