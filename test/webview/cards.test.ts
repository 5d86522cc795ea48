import { strict as assert } from 'node:assert';
import { closeBrowser, closeChecked, openReady, type PanelPage, settle } from './harness';
import { ANSWERS, FINDINGS, IMPROVED, baseReview, doneReview, events, outcome, queuedAll, snapshot } from './fixtures';

const card = (p: PanelPage, agent: string) => p.page.locator(`section.card[data-agent="${agent}"]`);
const cardText = (p: PanelPage, agent: string) => card(p, agent).innerText();

/** A reviewer's JSON answer cut into token-sized pieces, as a gateway streams it. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe('webview: agent cards show findings, not JSON', () => {
  let panel: PanelPage;
  afterEach(() => closeChecked(panel));
  after(closeBrowser);

  it('a finished reviewer shows its findings as the list does, with the raw answer behind a closed disclosure', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    const analyst = card(panel, 'analyst');
    const shown = await analyst.innerText();
    assert.match(shown, /2 findings/);
    assert.match(shown, /Session expiry is never checked/);
    assert.match(shown, /Lines 34–40/);
    assert.match(shown, /Magic number for the session lifetime/);
    assert.match(shown, /HIGH|High/);
    assert.doesNotMatch(shown, /"severity"|\{"findings"|```/, 'no JSON in the card');
    assert.doesNotMatch(shown, /Both are easy to fix/, 'the closing prose is part of the raw answer');
    // Rendered as in the findings list: same severity label, title, lines and explanation (Markdown).
    const items = analyst.locator('li.card-finding');
    assert.equal(await items.count(), 2);
    assert.equal(await items.first().locator('.finding-explanation code').first().innerText(), 'expiresAt');
    assert.equal(await items.first().getAttribute('class'), 'card-finding sev-high');
    const raw = analyst.locator('details.raw-answer');
    assert.equal(await raw.getAttribute('open'), null);
    assert.equal(await raw.locator('summary').innerText(), 'Raw answer');
    assert.equal(await raw.locator('pre').evaluate((el) => el.textContent), '', 'filled only when opened');
    await raw.locator('summary').click();
    await settle(panel);
    assert.equal(await raw.locator('pre').evaluate((el) => el.textContent), ANSWERS.analyst);
    // Clicking a finding in the card reveals its lines, as in the list.
    await items.first().locator('button.finding-main').click();
    const posted = await panel.posted();
    assert.deepEqual(posted[posted.length - 1], { type: 'reveal', findingId: 'analyst-1' });
  });

  it('one finding says "1 finding"; a dismissed finding leaves the card too', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    assert.match(await cardText(panel, 'security'), /^.*2 findings$/m);
    await panel.send(events(2, { kind: 'dismissed', findingId: 'security-1' }));
    await settle(panel);
    const sec = await cardText(panel, 'security');
    assert.match(sec, /^.*1 finding$/m);
    assert.doesNotMatch(sec, /Token compared with ===/);
    assert.match(sec, /SQL built from the user name/);
  });

  it('while a JSON answer streams, the card shows the findings so far, never half a JSON document', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll()));
    let seq = 3;
    const parts = pieces(ANSWERS.analyst, 9);
    const firstEnd = ANSWERS.analyst.indexOf('"confidence"');
    let sent = 0;
    for (const part of parts) {
      await panel.send(events(seq++, { kind: 'delta', agent: 'analyst', text: part }));
      sent += part.length;
      if (sent >= firstEnd && sent < firstEnd + 9) {
        await settle(panel);
        const mid = await cardText(panel, 'analyst');
        assert.match(mid, /1 finding so far/);
        assert.match(mid, /Session expiry is never checked/);
        assert.doesNotMatch(mid, /"severity"|\{"findings"|```|explanation/);
      }
    }
    await settle(panel);
    const text = await cardText(panel, 'analyst');
    assert.match(text, /2 findings so far/);
    assert.match(text, /HIGH|High/);
    assert.match(text, /Magic number for the session lifetime/);
    assert.doesNotMatch(text, /"severity"|\{"findings"|```|explanation/);
    assert.equal(await card(panel, 'analyst').locator('.progress-item').count(), 2);
    // The raw answer is there for whoever wants it, and follows the stream once open.
    const raw = card(panel, 'analyst').locator('details.raw-answer');
    await raw.locator('summary').click();
    await panel.send(events(seq++, { kind: 'delta', agent: 'analyst', text: ' More.' }));
    await settle(panel);
    assert.equal(await raw.locator('pre').evaluate((el) => el.textContent), `${ANSWERS.analyst} More.`);
    // Done: the progress gives way to the findings the host read.
    await panel.send(events(seq,
      { kind: 'finding', agent: 'analyst', finding: { ...FINDINGS[1]!, agents: ['analyst'] } },
      { kind: 'finding', agent: 'analyst', finding: FINDINGS[3]! },
      { kind: 'ended', agent: 'analyst', title: 'Analyst', outcome: outcome({ state: 'done', model: 'gpt-4.1', text: ANSWERS.analyst, findingCount: 2 }) }));
    await settle(panel);
    const done = await cardText(panel, 'analyst');
    assert.match(done, /2 findings/);
    assert.doesNotMatch(done, /so far/);
    assert.equal(await card(panel, 'analyst').locator('li.card-finding').count(), 2);
  });

  it('a stream that stops part-way keeps its findings so far; prose answers still stream as Markdown', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(),
      { kind: 'delta', agent: 'security', text: '[{"severity": "critical", "title": "SQL injection in login", "explanation": "The user na' },
      { kind: 'delta', agent: 'architecture', text: '## Design\n\nThe handler is **too big**.\n\n' }));
    await settle(panel);
    assert.match(await cardText(panel, 'security'), /1 finding so far/);
    assert.equal(await card(panel, 'architecture').locator('.answer-body strong').innerText(), 'too big');
    await panel.send(events(3, { kind: 'ended', agent: 'security', title: 'Security', outcome: outcome({ state: 'cancelled', model: 'gemini-2.5-flash', text: '', error: { code: 'cancelled' } }) }));
    await settle(panel);
    const sec = await cardText(panel, 'security');
    assert.match(sec, /SQL injection in login/);
    assert.doesNotMatch(sec, /"severity"/);
  });

  it('an answer Quorum could not read is shown as rendered Markdown, without a raw disclosure', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll(), { kind: 'ended', agent: 'analyst', title: 'Analyst', outcome: outcome({ state: 'done', model: 'gpt-4.1', text: 'No JSON here, but **a point**.', unparsed: true }) }));
    await settle(panel);
    assert.equal(await card(panel, 'analyst').locator('.answer-body strong').innerText(), 'a point');
    assert.equal(await card(panel, 'analyst').locator('details.raw-answer').isVisible(), false);
  });

  it('the coding agent counts the lines of code while it streams, then shows the improved code', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    await panel.send(events(2, ...queuedAll().map((q) => (q.kind === 'queued' && q.agent === 'coding' ? { ...q, output: 'code' as const } : q))));
    const json = JSON.stringify({ rationale: 'Parameterised the query.', improvedCode: IMPROVED });
    let seq = 3;
    for (const part of pieces(json.slice(0, json.indexOf('return {')), 11)) await panel.send(events(seq++, { kind: 'delta', agent: 'coding', text: part }));
    await settle(panel);
    const mid = await cardText(panel, 'coding');
    assert.match(mid, /Writing the improved code · 6 lines so far/);
    assert.doesNotMatch(mid, /improvedCode|rationale|\{"/);
    await panel.send(events(seq, { kind: 'ended', agent: 'coding', title: 'Coding', outcome: outcome({ state: 'done', model: 'deepseek-v3.2', text: json, improvedCode: IMPROVED, rationale: 'Parameterised the query.' }) }));
    await settle(panel);
    const done = await cardText(panel, 'coding');
    assert.match(done, /Improved code/);
    assert.match(await card(panel, 'coding').locator('pre.improved-code').innerText(), /SELECT \* FROM users WHERE name = \?/);
    assert.doesNotMatch(done, /improvedCode|\{"/);
    assert.equal(await card(panel, 'coding').locator('details.raw-answer').isVisible(), true);
  });

  it('the coding agent\'s advice shows as text when it proposed no code to apply (no Apply button)', async () => {
    panel = await openReady();
    await panel.send(snapshot(baseReview()));
    const advice = 'r\n\nsrc/db.py:2-2: Use a parameterized query instead: [docs](command:quorum.resetCost)';
    await panel.send(events(2, { kind: 'ended', agent: 'coding', title: 'Coding', outcome: outcome({ state: 'done', model: 'deepseek-v3.2', text: '{}', rationale: advice }) }));
    await settle(panel);
    const coding = card(panel, 'coding');
    assert.match(await coding.locator('.rationale').innerText(), /src\/db\.py:2-2: Use a parameterized query instead/);
    assert.equal(await coding.locator('[data-action="applyImproved"]').count(), 0);
    assert.equal(await coding.locator('.rationale a[href^="command:"]').count(), 0);
  });
});
