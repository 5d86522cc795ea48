import { strict as assert } from 'node:assert';
import { closeBrowser, openReady, settle, type PanelPage } from './harness';
import { baseReview, events, outcome, queuedAll, snapshot } from './fixtures';

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
          get(): unknown { counter.reads++; return d?.get?.call(el) as unknown; },
          set(v: unknown) { d?.set?.call(el, v); },
        });
      }
      for (let i = 0; i < 20; i++) el.dispatchEvent(new Event('scroll'));
      for (const p of ['scrollHeight', 'clientHeight', 'offsetHeight', 'scrollTop']) Reflect.deleteProperty(el, p);
      return counter.reads;
    });
    assert.equal(reads, 0);
  });

  it('spinners turn while agents wait for their first tokens and stop once answers arrive (no animation restyles the page per frame)', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(), { kind: 'started', agent: 'analyst', model: 'gpt-4.1' }));
    await settle(panel);
    const card = panel.page.locator('section.card[data-agent="analyst"]');
    const spinning = () => panel.page.locator('.codicon-modifier-spin').count();
    const animations = () => panel.page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
    assert.equal(await card.locator('.state-badge .codicon-modifier-spin').count(), 1, 'the waiting agent spins');
    assert.equal(await panel.page.locator('.review-head .status .codicon-modifier-spin').count(), 1, 'the waiting review spins');
    await panel.send(events(3, { kind: 'delta', agent: 'analyst', text: 'The handler reads ' }, { kind: 'delta', agent: 'analyst', text: 'the session.' }));
    await settle(panel);
    assert.equal(await spinning(), 0);
    assert.equal(await animations(), 0);
    assert.match(await card.locator('.state-badge').innerText(), /Running · 2 tokens/);
    assert.equal(await card.locator('.answer-body').innerText(), 'The handler reads the session.');
    // Another agent starts and waits: only its own icon turns.
    await panel.send(events(4, { kind: 'started', agent: 'security', model: 'gemini-2.5-flash' }));
    await settle(panel);
    assert.equal(await panel.page.locator('section.card[data-agent="security"] .state-badge .codicon-modifier-spin').count(), 1);
    assert.equal(await spinning(), 1);
  });

  it('an answer that fills its box while streaming keeps the box\'s height and every block; once done, the box fits the final text', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    let seq = 3;
    for (let i = 0; i < 60; i++) await panel.send(events(seq++, { kind: 'delta', agent: 'analyst', text: `Paragraph ${i} about the session handler and its expiry check.\n\n` }));
    await panel.send(events(seq++, { kind: 'delta', agent: 'analyst', text: 'The open paragraph' }));
    await settle(panel);
    const body = panel.page.locator(BODY);
    const box = () => body.evaluate((el) => ({ height: el.getBoundingClientRect().height, max: parseFloat(getComputedStyle(el).maxHeight) }));
    const streaming = await box();
    assert.equal(streaming.height, streaming.max, 'a full box is as tall as its maximum height');
    // Every finished block is in the page, and shows when scrolled back to (content-visibility skips only what is out of view).
    assert.equal(await body.locator('p').count(), 61);
    await body.evaluate((el) => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); });
    await settle(panel);
    const first = await body.locator('p').first().evaluate((p) => {
      const r = p.getBoundingClientRect();
      const b = p.closest('.answer-body')!.getBoundingClientRect();
      return { text: p.textContent, height: r.height, inView: r.top >= b.top && r.bottom <= b.bottom, visible: p.checkVisibility({ contentVisibilityAuto: true }) };
    });
    assert.deepEqual(first, { text: 'Paragraph 0 about the session handler and its expiry check.', height: first.height, inView: true, visible: true });
    assert.ok(first.height > 0);
    assert.match(await body.innerText(), /^Paragraph 0 [\s\S]*Paragraph 59 [^\n]*\n+The open paragraph$/);
    // The final text is authoritative: a short one gets a box its own size.
    await panel.send(events(seq, { kind: 'ended', agent: 'analyst', title: 'Analyst', outcome: outcome({ state: 'done', model: 'gpt-4.1', text: 'Short answer.', unparsed: true }) }));
    await settle(panel);
    assert.equal(await body.innerText(), 'Short answer.');
    assert.ok((await box()).height < 60, `the finished box fits its text (${(await box()).height} px)`);
  });
});
