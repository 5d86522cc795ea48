import * as vscode from 'vscode';
import { addressedRate, refutedRate, usdPerAddressed, type OutcomeCounts, type OutcomeStats } from '../../core/outcomes/stats';
import { formatUsd } from '../../shared/format';
import { escapeMarkdown } from '../../shared/untrustedText';
import type { OutcomeService } from './outcomeService';

/**
 * **Quorum: Show Review Outcomes**: a tree in the Explorer (theme-native), per agent, per model and per severity —
 * raised, addressed, dismissed, open, gone, refuted, the addressed and refuted rates and dollars per addressed
 * finding, each count with a plain bar of its share. Model ids and agent names are untrusted text: tree labels are
 * plain text, the tooltip's Markdown escapes them.
 */

const OUTCOMES_VIEW_ID = 'quorum.outcomes';
/** Context key that shows the view (once the command ran). */
const OUTCOMES_SHOWN_CONTEXT = 'quorum.outcomesShown';

type Group = 'byAgent' | 'byModel' | 'bySeverity';
export type OutcomeNode =
  | { kind: 'summary'; findings: number }
  | { kind: 'empty' }
  | { kind: 'group'; group: Group }
  | { kind: 'key'; group: Group; key: string; counts: OutcomeCounts }
  | { kind: 'figure'; label: string; value: string; share?: number };

const BAR_CELLS = 10;
const percent = (r: number | undefined) => (r === undefined ? '–' : `${Math.round(r * 100)}%`);

/** A plain bar of `share` (0..1) in ten cells. */
function bar(share: number): string {
  const full = Math.round(Math.min(1, Math.max(0, share)) * BAR_CELLS);
  return '█'.repeat(full) + '░'.repeat(BAR_CELLS - full);
}

function groupLabel(group: Group): string {
  if (group === 'byAgent') return vscode.l10n.t('By agent');
  if (group === 'byModel') return vscode.l10n.t('By model');
  return vscode.l10n.t('By severity');
}

function figures(c: OutcomeCounts): OutcomeNode[] {
  const share = (n: number) => (c.raised === 0 ? 0 : n / c.raised);
  const row = (label: string, n: number): OutcomeNode => ({ kind: 'figure', label, value: `${n}`, share: share(n) });
  const perAddressed = usdPerAddressed(c);
  return [
    row(vscode.l10n.t('Addressed'), c.addressed),
    row(vscode.l10n.t('Dismissed'), c.dismissed),
    row(vscode.l10n.t('Open'), c.open),
    row(vscode.l10n.t('Gone'), c.gone),
    row(vscode.l10n.t('Refuted by the verifier'), c.refuted),
    { kind: 'figure', label: vscode.l10n.t('Cost'), value: formatUsd(c.costUsd) },
    { kind: 'figure', label: vscode.l10n.t('Cost per addressed finding'), value: perAddressed === undefined ? '–' : formatUsd(perAddressed) },
  ];
}

function describe(c: OutcomeCounts): string {
  return vscode.l10n.t('{0} raised · {1} addressed · {2} refuted', c.raised, percent(addressedRate(c)), percent(refutedRate(c)));
}

function tooltip(key: string, c: OutcomeCounts): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.appendMarkdown(`**${escapeMarkdown(key)}**\n\n`);
  md.appendMarkdown(`| ${vscode.l10n.t('Raised')} | ${vscode.l10n.t('Addressed')} | ${vscode.l10n.t('Dismissed')} | ${vscode.l10n.t('Open')} | ${vscode.l10n.t('Gone')} | ${vscode.l10n.t('Refuted by the verifier')} |\n|---:|---:|---:|---:|---:|---:|\n`);
  md.appendMarkdown(`| ${c.raised} | ${c.addressed} | ${c.dismissed} | ${c.open} | ${c.gone} | ${c.refuted} |\n`);
  return md;
}

class OutcomesTree implements vscode.TreeDataProvider<OutcomeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<OutcomeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private stats: OutcomeStats | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly service: OutcomeService) {
    this.subscription = service.onDidChange(() => this.refresh());
  }

  refresh(): void {
    this.stats = undefined;
    this.emitter.fire(undefined);
  }

  /** The figures shown (read from the stores on first need). */
  current(): OutcomeStats {
    return (this.stats ??= this.service.stats());
  }

  getChildren(node?: OutcomeNode): OutcomeNode[] {
    const stats = this.current();
    if (!node) {
      if (stats.findings === 0) return [{ kind: 'empty' }];
      return [{ kind: 'summary', findings: stats.findings }, { kind: 'group', group: 'byAgent' }, { kind: 'group', group: 'byModel' }, { kind: 'group', group: 'bySeverity' }];
    }
    if (node.kind === 'group') {
      // Agents and models most raised first; severities most severe first (as the figures hold them).
      const entries = Object.entries(stats[node.group]);
      if (node.group !== 'bySeverity') entries.sort((a, b) => b[1].raised - a[1].raised || a[0].localeCompare(b[0]));
      return entries.map(([key, counts]) => ({ kind: 'key', group: node.group, key, counts }));
    }
    if (node.kind === 'key') return figures(node.counts);
    return [];
  }

  getTreeItem(node: OutcomeNode): vscode.TreeItem {
    const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
    switch (node.kind) {
      case 'empty':
        return new vscode.TreeItem(vscode.l10n.t('No review outcomes yet: they are kept after each review.'), None);
      case 'summary': {
        const item = new vscode.TreeItem(vscode.l10n.t('{0} findings', node.findings), None);
        item.iconPath = new vscode.ThemeIcon('graph');
        return item;
      }
      case 'group':
        return new vscode.TreeItem(groupLabel(node.group), Expanded);
      case 'key': {
        const item = new vscode.TreeItem(node.key || vscode.l10n.t('(unknown)'), Collapsed);
        item.description = describe(node.counts);
        item.tooltip = tooltip(node.key, node.counts);
        item.id = `${node.group}/${node.key}`;
        return item;
      }
      case 'figure': {
        const item = new vscode.TreeItem(node.label, None);
        item.description = node.share === undefined ? node.value : `${node.value}  ${bar(node.share)}  ${percent(node.share)}`;
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

const SHOW_WAIT_MS = 5_000;

/** Resolves when `view` becomes visible, or after SHOW_WAIT_MS. */
function onScreen(view: vscode.TreeView<OutcomeNode>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const sub = view.onDidChangeVisibility((e) => e.visible && done());
    const timer = setTimeout(done, SHOW_WAIT_MS);
  });
}

/** The command: the view made (once), shown and focused. */
export class OutcomesView implements vscode.Disposable {
  private view: vscode.TreeView<OutcomeNode> | undefined;
  readonly tree: OutcomesTree;

  constructor(service: OutcomeService) {
    this.tree = new OutcomesTree(service);
  }

  /** Whether the view is on screen. */
  get visible(): boolean {
    return this.view?.visible === true;
  }

  /** Shows and focuses the view; resolves once it is on screen (or after a few seconds, whatever the workbench did). */
  async show(): Promise<void> {
    const view = (this.view ??= vscode.window.createTreeView(OUTCOMES_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }));
    this.tree.refresh();
    const shown = view.visible ? Promise.resolve() : onScreen(view);
    await vscode.commands.executeCommand('setContext', OUTCOMES_SHOWN_CONTEXT, true);
    await vscode.commands.executeCommand(`${OUTCOMES_VIEW_ID}.focus`);
    await shown;
  }

  dispose(): void {
    this.view?.dispose();
    this.tree.dispose();
  }
}
