import * as vscode from 'vscode';
import type { ExclusionRule } from '../../core/prompt/exclude';
import { ReviewConfigError } from '../../core/pipeline/errors';
import type { ReviewSummary } from '../../core/domain/result';
import { Commands } from '../commands';
import { presentError } from '../gateway/gatewayErrors';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import { messageWithSettings } from '../windowPrompter';
import type { SettingsService } from '../settings';
import { asksBeforeWholeFile, worstFailure } from './reviewDecisions';
import { MAX_REVIEW_CHARS, type TargetProblem } from './reviewTarget';

/**
 * Every notification a review may show: why it cannot start, the whole-file confirmation, the one notification
 * for the most actionable failure of a finished review, with the action that fixes it.
 */
export class ReviewNotices {
  constructor(
    private readonly settings: SettingsService,
    private readonly prompter: Prompter,
    private readonly log: QuorumLog,
  ) {}

  /** Each says why nothing is reviewed, and returns nothing for the review. */
  noEditor(): undefined {
    void this.prompter.message('info', vscode.l10n.t('Open a file and select the code to review, then run Quorum: Review Selection again.'), { id: 'review.noEditor' });
    return undefined;
  }

  targetProblem(problem: TargetProblem): undefined {
    const text =
      problem.kind === 'empty'
        ? vscode.l10n.t('There is nothing to review here: the selection (or file) is empty.')
        : problem.kind === 'binary'
          ? vscode.l10n.t('This looks like binary content, which Quorum cannot review. Open a text file.')
          : vscode.l10n.t('This is too large to review ({0} KB; the limit is {1} KB). Select the part to review.', Math.round(problem.chars / 1024), Math.round(MAX_REVIEW_CHARS / 1024));
    void this.prompter.message('warning', text, { id: `review.${problem.kind}` });
    return undefined;
  }

  /** A review of changes with nothing left to send (every changed file skipped or never sent). */
  nothingToReview(skipped: number): undefined {
    const text = skipped > 0
      ? vscode.l10n.t('Nothing to review: every changed file is skipped ({0}).', skipped)
      : vscode.l10n.t('Nothing to review: there are no changes.');
    void this.prompter.message('info', text, { id: 'changes.nothing' });
    return undefined;
  }

  /** Asks before reviewing a whole file of more lines than `quorum.review.confirmWholeFileOverLines`. */
  async confirmWholeFile(lines: number): Promise<boolean> {
    const limit = this.settings.current.review.confirmWholeFileOverLines;
    if (!asksBeforeWholeFile(lines, limit)) return true;
    const go = vscode.l10n.t('Review Whole File');
    const choice = await this.prompter.message(
      'warning',
      vscode.l10n.t('Nothing is selected. Review the whole file ({0} lines)?', lines),
      { id: 'review.wholeFile', modal: true, detail: vscode.l10n.t('Select lines to review only them. The limit is quorum.review.confirmWholeFileOverLines ({0}).', limit) },
      go,
    );
    return choice === go;
  }

  /** Reviewing a file that is never sent: say which rule keeps it back. */
  excluded(outcome: { file: string; rule: ExclusionRule }): undefined {
    const where = outcome.rule.source === '.quorumignore' ? vscode.l10n.t('.quorumignore') : vscode.l10n.t('the setting quorum.privacy.exclude');
    this.log.info(`Review of ${outcome.file} refused: it matches "${outcome.rule.pattern}" in ${outcome.rule.source}`);
    void this.prompter.message('warning', vscode.l10n.t('Quorum never sends {0}: it matches "{1}" in {2}.', outcome.file, outcome.rule.pattern, where), { id: 'privacy.excluded' });
    return undefined;
  }

  rulesDropped(dropped: readonly string[]): void {
    void this.prompter.message('info', vscode.l10n.t('Some repository rules did not fit in quorum.rules.maxTokens ({0} tokens) and were left out: {1}', this.settings.current.rules.maxTokens, dropped.join(', ')), { id: 'privacy.rulesDropped' });
  }

  /** The reviewed document, or its lines, no longer exist: nothing to review again. */
  gone(kind: 'gone' | 'linesGone'): undefined {
    const text = kind === 'gone' ? vscode.l10n.t('The reviewed document is no longer available.') : vscode.l10n.t('The reviewed lines no longer exist; select the code and review it again.');
    void this.prompter.message('warning', text, { id: `review.${kind}` });
    return undefined;
  }

  async tooLargeForEveryModel(): Promise<void> {
    const switchModel = vscode.l10n.t('Switch Model');
    const choice = await this.prompter.message(
      'warning',
      vscode.l10n.t('This code is too large for the context window of every agent\'s model. Select less code or switch to models with a larger context.'),
      { id: 'review.tooLarge' },
      switchModel,
    );
    if (choice === switchModel) await vscode.commands.executeCommand(Commands.switchModel);
  }

  /**
   * One notification for the most actionable failure of the review, if any agent failed. `afterNewKey` runs
   * when the failure was a refused key and a new one was set from the notification.
   */
  async failures(summary: ReviewSummary, setKey: () => Promise<boolean>, afterNewKey: () => void): Promise<void> {
    const worst = worstFailure(summary);
    if (!worst) return;
    const { agent, error, failed } = worst;
    const presented = presentError(error, { baseUrl: this.settings.current.gateway.baseUrl, agent: agent.agent });
    if (!presented) return;
    const who = failed === 1 ? vscode.l10n.t('The {0} agent failed.', agent.title) : vscode.l10n.t('{0} of {1} agents failed.', failed, summary.agents.length);
    const choice = await this.prompter.message('error', `${who} ${presented.text}`, { id: `review.failed.${error.code}` }, ...presented.actions.map((a) => a.title));
    if (error.code === 'auth' && choice === vscode.l10n.t('Set API Key')) {
      // Set the key, then run the review again with it.
      if (await setKey()) afterNewKey();
      return;
    }
    await presented.actions.find((a) => a.title === choice)?.run();
  }

  /** Why a review could not start (its configuration, or a failure of Quorum itself). */
  async cannotStart(error: unknown): Promise<void> {
    if (!(error instanceof ReviewConfigError)) {
      this.log.error(error instanceof Error ? error : String(error));
      const showLog = vscode.l10n.t('Show Log');
      void this.prompter
        .message('error', vscode.l10n.t('Quorum could not run the review: {0}', error instanceof Error ? error.message : String(error)), { id: 'review.internal' }, showLog)
        .then((choice) => choice === showLog && this.log.show(true));
      return;
    }
    this.log.warn(`Review not started: ${error.code}: ${error.message}`);
    const text =
      error.code === 'no-agents'
        ? vscode.l10n.t('Every agent is disabled. Enable one in the settings (quorum.agents.*.enabled).')
        : error.code === 'empty-target'
          ? vscode.l10n.t('There is nothing to review here: the selection (or file) is empty.')
          : vscode.l10n.t('The agent settings are invalid: {0}', error.message);
    await messageWithSettings(this.prompter, 'error', text, `review.config.${error.code}`, error.code === 'no-agents' ? 'quorum.agents' : 'quorum.customAgents');
  }
}
