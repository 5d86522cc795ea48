import { strict as assert } from 'node:assert';
import { closeBrowser, closeChecked, openReady, type PanelPage, settle } from './harness';
import { doneReview, events, snapshot } from './fixtures';

describe('webview: the project\'s tool results, in the header and the hidden list', () => {
  let panel: PanelPage;
  afterEach(() => closeChecked(panel));
  after(closeBrowser);

  it('says how many results went in from which tools and how many findings they made redundant; a repeat says its tool and rule', async () => {
    panel = await openReady();
    const review = doneReview({ tools: { results: 3, tools: ['eslint', 'ts'] } });
    review.findings = review.findings.map((f) => (f.id === 'analyst-0' ? { ...f, reportedBy: { tool: 'eslint', rule: 'no-magic-numbers' } } : f));
    await panel.send(snapshot(review));
    await settle(panel);
    const line = panel.page.locator('header.review-head .tools');
    assert.equal((await line.innerText()).trim(), 'tools: 3 results from eslint, ts');
    await panel.send(events(2, { kind: 'hidden', findings: [{ id: 'analyst-0', reason: 'reported-by-tool' }] }));
    await settle(panel);
    assert.equal((await line.innerText()).trim(), 'tools: 3 results from eslint, ts · 1 finding already reported, hidden');
    await panel.page.locator('button.hidden-toggle').click();
    assert.match(await panel.page.locator('li.finding[data-finding="analyst-0"] .finding-hidden-reason').innerText(), /hidden: already reported by eslint \(no-magic-numbers\)/);
  });

  it('no tool results: no line; tool names are text, never markup', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    assert.equal(await panel.page.locator('header.review-head .tools').isHidden(), true);
    await panel.send(snapshot(doneReview({ tools: { results: 1, tools: ['<img src=x onerror=alert(1)>'] } }), 2));
    await settle(panel);
    const line = panel.page.locator('header.review-head .tools');
    assert.equal(await line.locator('img').count(), 0);
    assert.equal((await line.innerText()).trim(), 'tools: 1 result from <img src=x onerror=alert(1)>');
  });
});
