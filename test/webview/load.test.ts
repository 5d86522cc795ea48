import { strict as assert } from 'node:assert';
import { closeBrowser, openPanel, waitForPosted } from './harness';

describe('webview: loading', () => {
  after(closeBrowser);

  it('loads under the extension CSP and posts ready first', async () => {
    const panel = await openPanel();
    try {
      await waitForPosted(panel, (m) => (m as { type?: string }).type === 'ready');
      const posted = await panel.posted();
      assert.deepEqual(posted[0], { type: 'ready' });
      assert.deepEqual(await panel.violations(), []);
      assert.deepEqual(panel.blockedRequests, []);
    } finally {
      await panel.close();
    }
  });

  it('a script without the nonce is blocked by the CSP', async () => {
    const panel = await openPanel();
    try {
      await waitForPosted(panel, (m) => (m as { type?: string }).type === 'ready');
      await panel.page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.body.appendChild(s);
      });
      const injected = await panel.page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected === true);
      assert.equal(injected, false);
      assert.ok((await panel.violations()).some((v) => v.startsWith('script-src')));
    } finally {
      await panel.close();
    }
  });
});
