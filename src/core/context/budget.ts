/**
 * The time the context of one review may take. Past the deadline no file is read or parsed any more: a batch whose
 * lookups are done still gets its context (for a grace of a fifth of the budget more), one whose lookups were cut
 * gets what was found in time, and the review says how many regions had all of theirs ("context: 31 of 545 regions,
 * time budget"). What was read and parsed is kept for the next review.
 */

/** What the context step gives a review by default: a few seconds, whatever the size of the change or repository. */
export const DEFAULT_CONTEXT_BUDGET_MS = 2500;

/** The grace after the deadline, as a share of the budget: choosing from what is parsed takes a few milliseconds a batch. */
const GRACE = 0.2;

export class ContextBudget {
  /** Whether the deadline stopped some work (a file not read or parsed). */
  private stopped = false;

  constructor(
    private readonly deadline: number,
    /** Past the deadline, until when a batch whose lookups need nothing parsed still has its context chosen. */
    private readonly grace: number = deadline,
  ) {}

  static of(ms: number): ContextBudget {
    return new ContextBudget(Date.now() + ms, Date.now() + ms * (1 + GRACE));
  }

  /** Whether the grace after the deadline is over too (then work is cut: the budget remembers it). */
  get pastGrace(): boolean {
    if (Date.now() < this.grace) return false;
    this.stopped = true;
    return true;
  }

  /** Whether the deadline is past; the first time it is found past, the budget remembers that it cut work. */
  get over(): boolean {
    if (Date.now() < this.deadline) return false;
    this.stopped = true;
    return true;
  }

  /** Milliseconds left before the deadline (none: 0). */
  get remainingMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  get cut(): boolean {
    return this.stopped;
  }
}
