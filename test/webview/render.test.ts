import { strict as assert } from 'node:assert';
import { actions, closeBrowser, openReady, settle, type PanelPage } from './harness';
import { baseReview, doneReview, events, outcome, queuedAll, snapshot, STRINGS } from './fixtures';

const text = (p: PanelPage, selector: string) => p.page.locator(selector).first().innerText();
const cardText = (p: PanelPage, agent: string) => p.page.locator(`section.card[data-agent="${agent}"]`).innerText();

describe('webview: rendering every state', () => {
  let panel: PanelPage;
  afterEach(async () => {
    if (panel) {
      assert.deepEqual(await panel.violations(), [], 'no CSP violations');
      assert.deepEqual(panel.blockedRequests, [], 'no requests leave the page');
      await panel.close();
    }
  });
  after(closeBrowser);

  it('empty: says there is no review and how to start one', async () => {
    panel = await openReady();
    await panel.send(snapshot(null));
    const body = await text(panel, '#app');
    assert.match(body, /No review yet\./);
    assert.match(body, /Quorum: Review Selection/);
    assert.equal(await panel.page.locator('#app').getAttribute('aria-busy'), 'false');
  });

  it('running: target, estimate, queued and streaming cards with a live token count', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(),
      { kind: 'started', agent: 'analyst', model: 'gpt-4.1' },
      { kind: 'delta', agent: 'analyst', text: '## Summary\n\nThe handler ' },
      { kind: 'delta', agent: 'analyst', text: 'is **mostly** fine.' }));
    await settle(panel);
    const head = await text(panel, 'header.review-head');
    assert.match(head, /session\.ts/);
    assert.match(head, /lines 12–48/);
    assert.match(head, /typescript/);
    assert.match(head, /Reviewing…/);
    assert.match(head, /≈ \$0\.0031 likely · up to \$0\.0142/);
    assert.match(head, /Elapsed \d/);
    assert.equal(await panel.page.locator('button[data-action="stop"]').isDisabled(), false);
    assert.equal(await panel.page.locator('section.card').count(), 4);
    const analyst = await cardText(panel, 'analyst');
    assert.match(analyst, /Running · 2 tokens so far/);
    assert.equal(await panel.page.locator('section.card[data-agent="analyst"] .answer-body strong').innerText(), 'mostly');
    assert.match(await cardText(panel, 'security'), /Queued/);
    assert.match(await cardText(panel, 'security'), /Waiting for its turn\./);
    assert.match(await cardText(panel, 'security'), /≈ \$0\.0002 likely · up to \$0\.0010/);
    // An agent with only a ceiling (a review stored before likely figures) says it is one.
    assert.match(await cardText(panel, 'analyst'), /up to \$0\.0040/);
    assert.match(await text(panel, '.findings-section'), /Findings appear here as the agents report them\./);
  });

  it('done: metrics, cost labels, cached badge, sorted findings and the improved code', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const head = await text(panel, 'header.review-head');
    assert.match(head, /Review complete/);
    assert.match(head, /Cost \$0\.0118/);
    assert.match(head, /Elapsed 9\.4 s/);
    assert.equal(await panel.page.locator('button[data-action="stop"]').isDisabled(), true);
    const analyst = await cardText(panel, 'analyst');
    assert.match(analyst, /Done/);
    assert.match(analyst, /5\.1 s/);
    assert.match(analyst, /1,310 in · 322 out/);
    assert.match(analyst, /\$0\.0052 \(reported by the gateway\)/);
    const arch = await cardText(panel, 'architecture');
    assert.match(arch, /Done · Cached/);
    assert.match(arch, /cache hit, no charge/);
    const sec = await cardText(panel, 'security');
    assert.match(sec, /\(estimated\)/);
    assert.match(sec, /2 attempts/);
    assert.match(sec, /800 cached/);
    // The security answer was JSON read into findings: the card lists them, the JSON is folded away as the raw answer.
    assert.equal(await panel.page.locator('section.card[data-agent="security"] details.raw-answer').getAttribute('open'), null);
    assert.match(sec, /^.*2 findings$/m);
    assert.match(sec, /Raw answer/);
    const severities = await panel.page.locator('li.finding').evaluateAll((els) => els.map((e) => e.getAttribute('class')?.replace('finding sev-', '') ?? ''));
    assert.deepEqual(severities, ['critical', 'high', 'medium', 'low', 'info']);
    const first = await text(panel, 'li.finding');
    assert.match(first, /SQL built from the user name/);
    assert.match(first, /Lines 21–22/);
    assert.match(first, /CWE-89/);
    assert.match(first, /confidence 92%/);
    assert.equal(await panel.page.locator('li.finding').nth(0).locator('button[data-action="applyFix"]').count(), 1);
    assert.equal(await panel.page.locator('li.finding').nth(1).locator('button[data-action="applyFix"]').count(), 0, 'no fix without a suggestion');
    const code = await panel.page.locator('pre.improved-code').innerText();
    assert.match(code, /SELECT \* FROM users WHERE name = \?/);
    for (const a of ['copyImproved', 'previewImproved', 'applyImproved']) {
      assert.equal(await panel.page.locator(`button[data-action="${a}"]`).isDisabled(), false, a);
    }
  });

  it('a reasoning model\'s card shows its reasoning tokens; the verifier\'s card says when it had no other model, or used the same one', async () => {
    panel = await openReady();
    const review = doneReview();
    const usage = { promptTokens: 1_310, completionTokens: 2_322, cachedTokens: 0, reasoningTokens: 2_000 };
    review.agents[0] = { ...review.agents[0]!, model: 'o3', outcome: outcome({ state: 'done', model: 'o3', findingCount: 2, usage }) };
    const verifier = (code: 'same-model' | 'no-other-model', model: string) => ({
      agent: 'verifier', title: 'Verifier', model, state: 'done' as const, text: '', chunks: 0,
      outcome: outcome({ state: 'done', model, costUsd: 0, costSource: 'none', findingCount: 0, notice: { code, model } }),
    });
    await panel.send(snapshot({ ...review, agents: [...review.agents, verifier('no-other-model', 'qwen2.5-coder-7b')] }));
    await settle(panel);
    assert.match(await cardText(panel, 'analyst'), /1,310 in · 2,322 out · 2,000 of them reasoning/);
    assert.doesNotMatch(await cardText(panel, 'security'), /reasoning/);
    assert.match(await cardText(panel, 'verifier'), /Not checked: the gateway has no model but qwen2\.5-coder-7b, which raised these findings\. Set quorum\.review\.verify to same-model/);
    await panel.send(snapshot({ ...review, agents: [...review.agents, verifier('same-model', 'llama3.2')] }, 2));
    await settle(panel);
    assert.match(await cardText(panel, 'verifier'), /Checked on llama3\.2, the same model that raised these findings/);
  });

  it('failed: each error says what happened and offers the fix', async () => {
    panel = await openReady();
    const review = baseReview({ status: 'failed', elapsedMs: 1_200 });
    const fail = (agent: string, title: string, error: NonNullable<ReturnType<typeof outcome>['error']>) => ({
      agent, title, model: error.model ?? 'gpt-4.1', state: 'failed' as const, text: '', chunks: 0,
      outcome: outcome({ state: 'failed', model: error.model ?? 'gpt-4.1', error, costUsd: 0, usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 } }),
    });
    review.agents = [
      fail('analyst', 'Analyst', { code: 'auth', status: 401, message: 'gateway answered 401 Unauthorized' }),
      fail('architecture', 'Architecture', { code: 'model-not-found', model: 'claude-sonet-4.5', suggestions: ['claude-sonnet-4.5', 'claude-sonnet-4'] }),
      fail('security', 'Security', { code: 'rate-limited', retryAfterMs: 20_000 }),
      fail('coding', 'Coding', { code: 'cancelled' }),
      fail('quota', 'Quota', { code: 'quota' }),
      fail('big', 'Big', { code: 'too-large' }),
      fail('slow', 'Slow', { code: 'timeout' }),
      fail('net', 'Net', { code: 'network' }),
      fail('srv', 'Srv', { code: 'server', status: 502 }),
      fail('bad', 'Bad', { code: 'bad-response' }),
      fail('odd', 'Odd', { code: 'internal' }),
      fail('skip', 'Skip', { code: 'inputs-failed', message: 'not run: every agent it depends on failed (analyst: auth)' }),
    ];
    review.agents[3]!.state = 'cancelled';
    review.agents[3]!.outcome!.state = 'cancelled';
    await panel.send(snapshot(review));
    await settle(panel);
    assert.match(await text(panel, 'header.review-head'), /Review failed/);
    const auth = panel.page.locator('section.card[data-agent="analyst"]');
    assert.match(await auth.innerText(), /rejected the API key \(401\)/);
    assert.match(await auth.locator('details.error-details').innerText(), /Details/);
    await auth.locator('button[data-action="setApiKey"]').click();
    const mnf = panel.page.locator('section.card[data-agent="architecture"]');
    assert.match(await mnf.innerText(), /does not know the model "claude-sonet-4\.5"/);
    assert.match(await mnf.innerText(), /Closest models: claude-sonnet-4\.5, claude-sonnet-4/);
    await mnf.locator('.notice button[data-action="switchModel"]').click();
    assert.match(await cardText(panel, 'security'), /asked to wait 20\.0 s/);
    await panel.page.locator('section.card[data-agent="security"] .notice button[data-action="rerun"]').click();
    assert.match(await cardText(panel, 'coding'), /Cancelled/);
    assert.match(await cardText(panel, 'coding'), /Stopped before it finished\./);
    assert.match(await cardText(panel, 'quota'), /run out of quota/);
    assert.match(await cardText(panel, 'big'), /too large for this model/);
    assert.match(await cardText(panel, 'slow'), /did not answer in time/);
    assert.match(await cardText(panel, 'net'), /Could not reach the gateway/);
    // No answer, nothing billed: not "reported by the gateway".
    assert.match(await cardText(panel, 'net'), /\$0\.00 \(nothing billed\)/);
    assert.match(await cardText(panel, 'skip'), /\$0\.00 \(nothing billed\)/);
    assert.match(await cardText(panel, 'srv'), /internal error \(502\)/);
    assert.match(await cardText(panel, 'bad'), /could not be read/);
    assert.match(await cardText(panel, 'odd'), /The agent failed \(internal\)\./);
    // An agent that was not asked because everything it builds on failed says so, not a raw code.
    assert.match(await cardText(panel, 'skip'), /Not run: every agent it builds on failed\. Fix the errors above, then re-run\./);
    assert.doesNotMatch(await cardText(panel, 'skip'), /inputs-failed\)\./);
    assert.equal(await panel.page.locator('section.card[data-agent="skip"] .notice .actions').count(), 0, 'no buttons that cannot fix it');
    assert.deepEqual(await actions(panel), [
      { type: 'setApiKey' },
      { type: 'switchModel', agent: 'architecture' },
      { type: 'rerun', noCache: false },
    ]);
  });

  it('cancelled review: every unfinished agent ends cancelled and the status says so', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(), { kind: 'started', agent: 'analyst', model: 'gpt-4.1' }, { kind: 'delta', agent: 'analyst', text: 'Partial answer' }));
    await panel.send(events(3, {
      kind: 'review-done', status: 'cancelled', elapsedMs: 2_000,
      totals: { costUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 1, retries: 0 }, findings: [],
    }));
    await settle(panel);
    assert.match(await text(panel, 'header.review-head'), /Review stopped/);
    assert.equal(await panel.page.locator('section.card.state-cancelled').count(), 4);
    assert.match(await cardText(panel, 'analyst'), /Partial answer/);
    assert.match(await text(panel, '.findings-section'), /No findings\./);
  });

  it('restored (not live): says so, and fixes cannot be applied until a re-run', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview({ live: false })));
    await settle(panel);
    assert.match(await text(panel, 'header.review-head'), /Restored from an earlier window/);
    assert.equal(await panel.page.locator('button[data-action="applyFix"]').first().isDisabled(), true);
    assert.equal(await panel.page.locator('button[data-action="applyImproved"]').isDisabled(), true);
    assert.equal(await panel.page.locator('button[data-action="rerun"]').first().isDisabled(), false);
  });

  it('uses the strings the host localised', async () => {
    panel = await openReady();
    const ko = { ...STRINGS, statusDone: '검토 완료', findings: '발견 사항', costActual: '비용 {0}' };
    await panel.send(snapshot(doneReview(), 1, ko));
    await settle(panel);
    assert.match(await text(panel, 'header.review-head'), /검토 완료/);
    assert.match(await text(panel, 'header.review-head'), /비용 \$0\.0118/);
    assert.match(await text(panel, '#findings-title'), /발견 사항 \(5\)/);
  });

  it('an agent that ends streams its final text; an announcement says it finished', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(), { kind: 'delta', agent: 'analyst', text: 'draft' }));
    await settle(panel);
    await panel.send(events(3, {
      kind: 'ended', agent: 'analyst', title: 'Analyst',
      outcome: outcome({ state: 'done', model: 'gpt-4.1', text: 'Final **answer**', findingCount: 3, unparsed: true }),
    }));
    await settle(panel);
    const card = await cardText(panel, 'analyst');
    assert.match(card, /Final answer/);
    assert.doesNotMatch(card, /draft/);
    assert.match(await panel.page.locator('[aria-live="polite"].sr-only').innerText(), /Analyst finished with 3 findings/);
  });

  it('one finding is "1 finding", in the card and in the announcement', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    await settle(panel);
    await panel.send(events(3, { kind: 'finding', agent: 'security', finding: { id: 'security-1', agents: ['security'], severity: 'high', title: 'SQL injection', explanation: '', startLine: 12, endLine: 12, confidence: 0.8 } }, {
      kind: 'ended', agent: 'security', title: 'Security',
      outcome: outcome({ state: 'done', model: 'gemini-2.5-flash', text: '{"findings":[{"severity":"high","title":"SQL injection"}]}', findingCount: 1 }),
    }));
    await settle(panel);
    assert.match(await cardText(panel, 'security'), /^.*1 finding$/m);
    assert.match(await panel.page.locator('[aria-live="polite"].sr-only').innerText(), /Security finished with 1 finding$/);
  });

  it('a long streamed answer follows the newest text until the reader scrolls up', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    const para = (i: number) => ({ kind: 'delta' as const, agent: 'analyst', text: `Paragraph ${i} about the session handler and its expiry check.\n\n` });
    let seq = 3;
    for (let i = 0; i < 60; i++) await panel.send(events(seq++, para(i)));
    await settle(panel);
    const body = panel.page.locator('section.card[data-agent="analyst"] .answer-body');
    const gap = () => body.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok((await body.evaluate((el) => el.scrollHeight - el.clientHeight)) > 200, 'the answer overflows its box');
    assert.ok((await gap()) < 24, 'scrolled to the newest text');
    await body.evaluate((el) => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); });
    for (let i = 60; i < 70; i++) await panel.send(events(seq++, para(i)));
    await settle(panel);
    assert.equal(await body.evaluate((el) => el.scrollTop), 0, 'the reader keeps their place');
    assert.equal(await body.getAttribute('aria-label'), 'Analyst: Answer');
  });
});
