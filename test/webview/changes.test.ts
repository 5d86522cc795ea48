import { strict as assert } from 'node:assert';
import { closeBrowser, closeChecked, openReady, type PanelPage, settle } from './harness';
import { doneReview, FINDINGS, snapshot } from './fixtures';

/** A finished review of uncommitted changes across three files, two more skipped. */
function changesReview() {
  const files = ['src/app.ts', 'src/db.py', 'notes/todo.md'];
  const at = ['src/db.py', 'src/app.ts', 'src/db.py', 'src/app.ts', 'src/db.py'];
  return doneReview({
    target: { file: 'src/app.ts', language: 'typescript', startLine: 1, endLine: 13 },
    changes: {
      kind: 'changes', label: 'Uncommitted changes', files, added: 120, removed: 35,
      skipped: [{ file: 'package-lock.json', reason: 'lockfile' }, { file: 'old.ts', reason: 'deleted' }],
    },
    findings: FINDINGS.map((f, i) => ({ ...f, file: at[i] ?? 'src/app.ts' })),
  });
}

describe('webview: a review of changes', () => {
  let panel: PanelPage;
  afterEach(() => closeChecked(panel));
  after(closeBrowser);

  it('the header says what was reviewed: the changes, files, lines added and removed, and each skipped file with its reason', async () => {
    panel = await openReady();
    await panel.send(snapshot(changesReview()));
    await settle(panel);
    const head = await panel.page.locator('header.review-head .target').innerText();
    assert.match(head, /Uncommitted changes: 3 files, \+120 −35, 2 skipped/);
    assert.match(head, /Skipped: package-lock\.json \(lockfile\), old\.ts \(deleted\)/);
    assert.doesNotMatch(head, /lines 1–13|typescript/);
  });

  it('says "1 file" for a review of one file', async () => {
    panel = await openReady();
    const one = changesReview();
    if (one.changes) one.changes = { ...one.changes, label: 'Staged changes', files: ['src/db.py'], added: 1, removed: 1, skipped: [] };
    await panel.send(snapshot(one));
    await settle(panel);
    assert.match(await panel.page.locator('header.review-head .target').innerText(), /^Staged changes: 1 file, \+1 −1, 0 skipped/);
  });

  it('findings are grouped by file, in the order the files were reviewed, most severe first within each', async () => {
    panel = await openReady();
    await panel.send(snapshot(changesReview()));
    await settle(panel);
    const rows = await panel.page.locator('ul.findings > li').evaluateAll((lis) => lis.map((li) => (li.classList.contains('file-group') ? `# ${li.textContent?.trim()}` : li.querySelector('.finding-title')?.textContent ?? '')));
    assert.deepEqual(rows, [
      '# src/app.ts (2)', 'Session expiry is never checked', 'Magic number for the session lifetime',
      '# src/db.py (3)', 'SQL built from the user name', 'Database access mixed into the HTTP handler', 'Token compared with ===',
    ]);
  });

  it('a selection review keeps its single-file header and flat list', async () => {
    panel = await openReady();
    await panel.send(snapshot(doneReview()));
    await settle(panel);
    assert.equal(await panel.page.locator('li.file-group').count(), 0);
    assert.match(await panel.page.locator('header.review-head .target').innerText(), /session\.ts.*lines 12–48/s);
  });

  it('an agent sent several requests (one per batch) says how many; attempts only when some were retried', async () => {
    const review = changesReview();
    const [analyst, architecture] = review.agents;
    assert.ok(analyst?.outcome && architecture?.outcome);
    analyst.outcome = { ...analyst.outcome, requests: 3, attempts: 3 };
    architecture.outcome = { ...architecture.outcome, requests: 3, attempts: 5 };
    panel = await openReady();
    await panel.send(snapshot(review));
    await settle(panel);
    const card = (agent: string) => panel.page.locator(`section.card[data-agent="${agent}"]`).innerText();
    const a = await card('analyst');
    assert.match(a, /3 requests/);
    assert.doesNotMatch(a, /attempts/);
    assert.match(await card('architecture'), /3 requests · 5 attempts/);
  });
});

