import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import type { ReviewView } from '../../../src/shared/protocol';
import { PanelStore } from '../../../src/vscode/panel/panelStore';

class MemoryMemento implements vscode.Memento {
  readonly data = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return (this.data.has(key) ? this.data.get(key) : defaultValue) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const view = (targetKey: string, text = 'answer'): ReviewView => ({
  sessionId: 's', targetKey, target: { file: 'a.ts', language: 'typescript', startLine: 1, endLine: 2 }, status: 'running',
  startedAt: 1, agents: [{ agent: 'a', title: 'A', model: 'm', state: 'running', text, chunks: 1 }], findings: [], dismissed: [], live: true,
});

describe('panel: stored reviews for restored panels', () => {
  it('stores a review as not live, closes what was running, and finds it by target', async () => {
    const m = new MemoryMemento();
    const store = new PanelStore(m);
    const original = view('k1');
    await store.save(original);
    const got = store.get('k1');
    assert.equal(got?.live, false);
    assert.equal(got?.status, 'cancelled');
    assert.equal(got?.agents[0]?.state, 'cancelled');
    assert.equal(original.live, true, 'the live view is not modified');
    assert.equal(store.get('other'), undefined);
  });

  it('keeps the ten most recent targets, the newest version of each, and cuts long answers', async () => {
    const store = new PanelStore(new MemoryMemento());
    for (let i = 0; i < 12; i++) await store.save(view(`k${i}`));
    await store.save(view('k5', 'x'.repeat(80_000)));
    assert.equal(store.get('k0'), undefined);
    assert.equal(store.get('k1'), undefined);
    assert.ok(store.get('k11'));
    assert.equal(store.get('k5')?.agents[0]?.text.length, 50_000);
  });

  it('ignores stored data that no longer matches the schema', async () => {
    const m = new MemoryMemento();
    await m.update('quorum.panel.reviews', [{ targetKey: 'k', nonsense: true }]);
    assert.equal(new PanelStore(m).get('k'), undefined);
  });
});
