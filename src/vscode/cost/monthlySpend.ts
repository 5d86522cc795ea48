import type * as vscode from 'vscode';

const KEY = 'quorum.monthlySpend';

interface Stored {
  month: string;
  usd: number;
}

/** `YYYY-MM` in UTC. */
function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/**
 * Month-to-date spend across sessions and windows, kept in global state. A new month starts from zero.
 */
export class MonthlySpend {
  constructor(
    private readonly state: vscode.Memento,
    private readonly now: () => number = Date.now,
  ) {}

  get month(): string {
    return monthOf(this.now());
  }

  get usd(): number {
    const stored = this.state.get<Stored>(KEY);
    return stored && stored.month === this.month && Number.isFinite(stored.usd) ? stored.usd : 0;
  }

  async add(usd: number): Promise<void> {
    if (!(usd > 0) || !Number.isFinite(usd)) return;
    await this.state.update(KEY, { month: this.month, usd: this.usd + usd } satisfies Stored);
  }
}
