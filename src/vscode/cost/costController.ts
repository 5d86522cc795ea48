import * as vscode from 'vscode';
import type { CostLedger } from '../../core/cost/ledger';
import type { CostTotals, LedgerTotals } from '../../core/cost/totals';
import { formatCount, formatUsd } from '../../shared/format';
import { escapeIcons } from '../../shared/untrustedText';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';
import type { CostStatusBar, CostView } from './costStatusBar';
import type { MonthlySpend } from './monthlySpend';

interface CostPickItem extends vscode.QuickPickItem {
  action?: 'reset';
}

/**
 * Keeps the status bar in step with the ledger, the month-to-date spend and the running reviews; shows the
 * cost details; warns once when the month passes its budget.
 */
export class CostController implements vscode.Disposable {
  private readonly disposables: { dispose(): unknown }[] = [];
  private running = 0;
  private monthWarnedFor: string | undefined;
  private pendingMonthly: Promise<void> = Promise.resolve();

  constructor(
    private readonly ledger: CostLedger,
    private readonly monthly: MonthlySpend,
    private readonly settings: SettingsService,
    private readonly prompter: Prompter,
    /** The status bar item activation created (it showed the session's cost before this controller existed). */
    private readonly bar: CostStatusBar,
  ) {
    const off = ledger.onChange((_totals, entry) => {
      if (entry && entry.costUsd > 0) {
        this.pendingMonthly = this.pendingMonthly.then(() => this.monthly.add(entry.costUsd)).then(() => this.refresh());
      }
      this.refresh();
    });
    this.disposables.push({ dispose: off }, this.bar, settings.onDidChange(() => this.refresh()));
    this.refresh();
  }

  view(): CostView {
    return { totals: this.ledger.totals(), monthUsd: this.monthly.usd, running: this.running, budget: this.settings.current.budget };
  }

  /** Waits for month-to-date bookkeeping of the entries recorded so far (for tests and shutdown). */
  settled(): Promise<void> {
    return this.pendingMonthly;
  }

  get statusBar(): CostStatusBar {
    return this.bar;
  }

  reviewStarted(): void {
    this.running++;
    this.refresh();
  }

  reviewEnded(): void {
    this.running = Math.max(0, this.running - 1);
    this.refresh();
  }

  refresh(): void {
    const view = this.view();
    this.bar.update(view);
    const budget = view.budget?.monthlyUsd ?? 0;
    const month = this.monthly.month;
    if (budget > 0 && view.monthUsd >= budget && this.monthWarnedFor !== month) {
      this.monthWarnedFor = month;
      void this.warnMonthly(view.monthUsd, budget);
    }
  }

  private async warnMonthly(spent: number, budget: number): Promise<void> {
    const show = vscode.l10n.t('Show Cost');
    const choice = await this.prompter.message(
      'warning',
      vscode.l10n.t('Quorum has spent {0} this month, past the monthly budget of {1} (quorum.budget.monthlyUsd).', formatUsd(spent), formatUsd(budget)),
      { id: 'cost.monthlyBudget' },
      show,
    );
    if (choice === show) await this.showDetails();
  }

  async showDetails(): Promise<void> {
    const view = this.view();
    const items = detailItems(view.totals, view.monthUsd, view.budget?.monthlyUsd ?? 0);
    const picked = await this.prompter.pick(items, {
      id: 'cost.details',
      title: vscode.l10n.t('Quorum — session cost {0}', formatUsd(view.totals.session.costUsd)),
      placeHolder: vscode.l10n.t('Cost by agent and model; choose "Reset session cost" to start again from $0'),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (picked?.action === 'reset') this.reset();
  }

  reset(): void {
    this.ledger.reset();
    this.refresh();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function describe(t: CostTotals): string {
  return vscode.l10n.t('{0} in · {1} out · {2} cached · requests: {3} · retries: {4}', formatCount(t.promptTokens), formatCount(t.completionTokens), formatCount(t.cachedTokens), t.requests, t.retries);
}

function costLabel(t: CostTotals): string {
  const cost = t.estimatedUsd > 0 ? vscode.l10n.t('{0} (incl. {1} estimated)', formatUsd(t.costUsd), formatUsd(t.estimatedUsd)) : formatUsd(t.costUsd);
  return t.listedUsd > 0 ? `${cost} · ${vscode.l10n.t("{0} at the gateway's listed prices", formatUsd(t.listedUsd))}` : cost;
}

export function detailItems(totals: LedgerTotals, monthUsd: number, monthlyBudget: number): CostPickItem[] {
  const sep = (label: string): CostPickItem => ({ label, kind: vscode.QuickPickItemKind.Separator });
  const items: CostPickItem[] = [
    { label: `$(pulse) ${vscode.l10n.t('Session')}`, description: costLabel(totals.session), detail: describe(totals.session) },
  ];
  const agents = Object.entries(totals.byAgent).sort((a, b) => b[1].costUsd - a[1].costUsd);
  if (agents.length > 0) {
    items.push(sep(vscode.l10n.t('By agent')));
    for (const [name, t] of agents) items.push({ label: `$(person) ${escapeIcons(name)}`, description: costLabel(t), detail: describe(t) });
    items.push(sep(vscode.l10n.t('By model')));
    for (const [name, t] of Object.entries(totals.byModel).sort((a, b) => b[1].costUsd - a[1].costUsd)) {
      items.push({ label: `$(symbol-class) ${escapeIcons(name)}`, description: costLabel(t), detail: describe(t) });
    }
  }
  items.push(sep(vscode.l10n.t('This month')));
  items.push({
    label: `$(calendar) ${formatUsd(monthUsd)}`,
    description: monthlyBudget > 0 ? vscode.l10n.t('of {0} monthly budget', formatUsd(monthlyBudget)) : vscode.l10n.t('no monthly budget set'),
  });
  items.push(sep(''));
  items.push({ label: `$(trash) ${vscode.l10n.t('Reset session cost')}`, action: 'reset', alwaysShow: true });
  return items;
}
