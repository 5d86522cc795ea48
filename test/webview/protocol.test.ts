import { strict as assert } from 'node:assert';
import { actions, closeBrowser, openReady, settle, waitForPosted, type PanelPage } from './harness';
import { baseReview, doneReview, events, queuedAll, snapshot } from './fixtures';

const answer = (p: PanelPage, agent: string) => p.page.locator(`section.card[data-agent="${agent}"] .answer-body`).innerText();

describe('webview: protocol', () => {
  let panel: PanelPage;
  afterEach(async () => {
    if (panel) await panel.close();
  });
  after(closeBrowser);

  it('drops invalid messages, tells the host, and keeps working', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    await panel.send({ type: 'events', seq: 3, events: [{ kind: 'delta', agent: 'analyst' }] }); // no text
    await panel.send({ type: 'snapshot', seq: 'x' });
    await panel.send('<img src=x onerror=alert(1)>');
    await panel.send(null);
    await panel.send(events(3, { kind: 'delta', agent: 'analyst', text: 'still here' }));
    await settle(panel);
    assert.equal(await answer(panel, 'analyst'), 'still here');
    const logs = (await actions(panel)).filter((m) => (m as { type: string }).type === 'log');
    assert.equal(logs.length, 4);
    for (const l of logs) assert.equal((l as { level: string }).level, 'warn');
    assert.ok(!(await actions(panel)).some((m) => (m as { type: string }).type === 'resync'), 'valid numbering was kept');
  });

  it('a retried agent says why nothing streams yet, until its text arrives', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(), { kind: 'started', agent: 'analyst', model: 'gpt-4.1' }));
    await panel.send(events(3, { kind: 'retrying', agent: 'analyst', attempt: 2, model: 'gpt-4.1', code: 'server', reason: 'retry' }));
    await settle(panel);
    const placeholder = () => panel.page.locator('section.card[data-agent="analyst"] .answer').innerText();
    assert.match(await placeholder(), /The gateway had a server error\. Trying again \(attempt 2\)…/);
    await panel.send(events(4, { kind: 'retrying', agent: 'analyst', attempt: 3, model: 'deepseek-v3.2', code: 'network', reason: 'fallback' }));
    await settle(panel);
    assert.match(await placeholder(), /The connection failed\. Trying the fallback model deepseek-v3\.2…/);
    await panel.send(events(5, { kind: 'delta', agent: 'analyst', text: 'Now it answers.' }));
    await settle(panel);
    assert.equal(await answer(panel, 'analyst'), 'Now it answers.');
    assert.doesNotMatch(await placeholder(), /Trying/);
    assert.ok(!(await actions(panel)).some((m) => (m as { type: string }).type === 'log'), 'the messages were valid');
  });

  it('a sequence gap asks for a resync, ignores events until the snapshot, then recovers', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview(), 5));
    await panel.send(events(6, ...queuedAll(), { kind: 'delta', agent: 'analyst', text: 'one ' }));
    await panel.send(events(8, { kind: 'delta', agent: 'analyst', text: 'three ' })); // 7 was lost
    const resync = await waitForPosted(panel, (m) => (m as { type?: string }).type === 'resync');
    assert.deepEqual(resync, { type: 'resync', lastSeq: 6 });
    await panel.send(events(9, { kind: 'delta', agent: 'analyst', text: 'four ' }));
    await settle(panel);
    assert.equal(await answer(panel, 'analyst'), 'one');
    // The host answers with the full state.
    const review = baseReview();
    review.agents = [{ agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', state: 'running', text: 'one two three four ', chunks: 4 }];
    await panel.send(snapshot(review, 10));
    await panel.send(events(11, { kind: 'delta', agent: 'analyst', text: 'five' }));
    await settle(panel);
    assert.equal(await answer(panel, 'analyst'), 'one two three four five');
    assert.equal((await actions(panel)).filter((m) => (m as { type: string }).type === 'resync').length, 1);
  });

  it('events before any snapshot are ignored (the snapshot carries them)', async () => {
    panel = await openReady();
    await panel.send(events(1, ...queuedAll()));
    await settle(panel);
    assert.equal(await panel.page.locator('section.card').count(), 0);
    assert.deepEqual(await actions(panel), []);
  });

  it('many deltas in many messages render the concatenated answer once per frame', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    const parts = Array.from({ length: 300 }, (_, i) => `w${i} `);
    await panel.page.evaluate((ps) => {
      ps.forEach((text, i) => window.postMessage({ type: 'events', seq: 3 + i, events: [{ kind: 'delta', agent: 'coding', text }] }, '*'));
    }, parts);
    await settle(panel);
    assert.equal(await answer(panel, 'coding'), parts.join('').trim());
    assert.match(await panel.page.locator('section.card[data-agent="coding"] .state-badge').innerText(), /300 tokens so far/);
  });

  it('a snapshot after a re-run replaces the previous review', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    assert.equal(await panel.page.locator('li.finding').count(), 5);
    await panel.send(snapshot(baseReview({ sessionId: 'review-2' }), 2));
    await panel.send(events(3, ...queuedAll()));
    await settle(panel);
    assert.equal(await panel.page.locator('li.finding').count(), 0);
    assert.equal(await panel.page.locator('section.card.state-queued').count(), 4);
  });

  it('saves only UI state: the target key and the filters', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    await panel.page.locator('button.chip[data-severity="critical"]').click();
    const saved = await panel.page.evaluate(() => (window as unknown as { __savedState: () => unknown }).__savedState());
    assert.deepEqual(saved, { targetKey: doneReview().targetKey, filter: { agent: '', severities: ['critical'] } });
  });

  it('restores the saved filters when the page reloads', async () => {
    const state = { targetKey: doneReview().targetKey, filter: { agent: 'security', severities: ['critical', 'info'] } };
    panel = await openReady({ state });
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const ids = await panel.page.locator('li.finding').evaluateAll((els) => els.map((e) => e.getAttribute('data-finding')));
    assert.deepEqual(ids, ['security-0', 'security-1']);
    assert.equal(await panel.page.locator('select.agent-filter').inputValue(), 'security');
  });
});
