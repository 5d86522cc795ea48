import * as vscode from 'vscode';
import { withShapedTarget, type ChangesPlan } from '../../core/changes/plan';
import { whatWillBeSent } from '../../core/prompt/dryRun';
import type { ShapeOutcome } from '../../core/prompt/shape';
import type { ReviewPipeline } from '../../core/review/pipeline';
import type { ReviewTarget } from '../../core/review/types';
import { renderWhatWillBeSent, WHAT_WILL_BE_SENT_EN, type WhatWillBeSentStrings } from '../../shared/whatWillBeSent';
import type { Prompter } from '../prompter';
import { resolveOutputLanguage } from '../../core/agents/language';
import { targetFromEditor } from '../review/reviewTarget';
import type { SettingsService } from '../settings';
import type { PromptShaper } from './promptShaper';
import { localStrings } from '../panel/panelStrings';

const SENT_SCHEME = 'quorum-sent';

function sentStrings(): WhatWillBeSentStrings {
  return localStrings(WHAT_WILL_BE_SENT_EN);
}

/**
 * "Quorum: Show What Will Be Sent": a read-only Markdown document (a virtual document of its own scheme)
 * with the exact messages each agent would get for the current selection, after rules and redaction, with
 * the models, the estimate and the gateway host. Nothing is sent to make it.
 */
export class SentPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly documents = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private count = 0;

  constructor(
    private readonly deps: { pipeline: ReviewPipeline; shaper: PromptShaper; settings: SettingsService; prompter: Prompter },
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SENT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString()) ?? vscode.l10n.t('This preview is no longer available. Run "Quorum: Show What Will Be Sent" again.');
  }

  /** For the current selection (or the whole file) of the active editor. */
  async showForEditor(editor = vscode.window.activeTextEditor): Promise<vscode.TextDocument | undefined> {
    if (!editor) {
      void this.deps.prompter.message('info', vscode.l10n.t('Open a file and select the code to review, then run Quorum: Show What Will Be Sent again.'), { id: 'sent.noEditor' });
      return undefined;
    }
    const prepared = targetFromEditor(editor);
    if ('kind' in prepared) {
      void this.deps.prompter.message('warning', vscode.l10n.t('There is nothing to send for this selection (it is empty, binary or too large).'), { id: 'sent.noTarget' });
      return undefined;
    }
    return this.showFor(prepared.uri, prepared.target);
  }

  /**
   * For any target of a document, or of a repository (`root` and `plan`: a review of changes, each request it would
   * send, batch by batch). Returns the opened document, or undefined when the file is never sent (the user is told
   * which rule says so).
   */
  async showFor(uri: vscode.Uri, target: ReviewTarget, root?: vscode.Uri, plan?: ChangesPlan): Promise<vscode.TextDocument | undefined> {
    const { outcome, context } = await this.deps.shaper.shape(uri, target, root);
    if (!outcome.ok) {
      this.refuse(outcome);
      return undefined;
    }
    const settings = this.deps.settings.current;
    const language = resolveOutputLanguage(settings.review.language, vscode.env.language);
    let markdown: string;
    try {
      const data = whatWillBeSent(this.deps.pipeline, outcome.shaped, { language }, {
        baseUrl: settings.gateway.baseUrl,
        redactSecrets: settings.privacy.redactSecrets,
        ...(context.rulesOff ? { rulesOff: context.rulesOff } : {}),
      }, plan ? withShapedTarget(plan, outcome.shaped.target).batches : undefined);
      markdown = renderWhatWillBeSent(data, sentStrings());
    } catch (error) {
      void this.deps.prompter.message('error', vscode.l10n.t('Quorum could not prepare the review: {0}', error instanceof Error ? error.message : String(error)), { id: 'sent.failed' });
      return undefined;
    }
    const only = target.regions.length === 1 ? target.regions[0] : undefined;
    const name = only ? `${only.file.split(/[\\/]/).pop() || 'code'} (${only.startLine}-${only.endLine})` : target.label.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'changes';
    const doc = vscode.Uri.from({ scheme: SENT_SCHEME, path: `/${name}.md`, query: `n=${++this.count}` });
    this.documents.set(doc.toString(), markdown);
    // Only the latest few previews are kept; older ones say they are gone.
    for (const oldest of this.documents.keys()) {
      if (this.documents.size <= 20) break;
      this.documents.delete(oldest);
    }
    const opened = await vscode.workspace.openTextDocument(doc);
    await vscode.languages.setTextDocumentLanguage(opened, 'markdown');
    await vscode.window.showTextDocument(opened, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    return opened;
  }

  private refuse(outcome: Extract<ShapeOutcome, { ok: false }>): void {
    const where = outcome.rule.source === '.quorumignore' ? vscode.l10n.t('.quorumignore') : vscode.l10n.t('the setting quorum.privacy.exclude');
    void this.deps.prompter.message('warning', vscode.l10n.t('Quorum never sends {0}: it matches "{1}" in {2}.', outcome.file, outcome.rule.pattern, where), { id: 'privacy.excluded' });
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }
}
