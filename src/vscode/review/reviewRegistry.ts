import type { FindingStore } from '../findings/findingStore';
import type { QuorumLog } from '../log';
import type { ReviewSession } from './reviewSession';

/** What the registry needs of a review (a `ReviewSession`; tests give stand-ins). */
export interface RegisteredReview {
  readonly id: string;
  readonly targetKey: string;
  readonly isDone: boolean;
  cancel(): void;
  dispose(): void;
}

/**
 * The reviews the editor knows: each by id, and the latest one of each target. A new review of a target
 * replaces the previous one (cancelled, its findings discarded); a replaced review is forgotten once it settles.
 */
export class ReviewRegistry<S extends RegisteredReview = ReviewSession> {
  private readonly byId = new Map<string, S>();
  private readonly latest = new Map<string, S>();

  constructor(private readonly store: Pick<FindingStore, 'discard'>, private readonly log: Pick<QuorumLog, 'info'>) {}

  get(id: string): S | undefined {
    return this.byId.get(id);
  }

  latestOf(targetKey: string): S | undefined {
    return this.latest.get(targetKey);
  }

  isLatest(session: S): boolean {
    return this.latest.get(session.targetKey) === session;
  }

  running(): S[] {
    return [...this.byId.values()].filter((s) => !s.isDone);
  }

  /** Makes `session` the latest review of its target, in place of the previous one. */
  add(session: S): void {
    const previous = this.latest.get(session.targetKey);
    if (previous) {
      if (!previous.isDone) this.log.info(`Review ${previous.id} replaced by a new review of the same lines`);
      previous.cancel();
      this.store.discard(previous.id);
      // A finished review that a new one replaces is forgotten; a running one goes when it settles.
      if (previous.isDone) this.forget(previous);
    }
    this.byId.set(session.id, session);
    this.latest.set(session.targetKey, session);
  }

  /** A review has settled: forgotten when a newer review of its target replaced it meanwhile. */
  settled(session: S): void {
    if (!this.isLatest(session)) this.forget(session);
  }

  private forget(session: S): void {
    this.byId.delete(session.id);
    session.dispose();
  }

  dispose(): void {
    for (const s of this.byId.values()) {
      s.cancel();
      s.dispose();
    }
    this.byId.clear();
    this.latest.clear();
  }
}
