import { editorContext } from '../context/editorContext';
import { toolResultsOf } from '../toolResults/editorToolResults';
import * as vscode from 'vscode';
import type { ExclusionRule } from '../../core/prompt/exclude';
import type { ReviewPipeline } from '../../core/pipeline/pipeline';
import { runReview } from '../../core/review/runReview';
import type { ReviewTarget } from '../../core/domain/target';
import { renderWhatWillBeSent, WHAT_WILL_BE_SENT_EN, type WhatWillBeSent, type WhatWillBeSentStrings } from '../../shared/whatWillBeSent';
import type { Prompter } from '../prompter';
import { resolveOutputLanguage } from '../../core/agents/language';
import { targetFromEditor, type PreparedTarget } from '../review/reviewTarget';
import type { SettingsService } from '../settings';
import type { PromptShaper } from './promptShaper';
import { localStrings } from '../panel/panelStrings';

const SENT_SCHEME = 'quorum-sent';

function sentStrings(): WhatWillBeSentStrings {
  return localStrings(WHAT_WILL_BE_SENT_EN);
}

const withContext = (codeContext: ReturnType<typeof editorContext>) => (codeContext ? { codeContext } : {});

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
    return this.showFor(prepared);
  }

  /**
   * For any prepared target: a document's lines, or a repository's changes (each request it would send, batch by
   * batch). The review use case plans it as a dry run (nothing is sent, not even for prices). Returns the opened
   * document, or undefined when the file is never sent (the user is told which rule says so) or nothing is left to send.
   */
  async showFor(prepared: Pick<PreparedTarget, 'uri' | 'uris' | 'target' | 'root' | 'plan'>): Promise<vscode.TextDocument | undefined> {
    const { context, relativeFile } = await this.deps.shaper.context(prepared.uri, prepared.root);
    const language = resolveOutputLanguage(this.deps.settings.current.review.language, vscode.env.language);
    let data: WhatWillBeSent | undefined;
    try {
      const outcome = await runReview(this.deps.pipeline, {
        work: { target: prepared.target, ...(prepared.plan ? { changes: prepared.plan } : {}), ...(relativeFile !== undefined ? { relativeFile } : {}) },
        context,
        ...withContext(editorContext(this.deps.settings.current, prepared.root, prepared.uri)),
        ...toolResultsOf(prepared),
        options: { language },
        dryRun: true,
        confirm: {
          planned: (plan) => {
            data = plan.whatWillBeSent();
            return 'cancel';
          },
        },
      });
      if (outcome.status === 'excluded') this.refuse(outcome);
    } catch (error) {
      void this.deps.prompter.message('error', vscode.l10n.t('Quorum could not prepare the review: {0}', error instanceof Error ? error.message : String(error)), { id: 'sent.failed' });
      return undefined;
    }
    return data ? this.show(data, prepared.target) : undefined;
  }

  /** Opens what a planned review of `target` will send, as a read-only Markdown document beside the editor. */
  async show(data: WhatWillBeSent, target: ReviewTarget): Promise<vscode.TextDocument> {
    const markdown = renderWhatWillBeSent(data, sentStrings());
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

  private refuse(outcome: { file: string; rule: ExclusionRule }): void {
    const where = outcome.rule.source === '.quorumignore' ? vscode.l10n.t('.quorumignore') : vscode.l10n.t('the setting quorum.privacy.exclude');
    void this.deps.prompter.message('warning', vscode.l10n.t('Quorum never sends {0}: it matches "{1}" in {2}.', outcome.file, outcome.rule.pattern, where), { id: 'privacy.excluded' });
  }

  dispose(): void {
    this.registration.dispose();
    this.documents.clear();
  }
}
