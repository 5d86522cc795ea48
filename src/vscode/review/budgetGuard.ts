import * as vscode from 'vscode';
import type { CostLedger } from '../../core/cost/ledger';
import { formatUsd } from '../../shared/format';
import type { MonthlySpend } from '../cost/monthlySpend';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';
import { budgetsPassed, type BudgetPassed } from './reviewDecisions';

/** Asks before a review whose estimate would take the session or the month past its budget. */
export class BudgetGuard {
  constructor(
    private readonly settings: SettingsService,
    private readonly ledger: CostLedger,
    private readonly monthly: MonthlySpend,
    private readonly prompter: Prompter,
  ) {}

  /** Budgets are checked against the estimate's ceiling (the safe figure), and the prompts say so. */
  async allows(estimateUsd: number, likelyUsd: number): Promise<boolean> {
    const passed = budgetsPassed(this.settings.current.budget, { sessionUsd: this.ledger.totals().session.costUsd, monthlyUsd: this.monthly.usd }, estimateUsd);
    const go = vscode.l10n.t('Review Anyway');
    // Asked one after the other: the session's first; declining one stops the review.
    for (const p of passed) if ((await this.ask(p, estimateUsd, likelyUsd, go)) !== go) return false;
    return true;
  }

  private ask(p: BudgetPassed, estimateUsd: number, likelyUsd: number, go: string): Thenable<string | undefined> {
    const cost = formatUsd(estimateUsd);
    const likely = formatUsd(likelyUsd);
    const after = formatUsd(p.afterUsd);
    const limit = formatUsd(p.limitUsd);
    return p.budget === 'session'
      ? this.prompter.message(
        'warning',
        vscode.l10n.t('This review may cost up to {0} if every agent writes its longest answer (likely about {1}), taking the session to {2}, past its budget of {3}.', cost, likely, after, limit),
        { id: 'review.sessionBudget', modal: true, detail: vscode.l10n.t('The session budget is quorum.budget.sessionUsd. "Quorum: Reset Session Cost" starts the session again from $0.') },
        go,
      )
      : this.prompter.message(
        'warning',
        vscode.l10n.t('This review may cost up to {0} if every agent writes its longest answer (likely about {1}), taking this month\'s spend to {2}, past the monthly budget of {3}.', cost, likely, after, limit),
        { id: 'review.monthlyBudget', modal: true, detail: vscode.l10n.t('The monthly budget is quorum.budget.monthlyUsd.') },
        go,
      );
  }
}
