import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { comparePageHtml, type ComparePageInput } from '../../core/eval/comparePage';
import type { EvalReport } from '../../core/eval/runner';
import { COMPARE_STRINGS, compareToHostSchema, type CompareStrings } from '../../shared/compareProtocol';
import { describeIssues } from '../../shared/protocol';
import { escapeIcons } from '../../shared/untrustedText';
import type { QuorumLog } from '../log';
import { panelResourceRoots } from '../panel/panelHtml';
import { localStrings } from '../panel/panelStrings';

const COMPARE_VIEW_TYPE = 'quorum.compare';

/** The page's strings in the UI language (the English text is the l10n key; placeholders pass through). */
function localCompareStrings(): CompareStrings {
  return localStrings(COMPARE_STRINGS);
}

interface CompareResult {
  agent: { id: string; title: string };
  currentModel: string;
  corpus: ComparePageInput['corpus'];
  report: EvalReport;
}

/**
 * The Compare Models webview: one page rendered by the host from a finished eval (table, chart, thresholds,
 * failures), with a "Use for <agent>" button per model. Same rules as the review panel: CSP default-src 'none',
 * a fresh nonce per load, only `dist/` and `media/`, no command URIs; every message from the page is validated,
 * and only a model that was compared can be chosen.
 */
export class ComparePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private result: CompareResult | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The page as last rendered (tests read the figures shown). */
  html = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: QuorumLog,
    private readonly use: (agent: string, model: string) => Promise<unknown>,
  ) {}

  /** Whether the page is open (tests). */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(result: CompareResult): void {
    this.result = result;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, localCompareStrings().pageTitle, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
        enableScripts: true,
        enableCommandUris: false,
        enableFindWidget: true,
        localResourceRoots: panelResourceRoots(this.extensionUri),
      });
      this.panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
      this.subscriptions.push(
        this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
        this.panel.onDidDispose(() => {
          this.panel = undefined;
          for (const d of this.subscriptions.splice(0)) d.dispose();
        }),
      );
    }
    this.render(result.currentModel);
    this.panel.reveal(undefined, false);
  }

  private render(currentModel: string): void {
    const panel = this.panel;
    const result = this.result;
    if (!panel || !result) return;
    const uri = (...parts: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...parts)).toString();
    this.html = comparePageHtml({
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: uri('dist', 'compare.js'),
      styleUris: [uri('media', 'panel.css'), uri('media', 'compare.css')],
      lang: vscode.env.language || 'en',
      strings: localCompareStrings(),
      agent: result.agent,
      currentModel,
      corpus: result.corpus,
      runs: result.report.runs,
      failureCodes: result.report.failureCodes,
      ...(result.report.cancelled ? { stopped: { measured: result.report.finished.reduce((s, n) => s + n, 0), total: result.report.runs.length * result.corpus.cases } } : {}),
    });
    panel.webview.html = this.html;
  }

  /** A message from the page: validated, and "Use for" only for a model of this comparison. */
  async receive(raw: unknown): Promise<boolean> {
    const parsed = compareToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`compare page: dropped an invalid message (${describeIssues(parsed.error)})`);
      return false;
    }
    const m = parsed.data;
    if (m.type === 'log') {
      this.log.warn(`compare page: ${m.message}`);
      return true;
    }
    const result = this.result;
    if (!result || m.agent !== result.agent.id || !result.report.runs.some((r) => r.agent === m.agent && r.model === m.model)) {
      this.log.warn('compare page: refused "Use for" of a model that was not compared');
      return false;
    }
    const target = await this.use(m.agent, m.model);
    if (target === undefined) return false;
    result.currentModel = m.model;
    this.render(m.model);
    const where = target === vscode.ConfigurationTarget.Global ? vscode.l10n.t('user settings') : vscode.l10n.t('workspace settings');
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Quorum: {0} now uses {1} ({2})', escapeIcons(result.agent.title), escapeIcons(m.model), where), 5000);
    return true;
  }

  dispose(): void {
    this.panel?.dispose();
    this.panel = undefined;
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }
}
