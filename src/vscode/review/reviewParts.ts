import type { ReviewPipeline } from '../../core/pipeline/pipeline';
import type { ChangesPreparation } from '../changes/changesPreparation';
import type { CostController } from '../cost/costController';
import type { FindingStore } from '../findings/findingStore';
import type { ProjectDismissals } from '../findings/projectDismissals';
import type { ApiKeyCommands } from '../gateway/apiKeyCommands';
import type { QuorumLog } from '../log';
import type { OutcomeService } from '../outcomes/outcomeService';
import type { ReviewPanelsLike } from '../panel/panelContract';
import type { PromptShaper } from '../privacy/promptShaper';
import type { Prompter } from '../prompter';
import type { SettingsService } from '../settings';
import type { BudgetGuard } from './budgetGuard';
import type { ReviewNotices } from './reviewNotices';

/**
 * What the review controller works with, in four groups: what a review runs on, what it reads from the editor,
 * what it asks and tells the user, and where it shows. The engine (engine.ts) builds each.
 */

/** Core's side of a review: the pipeline the use case runs on, and what a review remembers and records. */
export interface ReviewCore {
  pipeline: ReviewPipeline;
  /** Where reviews of changes remember their regions (the extension's global storage): a Re-run sends only what changed. */
  memoryDir?: string;
  /** What became of each finding (core/outcomes): each review records into it. */
  outcomes?: Pick<OutcomeService, 'forReview'>;
}

/** What a review reads from the editor besides its target. */
export interface ReviewInputs {
  settings: SettingsService;
  /** The prompt-shaping step's context: the repository's rules, files never sent, secrets redacted. */
  shaper: Pick<PromptShaper, 'context'>;
  /** The project's dismissed findings (`.quorum/dismissed.json`): the noise controls hide them. */
  dismissals: Pick<ProjectDismissals, 'entries' | 'folderOf'>;
  /** Reads a changes review's changes again, as they are now (a panel's Re-run). */
  changes: Pick<ChangesPreparation, 'again'>;
}

/** What a review asks the user before anything is sent, and tells after: the key, the budgets, the notices. */
export interface ReviewDialogs {
  keys: Pick<ApiKeyCommands, 'readyToSend' | 'setKey'>;
  budget: Pick<BudgetGuard, 'allows'>;
  notices: ReviewNotices;
}

/** Where a review shows: its panel, its progress notification, the Problems panel (the finding store), the status bar, the log. */
export interface ReviewViews {
  panels: Pick<ReviewPanelsLike, 'show' | 'onDidClose'>;
  prompter: Pick<Prompter, 'progress'>;
  store: FindingStore;
  cost: Pick<CostController, 'reviewStarted' | 'reviewEnded'>;
  log: QuorumLog;
}
