import type { CommandCallback, QuorumCommandId } from './commands';
import { Commands, InternalCommands } from './commands';
import type { ChangesCommands } from './changes/changesCommands';
import type { CompareModels } from './compare/compareModels';
import { openContextLocation } from './context/contextLocation';
import type { CostController } from './cost/costController';
import type { FindingActions } from './findings/findingActions';
import type { ApiKeyCommands } from './gateway/apiKeyCommands';
import type { ModelSwitcher } from './models/switchModel';
import type { OutcomesView } from './outcomes/outcomesView';
import type { ReviewPanels } from './panel/reviewPanels';
import type { SentPreview } from './privacy/whatWillBeSent';
import type { Prompter } from './prompter';
import type { ReviewController } from './review/reviewController';
import type { ReviewThreads } from './threads/reviewThreads';

interface CommandTargets {
  controller: ReviewController;
  findings: FindingActions;
  panels: ReviewPanels;
  threads: ReviewThreads;
  switcher: ModelSwitcher;
  keyCommands: ApiKeyCommands;
  cost: CostController;
  sent: SentPreview;
  compare: CompareModels;
  changes: ChangesCommands;
  outcomesView: OutcomesView;
  prompter: Prompter;
}

/**
 * What runs for every command Quorum contributes (`Commands`) and the internal ones that its quick fixes, review
 * panels, threads, chat buttons and notifications run: one handler each, whichever surface runs it.
 */
export function commandHandlers({ controller, findings, panels, threads, switcher, keyCommands, cost, sent, compare, changes, outcomesView, prompter }: CommandTargets): Record<QuorumCommandId, CommandCallback> {
  return {
    [Commands.reviewSelection]: () => controller.reviewEditor(),
    [Commands.cancelReview]: (sessionId?: unknown) => controller.cancel(typeof sessionId === 'string' ? sessionId : undefined),
    [Commands.switchModel]: (agent?: unknown, suggestions?: unknown) =>
      switcher.run(typeof agent === 'string' ? agent : undefined, Array.isArray(suggestions) ? suggestions.filter((s): s is string => typeof s === 'string') : []),
    [Commands.setApiKey]: () => keyCommands.setKey(),
    [Commands.clearApiKey]: () => keyCommands.clearKey(),
    [Commands.testConnection]: () => keyCommands.testConnection(),
    [Commands.showCost]: () => cost.showDetails(),
    [Commands.resetCost]: () => cost.reset(),
    [Commands.showWhatWillBeSent]: () => sent.showForEditor(),
    [Commands.compareModels]: () => compare.run(),
    [Commands.showOutcomes]: () => outcomesView.show(),
    [Commands.reviewChanges]: (scm?: unknown) => changes.reviewChanges(scm),
    [Commands.reviewChangedFiles]: (...states: unknown[]) => changes.reviewFiles('working-tree', states),
    [Commands.reviewStagedFiles]: (...states: unknown[]) => changes.reviewFiles('index', states),
    [Commands.showWhatWillBeSentForChanges]: (scm?: unknown) => changes.showWhatWillBeSent(scm),
    [InternalCommands.revealFinding]: (session: string, id: string) => findings.reveal(session, id),
    [InternalCommands.previewFix]: (session: string, id: string) => findings.previewFix(session, id),
    [InternalCommands.applyFix]: (session: string, id: string) => findings.applyFix(session, id),
    [InternalCommands.dismissFinding]: (session: string, id: string) => findings.dismiss(session, id),
    [InternalCommands.dismissInProject]: (session: string, id: string) => findings.dismissInProject(session, id),
    [InternalCommands.dismissWithReason]: (session: string, id: string) => findings.dismissWithReason(session, id),
    [InternalCommands.previewImprovedCode]: (session: string) => findings.previewImprovedCode(session),
    [InternalCommands.applyImprovedCode]: (session: string) => findings.applyImprovedCode(session),
    [InternalCommands.rerunReview]: (targetKey: string, options?: { noCache?: boolean }) => controller.rerunTarget(targetKey, { noCache: options?.noCache === true }),
    [InternalCommands.reviewAgain]: (session: string) => controller.reviewAgain(session),
    [InternalCommands.openContext]: (root: string | undefined, file: string, startLine: number, endLine: number) => openContextLocation(prompter, root, file, startLine, endLine),
    [InternalCommands.showReview]: (session: string) => {
      const found = controller.session(session);
      if (found) panels.show(found);
    },
    [Commands.applyThreadFix]: (thread: unknown) => threads.apply(thread),
    [Commands.dismissThread]: (thread: unknown) => threads.dismiss(thread),
    [Commands.dismissThreadInProject]: (thread: unknown) => threads.dismissInProject(thread),
    [Commands.replyInThread]: (reply: { thread: unknown; text: string }) => threads.reply(reply),
  };
}

