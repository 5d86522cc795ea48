/**
 * The time the context of one review may take. Past the deadline no file is read or parsed any more: the batch
 * being chosen keeps what was found, the batches after it get none, and the review says so ("context: 31 of 545
 * regions, time budget"). The rest is indexed in the background and kept for the next review.
 */

/** What the context step gives a review by default: a few seconds, whatever the size of the change or repository. */
export const DEFAULT_CONTEXT_BUDGET_MS = 2500;

export class ContextBudget {
  /** Whether the deadline stopped some work (a file not read or parsed). */
  private stopped = false;

  constructor(private readonly deadline: number) {}

  static of(ms: number): ContextBudget {
    return new ContextBudget(Date.now() + ms);
  }

  /** Whether the deadline is past; the first time it is found past, the budget remembers that it cut work. */
  get over(): boolean {
    if (Date.now() < this.deadline) return false;
    this.stopped = true;
    return true;
  }

  get cut(): boolean {
    return this.stopped;
  }
}
