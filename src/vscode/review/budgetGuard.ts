import * as vscode from 'vscode';
import type { CostLedger } from '../../core/cost/ledger';
import { formatUsd } from '../../shared/format';
import type { MonthlySpend } from '../cost/monthlySpend';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';

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
    const { sessionUsd, monthlyUsd } = this.settings.current.budget;
    const spent = this.ledger.totals().session.costUsd;
    const go = vscode.l10n.t('Review Anyway');
    if (sessionUsd > 0 && spent + estimateUsd > sessionUsd) {
      const choice = await this.prompter.message(
        'warning',
        vscode.l10n.t('This review may cost up to {0} if every agent writes its longest answer (likely about {1}), taking the session to {2}, past its budget of {3}.', formatUsd(estimateUsd), formatUsd(likelyUsd), formatUsd(spent + estimateUsd), formatUsd(sessionUsd)),
        { id: 'review.sessionBudget', modal: true, detail: vscode.l10n.t('The session budget is quorum.budget.sessionUsd. "Quorum: Reset Session Cost" starts the session again from $0.') },
        go,
      );
      if (choice !== go) return false;
    }
    const month = this.monthly.usd;
    if (monthlyUsd > 0 && month + estimateUsd > monthlyUsd) {
      const choice = await this.prompter.message(
        'warning',
        vscode.l10n.t('This review may cost up to {0} if every agent writes its longest answer (likely about {1}), taking this month\'s spend to {2}, past the monthly budget of {3}.', formatUsd(estimateUsd), formatUsd(likelyUsd), formatUsd(month + estimateUsd), formatUsd(monthlyUsd)),
        { id: 'review.monthlyBudget', modal: true, detail: vscode.l10n.t('The monthly budget is quorum.budget.monthlyUsd.') },
        go,
      );
      if (choice !== go) return false;
    }
    return true;
  }
}
