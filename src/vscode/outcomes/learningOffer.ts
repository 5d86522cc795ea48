import * as vscode from 'vscode';
import { LEARNINGS_FILE, proposeLearning, withLearning } from '../../core/prompt/learnings';
import { ruleOf } from '../../core/memory/fingerprint';
import type { Finding } from '../../core/domain/finding';
import type { ProjectDismissals } from '../findings/projectDismissals';
import type { QuorumLog } from '../log';
import { relativePath } from '../privacy/promptShaper';
import type { Prompter } from '../prompter';
import type { ReviewSession } from '../review/reviewSession';
import type { OutcomeService } from './outcomeService';

/**
 * "Dismiss with a reason…": the reason is kept with the finding's outcome, the finding is dismissed in the project,
 * and a rule for `.quorum/learnings.md` is proposed from the reason (its `applyTo` guessed from where it was
 * dismissed). Nothing is written until the user has seen the rule and accepted or edited it.
 */
export class LearningOffer {
  constructor(
    private readonly deps: { prompter: Prompter; log: QuorumLog; outcomes: OutcomeService; dismissals: ProjectDismissals },
  ) {}

  /** True when the finding was dismissed (whether or not a learning was added). */
  async dismissWithReason(session: ReviewSession, finding: Finding, dismissInProject: () => Promise<boolean>): Promise<boolean> {
    const { prompter } = this.deps;
    const reason = (
      await prompter.input({
        id: 'dismiss.reason',
        prompt: vscode.l10n.t('Why is "{0}" not a problem here? The reason is kept with the finding and can become a rule for later reviews.', finding.title),
        placeHolder: vscode.l10n.t('For example: we validate input at the API boundary'),
        ignoreFocusOut: true,
      })
    )?.trim();
    if (!reason) return false;
    this.deps.outcomes.dismissed(session, finding, reason);
    if (!(await dismissInProject())) return false;
    await this.offer(session, finding, reason);
    return true;
  }

  private async offer(session: ReviewSession, finding: Finding, reason: string): Promise<void> {
    const { prompter, log } = this.deps;
    const uri = session.uriOf(finding.file);
    const folder = this.deps.dismissals.folderOf(uri);
    if (!folder) return;
    const file = relativePath(folder.uri, uri) ?? finding.file;
    const proposal = proposeLearning({ file, title: finding.title, rule: ruleOf(finding), reason });
    const review = vscode.l10n.t('Show Rule…');
    const choice = await prompter.message('info', vscode.l10n.t('Add a rule to {0} so that later reviews know this?', LEARNINGS_FILE), { id: 'learning.offer', detail: proposal.body }, review);
    if (choice !== review) return;
    const body = (await prompter.input({ id: 'learning.rule', value: proposal.body, prompt: vscode.l10n.t('The rule as the reviewers will read it. Edit it, then press Enter to add it.'), ignoreFocusOut: true }))?.trim();
    if (!body) return;
    const scope = (await prompter.input({ id: 'learning.applyTo', value: proposal.applyTo.join(', '), prompt: vscode.l10n.t('The files it applies to (globs from the repository root, separated by commas; empty: every file).'), ignoreFocusOut: true }))?.trim();
    if (scope === undefined) return;
    const learning = { ...proposal, body, applyTo: scope.split(',').map((s) => s.trim()).filter((s) => s !== '') };
    const target = vscode.Uri.joinPath(folder.uri, LEARNINGS_FILE);
    const existing = await vscode.workspace.fs.readFile(target).then((b) => new TextDecoder().decode(b), () => undefined);
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(withLearning(existing, learning)));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      log.warn(`Could not write ${LEARNINGS_FILE}: ${why}`);
      void prompter.message('error', vscode.l10n.t('Quorum could not write {0}: {1}', LEARNINGS_FILE, why), { id: 'learning.failed' });
      return;
    }
    log.info(`Added the learning "${learning.title}" to ${folder.name}/${LEARNINGS_FILE}`);
    const open = vscode.l10n.t('Open {0}', LEARNINGS_FILE);
    if ((await prompter.message('info', vscode.l10n.t('Added a rule to {0}: later reviews of {1} get it with the repository\'s rules.', LEARNINGS_FILE, learning.applyTo.join(', ') || '**'), { id: 'learning.added' }, open)) === open) {
      await vscode.window.showTextDocument(target);
    }
  }
}
