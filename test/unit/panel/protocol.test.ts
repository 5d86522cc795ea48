import { strict as assert } from 'node:assert';
import { describeIssues, hostToWebviewSchema, webviewToHostSchema } from '../../../src/shared/protocol';
import { safeExternalUrl } from '../../../src/vscode/panel/links';

describe('panel: protocol schemas', () => {
  it('accepts every page message the panel sends and rejects others', () => {
    const good = [
      { type: 'ready' }, { type: 'resync', lastSeq: 4 }, { type: 'stop' }, { type: 'rerun', noCache: true }, { type: 'export' },
      { type: 'reveal', findingId: 'a' }, { type: 'previewFix', findingId: 'a' }, { type: 'applyFix', findingId: 'a' },
      { type: 'dismiss', findingId: 'a' }, { type: 'dismissInProject', findingId: 'a' }, { type: 'previewImproved' }, { type: 'applyImproved' }, { type: 'copyImproved' },
      { type: 'setApiKey' }, { type: 'switchModel' }, { type: 'switchModel', agent: 'security' },
      { type: 'openLink', href: 'https://x.test' }, { type: 'log', level: 'warn', message: 'm' },
    ];
    for (const m of good) assert.ok(webviewToHostSchema.safeParse(m).success, JSON.stringify(m));
    const bad = [null, 'ready', {}, { type: 'eval', code: '1' }, { type: 'rerun' }, { type: 'reveal' }, { type: 'reveal', findingId: 3 }, { type: 'dismissInProject' },
      { type: 'log', level: 'info', message: 'm' }, { type: 'openLink', href: 'x'.repeat(9_000) }];
    for (const m of bad) assert.equal(webviewToHostSchema.safeParse(m).success, false, JSON.stringify(m).slice(0, 60));
  });

  it('host messages: snapshots may carry no review; events need at least one event and a sequence number', () => {
    assert.ok(hostToWebviewSchema.safeParse({ type: 'snapshot', seq: 0, review: null, strings: {} }).success);
    assert.equal(hostToWebviewSchema.safeParse({ type: 'events', seq: 1, events: [] }).success, false);
    assert.equal(hostToWebviewSchema.safeParse({ type: 'events', seq: -1, events: [{ kind: 'delta', agent: 'a', text: 'x' }] }).success, false);
    assert.equal(hostToWebviewSchema.safeParse({ type: 'events', seq: 1, events: [{ kind: 'delta', agent: 'a', text: 'x' }] }).success, true);
    assert.equal(hostToWebviewSchema.safeParse({ type: 'events', seq: 1, events: [{ kind: 'hidden', findings: [{ id: 'f', reason: 'confidence' }] }] }).success, true);
    assert.equal(hostToWebviewSchema.safeParse({ type: 'events', seq: 1, events: [{ kind: 'hidden', findings: [{ id: 'f', reason: 'boring' }] }] }).success, false);
  });

  it('describes validation failures by path and code, never by content', () => {
    const r = webviewToHostSchema.safeParse({ type: 'openLink', href: 42, secret: 'sk-live-123' });
    assert.equal(r.success, false);
    if (r.success) return;
    const d = describeIssues(r.error);
    assert.match(d, /href: invalid_type/);
    assert.doesNotMatch(d, /sk-live|42/);
  });

  it('opens only plain http(s) links', () => {
    assert.equal(safeExternalUrl('https://owasp.org/Top10/')?.href, 'https://owasp.org/Top10/');
    assert.equal(safeExternalUrl('http://example.com')?.hostname, 'example.com');
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'command:workbench.action.terminal.new', 'vscode://x',
      'data:text/html,x', 'https://user:pw@example.com', '//example.com', 'not a url', '']) {
      assert.equal(safeExternalUrl(bad), undefined, bad);
    }
  });
});
