import { strict as assert } from 'node:assert';
import { closeBrowser, closeChecked, openReady, type PanelPage, settle } from './harness';
import { doneReview, snapshot } from './fixtures';

describe('webview: what shaped the prompts, in the header', () => {
  let panel: PanelPage;
  afterEach(() => closeChecked(panel));
  after(closeBrowser);

  it('names the rule files used and left out, and the secrets redacted by kind and lines (never a value)', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview({
      privacy: {
        rules: ['.quorum/instructions.md', 'AGENTS.md'],
        rulesDropped: ['.quorum/rules/<img src=x>.md'],
        redactions: [{ kind: 'github-token', line: 3, endLine: 3 }, { kind: 'private-key', line: 10, endLine: 35, file: 'src/keys.ts' }],
      },
    })));
    await settle(panel);
    const line = await panel.page.locator('header.review-head .privacy').innerText();
    assert.match(line, /Repository rules: \.quorum\/instructions\.md, AGENTS\.md/);
    assert.match(line, /Left out \(over quorum\.rules\.maxTokens\): \.quorum\/rules\/<img src=x>\.md/);
    assert.match(line, /\(kind, lines\): github-token \(3\), src\/keys\.ts: private-key \(10–35\)/);
    assert.equal(await panel.page.locator('header.review-head .privacy img').count(), 0, 'file names are text, not markup');
  });

  it('shows nothing when no rule applied and nothing was redacted', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    assert.equal(await panel.page.locator('header.review-head .privacy').isHidden(), true);
  });
});
