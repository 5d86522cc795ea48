import * as vscode from 'vscode';
import type { CostTotals, LedgerTotals } from '../../core/cost/totals';
import type { QuorumSettings } from '../../core/settings/schema';
import { formatCount, formatUsd } from '../../shared/format';
import { escapeMarkdown } from '../../shared/untrustedText';
import { Commands } from '../commands';

const STATUS_BAR_ID = 'quorum.cost';

export interface CostView {
  totals: LedgerTotals;
  monthUsd: number;
  running: number;
  /** The budgets; undefined until the settings are first read (activation shows the bar without reading them). */
  budget: QuorumSettings['budget'] | undefined;
}

function row(name: string, t: CostTotals): string {
  const est = `${t.estimatedUsd > 0 ? ' *' : ''}${t.listedUsd > 0 ? ' †' : ''}`;
  // Agent and model names come from settings and the gateway: escaped, because this tooltip is trusted for two commands.
  return `| ${escapeMarkdown(name)} | ${formatUsd(t.costUsd)}${est} | ${formatCount(t.promptTokens)} / ${formatCount(t.completionTokens)} / ${formatCount(t.cachedTokens)} | ${t.requests} | ${t.retries} |`;
}

/** The status bar text for a view (exported for tests and the cost details). */
function statusText(view: CostView): string {
  const icon = view.running > 0 ? '$(sync~spin)' : '$(pulse)';
  return `${icon} ${formatUsd(view.totals.session.costUsd)}`;
}

export function tooltipMarkdown(view: CostView): vscode.MarkdownString {
  const { session, byAgent, byModel } = view.totals;
  const md = new vscode.MarkdownString(undefined, true);
  md.supportThemeIcons = true;
  md.isTrusted = { enabledCommands: [Commands.showCost, Commands.resetCost] };
  md.appendMarkdown(`**${vscode.l10n.t('Quorum — session cost')}: ${formatUsd(session.costUsd)}**`);
  if (view.running > 0) md.appendMarkdown(`  \n$(sync~spin) ${vscode.l10n.t('{0} review(s) running', view.running)}`);
  md.appendMarkdown('\n\n');
  const header = `| | ${vscode.l10n.t('Cost')} | ${vscode.l10n.t('Tokens in / out / cached')} | ${vscode.l10n.t('Requests')} | ${vscode.l10n.t('Retries')} |\n|---|---:|---:|---:|---:|\n`;
  const agents = Object.entries(byAgent).sort((a, b) => b[1].costUsd - a[1].costUsd);
  const models = Object.entries(byModel).sort((a, b) => b[1].costUsd - a[1].costUsd);
  if (agents.length > 0) {
    md.appendMarkdown(`${vscode.l10n.t('By agent')}\n\n${header}${agents.map(([k, t]) => row(k, t)).join('\n')}\n\n`);
    md.appendMarkdown(`${vscode.l10n.t('By model')}\n\n${header}${models.map(([k, t]) => row(k, t)).join('\n')}\n\n`);
  } else {
    md.appendMarkdown(`${vscode.l10n.t('No requests yet in this session.')}\n\n`);
  }
  md.appendMarkdown(
    `${vscode.l10n.t('Total')}: ${formatCount(session.promptTokens)} ${vscode.l10n.t('in')} · ${formatCount(session.completionTokens)} ${vscode.l10n.t('out')} · ${formatCount(session.cachedTokens)} ${vscode.l10n.t('cached')} · ${vscode.l10n.t('requests: {0}, retries: {1}', session.requests, session.retries)}\n\n`,
  );
  if (session.estimatedUsd > 0) {
    md.appendMarkdown(`\\* ${vscode.l10n.t('{0} of this is estimated: the gateway reported no usage, so tokens were counted locally.', formatUsd(session.estimatedUsd))}\n\n`);
  }
  if (session.listedUsd > 0) {
    md.appendMarkdown(`† ${vscode.l10n.t("{0} of this is priced at the prices the gateway lists in /models (they come before Quorum's catalogue; quorum.prices comes before both).", formatUsd(session.listedUsd))}\n\n`);
  }
  if (session.unpriced > 0) {
    md.appendMarkdown(`${vscode.l10n.t('{0} request(s) used a model with no known price (counted as $0; add it to quorum.prices).', session.unpriced)}\n\n`);
  }
  const monthly = view.budget?.monthlyUsd ?? 0;
  md.appendMarkdown(
    monthly > 0
      ? `${vscode.l10n.t('This month: {0} of {1} budget', formatUsd(view.monthUsd), formatUsd(monthly))}\n\n`
      : `${vscode.l10n.t('This month: {0}', formatUsd(view.monthUsd))}\n\n`,
  );
  const warn = view.budget?.warnUsd ?? 0;
  if (warn > 0 && session.costUsd >= warn) md.appendMarkdown(`$(warning) ${vscode.l10n.t('Past the warning level of {0} (quorum.budget.warnUsd).', formatUsd(warn))}\n\n`);
  md.appendMarkdown(`[${vscode.l10n.t('Show details')}](command:${Commands.showCost}) · [${vscode.l10n.t('Reset session cost')}](command:${Commands.resetCost})`);
  return md;
}

/** True when the session is past `budget.warnUsd` or the month past `budget.monthlyUsd`. */
function isOverWarning(view: CostView): boolean {
  const { warnUsd, monthlyUsd } = view.budget ?? { warnUsd: 0, monthlyUsd: 0 };
  return (warnUsd > 0 && view.totals.session.costUsd >= warnUsd) || (monthlyUsd > 0 && view.monthUsd >= monthlyUsd);
}

/** One status bar item on the right: the session's cost, a spinner while reviews run, a rich tooltip. */
export class CostStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Right, 100);
    this.item.name = vscode.l10n.t('Quorum Cost');
    this.item.command = Commands.showCost;
  }

  update(view: CostView): void {
    this.item.text = statusText(view);
    this.item.tooltip = tooltipMarkdown(view);
    const over = isOverWarning(view);
    this.item.backgroundColor = over ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.color = over ? new vscode.ThemeColor('statusBarItem.warningForeground') : undefined;
    this.item.accessibilityInformation = { label: vscode.l10n.t('Quorum session cost {0}', formatUsd(view.totals.session.costUsd)) };
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  get tooltipText(): string {
    const t = this.item.tooltip;
    return typeof t === 'string' ? t : (t?.value ?? '');
  }

  get warning(): boolean {
    return this.item.backgroundColor !== undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
