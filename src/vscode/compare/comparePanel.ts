import * as vscode from 'vscode';
import { comparePageHtml } from '../../core/eval/comparePage';
import { parseShownComparison, type ShownComparison } from '../../core/eval/shownComparison';
import { COMPARE_STRINGS, compareToHostSchema, type CompareStrings, type CompareToHost } from '../../shared/compareProtocol';
import { escapeIcons } from '../../shared/untrustedText';
import type { QuorumLog } from '../log';
import { pageMessage, webviewOptions, WebviewPage } from '../panel/webviewPage';
import { localStrings } from '../panel/panelStrings';
import { COMPARE_VIEW_TYPE } from '../contributions';
import { ENOUGH_OUTCOMES, type OutcomeCounts } from '../../core/outcomes/stats';

/** The page's strings in the UI language (the English text is the l10n key; placeholders pass through). */
function localCompareStrings(): CompareStrings {
  return localStrings(COMPARE_STRINGS);
}

interface ComparePanelDeps {
  extensionUri: vscode.Uri;
  log: QuorumLog;
  /** "Use for <agent>": sets the model; resolves to the settings target written, or undefined when not set. */
  use: (agent: string, model: string) => Promise<unknown>;
  /** Where the comparison shown is kept for a window reload (the workspace's state). */
  state: vscode.Memento;
  /** The agent's model now (a restored page marks it "current"). */
  modelOf: (agent: string) => string | undefined;
  /** What became of the agent's findings on this workspace's repositories, per model (shown beside the corpus figures). */
  outcomes?: (agent: string) => Readonly<Record<string, OutcomeCounts>>;
}

/**
 * The Compare Models webview: one page rendered by the host from a finished (or stopped) eval — table, chart,
 * thresholds, failures — with a "Use for <agent>" button per model. Same rules as the review panel: CSP
 * default-src 'none', a fresh nonce per load, only `dist/` and `media/`, no command URIs; every message from the
 * page is validated, and only a model that was compared can be chosen. The comparison shown is kept in the
 * workspace's state, and a `WebviewPanelSerializer` shows it again after a window reload; a page with nothing
 * (valid) to show is closed rather than left empty.
 */
export class ComparePanel implements vscode.Disposable {
  static readonly STATE_KEY = 'quorum.compare.shown';
  private page: WebviewPage<CompareToHost> | undefined;
  private shown: ShownComparison | undefined;
  private currentModel = '';
  /** The page as last rendered (tests read the figures shown). */
  html = '';

  constructor(private readonly deps: ComparePanelDeps) {}

  /** Whether the page is open (tests). */
  get isOpen(): boolean {
    return this.page !== undefined;
  }

  show(shown: ShownComparison, currentModel: string): void {
    this.shown = shown;
    this.currentModel = currentModel;
    this.keep(shown);
    if (!this.page) {
      this.adopt(vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, localCompareStrings().pageTitle, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, webviewOptions(this.deps.extensionUri)));
    }
    this.render();
    this.page?.panel.reveal(undefined, false);
  }

  /**
   * A page VS Code brings back after a window reload: the kept comparison, with the agent's model of now as
   * "current"; closed when nothing valid is kept, or when a page is already open. (The serializer activation
   * registers hands it over.)
   */
  restore(panel: vscode.WebviewPanel): void {
    const shown = parseShownComparison(this.deps.state.get<unknown>(ComparePanel.STATE_KEY));
    if (!shown || this.page) {
      this.deps.log.info(`compare page: ${shown ? 'already open' : 'no comparison kept to show'}; the restored page is closed`);
      panel.dispose();
      return;
    }
    this.adopt(panel);
    this.shown = shown;
    this.currentModel = this.deps.modelOf(shown.agent.id) ?? '';
    this.render();
  }

  private adopt(panel: vscode.WebviewPanel): void {
    panel.title = localCompareStrings().pageTitle;
    const page: WebviewPage<CompareToHost> = new WebviewPage(panel, {
      extensionUri: this.deps.extensionUri,
      log: this.deps.log,
      name: 'compare page',
      schema: compareToHostSchema,
      onMessage: (m) => this.handle(m),
      onClosed: () => {
        if (this.page === page) this.page = undefined;
      },
    });
    this.page = page;
  }

  private keep(shown: ShownComparison): void {
    Promise.resolve(this.deps.state.update(ComparePanel.STATE_KEY, shown)).catch((e: unknown) => this.deps.log.warn(`compare page: could not keep the comparison: ${e instanceof Error ? e.message : String(e)}`));
  }

  private render(): void {
    const page = this.page;
    const shown = this.shown;
    if (!page || !shown) return;
    this.html = comparePageHtml({
      ...page.resources(['dist', 'compare.js'], [['media', 'panel.css'], ['media', 'compare.css']]),
      strings: localCompareStrings(),
      agent: shown.agent,
      currentModel: this.currentModel,
      corpus: shown.corpus,
      runs: shown.runs,
      failureCodes: shown.failureCodes,
      ...(shown.stopped ? { stopped: shown.stopped } : {}),
      ...(this.deps.outcomes ? { outcomes: { byModel: this.deps.outcomes(shown.agent.id), minimum: ENOUGH_OUTCOMES } } : {}),
    });
    page.panel.webview.html = this.html;
  }

  /** A message from the page: validated, and "Use for" only for a model of this comparison. */
  async receive(raw: unknown): Promise<boolean> {
    const m = pageMessage(compareToHostSchema, raw, 'compare page', this.deps.log);
    return m ? this.handle(m) : false;
  }

  private async handle(m: CompareToHost): Promise<boolean> {
    if (m.type === 'log') {
      this.deps.log.warn(`compare page: ${m.message}`);
      return true;
    }
    const shown = this.shown;
    if (!shown || m.agent !== shown.agent.id || !shown.runs.some((r) => r.agent === m.agent && r.model === m.model)) {
      this.deps.log.warn('compare page: refused "Use for" of a model that was not compared');
      return false;
    }
    const target = await this.deps.use(m.agent, m.model);
    if (target === undefined) return false;
    this.currentModel = m.model;
    this.render();
    const where = target === vscode.ConfigurationTarget.Global ? vscode.l10n.t('user settings') : vscode.l10n.t('workspace settings');
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Quorum: {0} now uses {1} ({2})', escapeIcons(shown.agent.title), escapeIcons(m.model), where), 5000);
    return true;
  }

  /** Leaves the page open: on a window reload VS Code keeps it and the serializer restores it. */
  dispose(): void {
    this.page?.release();
    this.page = undefined;
  }
}
