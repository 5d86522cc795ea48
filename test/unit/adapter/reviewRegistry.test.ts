import { strict as assert } from 'node:assert';
import { ReviewRegistry, type RegisteredReview } from '../../../src/vscode/review/reviewRegistry';

/** A review as the registry sees it, recording what is done to it. */
class FakeReview implements RegisteredReview {
  isDone = false;
  cancelled = false;
  disposed = false;
  constructor(readonly id: string, readonly targetKey: string) {}
  cancel(): void {
    this.cancelled = true;
  }
  dispose(): void {
    this.disposed = true;
  }
}

describe('the review registry (session bookkeeping), without VS Code', () => {
  let discarded: string[];
  let logged: string[];
  let registry: ReviewRegistry<FakeReview>;

  beforeEach(() => {
    discarded = [];
    logged = [];
    registry = new ReviewRegistry<FakeReview>({ discard: (id) => void discarded.push(id) }, { info: (m) => void logged.push(m) });
  });

  it('knows a review by id and as the latest of its target', () => {
    const a = new FakeReview('a', 'k');
    registry.add(a);
    assert.equal(registry.get('a'), a);
    assert.equal(registry.latestOf('k'), a);
    assert.equal(registry.isLatest(a), true);
    assert.deepEqual(registry.running(), [a]);
  });

  it('replaces a running review of the same target: cancelled, its findings discarded, kept until it settles', () => {
    const a = new FakeReview('a', 'k');
    const b = new FakeReview('b', 'k');
    registry.add(a);
    registry.add(b);
    assert.equal(a.cancelled, true);
    assert.deepEqual(discarded, ['a']);
    assert.equal(registry.latestOf('k'), b);
    assert.equal(registry.isLatest(a), false);
    assert.equal(registry.get('a'), a, 'a running review stays known until it settles');
    assert.equal(a.disposed, false);
    assert.match(logged.join('\n'), /Review a replaced/);
    a.isDone = true;
    registry.settled(a);
    assert.equal(registry.get('a'), undefined);
    assert.equal(a.disposed, true);
  });

  it('forgets a finished review at once when a new review of its target replaces it, without saying so', () => {
    const a = new FakeReview('a', 'k');
    registry.add(a);
    a.isDone = true;
    registry.settled(a);
    assert.equal(registry.get('a'), a, 'the latest review of a target stays once settled');
    registry.add(new FakeReview('b', 'k'));
    assert.equal(registry.get('a'), undefined);
    assert.equal(a.disposed, true);
    assert.deepEqual(discarded, ['a']);
    assert.deepEqual(logged, []);
  });

  it('keeps reviews of other targets apart', () => {
    const a = new FakeReview('a', 'k1');
    const b = new FakeReview('b', 'k2');
    registry.add(a);
    registry.add(b);
    assert.equal(a.cancelled, false);
    assert.deepEqual(discarded, []);
    assert.deepEqual(registry.running().map((s) => s.id), ['a', 'b']);
  });

  it('lists only the reviews still running', () => {
    const a = new FakeReview('a', 'k1');
    const b = new FakeReview('b', 'k2');
    registry.add(a);
    registry.add(b);
    a.isDone = true;
    assert.deepEqual(registry.running(), [b]);
  });

  it('cancels and disposes every review when disposed', () => {
    const a = new FakeReview('a', 'k1');
    const b = new FakeReview('b', 'k2');
    registry.add(a);
    registry.add(b);
    registry.dispose();
    assert.equal(a.cancelled && b.cancelled, true);
    assert.equal(a.disposed && b.disposed, true);
    assert.equal(registry.get('a'), undefined);
    assert.equal(registry.latestOf('k2'), undefined);
  });
});
