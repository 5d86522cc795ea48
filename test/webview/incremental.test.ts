import { strict as assert } from 'node:assert';
import { closeBrowser, openReady, settle, type PanelPage } from './harness';
import { baseReview, events, queuedAll, snapshot } from './fixtures';

const BODY = 'section.card[data-agent="analyst"] .answer-body';

describe('webview: streamed answers render incrementally', () => {
  let panel: PanelPage;
  afterEach(async () => {
    if (panel) await panel.close();
  });
  after(closeBrowser);

  it('finished Markdown blocks are rendered once and kept (the same DOM nodes) while the open block grows', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(), { kind: 'delta', agent: 'analyst', text: '## First\n\nA **finished** paragraph.\n\n- one\n- two\n\nThe open' }));
    await settle(panel);
    // Keep references to the finished blocks' nodes; a re-render would replace them with new ones.
    const marked = await panel.page.locator(`${BODY} .md-block`).evaluateAll((els) => {
      const nodes = els.flatMap((el) => [el, ...el.querySelectorAll('*')]);
      (window as unknown as { __kept: Element[] }).__kept = nodes;
      return nodes.map((n) => n.tagName.toLowerCase());
    });
    assert.deepEqual(marked, ['div', 'h2', 'p', 'strong']);
    let seq = 3;
    for (const text of [' paragraph', ' goes on', '.\n\n', 'Another `block`', ' here.\n\n```ts\nconst x = 1;\n', '```\n\nLast.']) {
      await panel.send(events(seq++, { kind: 'delta', agent: 'analyst', text }));
      await settle(panel);
      const kept = await panel.page.evaluate(() => (window as unknown as { __kept: Element[] }).__kept.map((n) => n.isConnected));
      assert.deepEqual(kept, [true, true, true, true], `after ${JSON.stringify(text)}`);
    }
    assert.equal(await panel.page.locator(`${BODY} strong`).first().evaluate((el) => el === (window as unknown as { __kept: Element[] }).__kept[3]), true);
    const text = await panel.page.locator(BODY).innerText();
    assert.match(text, /The open paragraph goes on\./);
    assert.match(text, /Another block here\./);
    assert.equal((await panel.page.locator(`${BODY} pre code`).innerText()).trim(), 'const x = 1;');
    assert.match(text, /Last\.$/);
  });

  it('scrolling an answer reads no layout in the scroll handler (no forced layout per scroll event)', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    let seq = 3;
    for (let i = 0; i < 40; i++) await panel.send(events(seq++, { kind: 'delta', agent: 'analyst', text: `Paragraph ${i} of a long answer.\n\n` }));
    await settle(panel);
    const reads = await panel.page.locator(BODY).evaluate((el) => {
      const counter = { reads: 0 };
      for (const p of ['scrollHeight', 'clientHeight', 'offsetHeight', 'scrollTop']) {
        const d = Object.getOwnPropertyDescriptor(Element.prototype, p) ?? Object.getOwnPropertyDescriptor(HTMLElement.prototype, p);
        Object.defineProperty(el, p, {
          configurable: true,
          get() { counter.reads++; return d?.get?.call(el); },
          set(v: unknown) { d?.set?.call(el, v); },
        });
      }
      for (let i = 0; i < 20; i++) el.dispatchEvent(new Event('scroll'));
      for (const p of ['scrollHeight', 'clientHeight', 'offsetHeight', 'scrollTop']) delete (el as unknown as Record<string, unknown>)[p];
      return counter.reads;
    });
    assert.equal(reads, 0);
  });
});
