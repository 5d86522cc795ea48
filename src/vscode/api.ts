import type * as vscode from 'vscode';
import type { CostLedger } from '../core/cost/ledger';
import type { GatewayStats } from '../core/gateway/client';
import type { ReviewPanels } from './panel/reviewPanels';
import type { CostController } from './cost/costController';
import type { FindingStore } from './findings/findingStore';
import type { Prompter } from './prompter';
import type { ReviewController } from './review/reviewController';
import type { SettingsService } from './settings';
import type { SentPreview } from './privacy/whatWillBeSent';
import type { ComparePanel } from './compare/comparePanel';
import type { MeasuredModels } from './compare/measuredModels';
import type { GitApi } from './changes/gitApi';
import type { ReviewThreads } from './threads/reviewThreads';
import type { chatHandler } from './chat/chatParticipant';
import type { ReviewTool } from './tools/reviewTool';
import type { OutcomeService } from './outcomes/outcomeService';
import type { OutcomesView } from './outcomes/outcomesView';

/**
 * What `activate()` returns: a small API for integration tests and other extensions that integrate with
 * Quorum. It exposes state for inspection and one seam, `usePrompter`, through which tests answer
 * questions; it never exposes the API key. Every member but `activation` and `logUri` belongs to the review
 * engine, which the first use of one of them loads (`src/vscode/engine.ts`).
 */
export interface QuorumApi extends EngineApi {
  /** How `activate()` ended: whether it had loaded the review engine (it does not), and the status bar's text. */
  activation: { engineLoaded: boolean; statusBarText: string };
  /** Where the "Quorum" log file is written (the folder of `context.logUri`). */
  logUri: vscode.Uri;
}

/** The review engine's part of the API (`createEngine` builds it). */
export interface EngineApi {
  /** The shared gateway client's counters (requests sent, retries, 429s…). */
  gatewayStats(): GatewayStats;
  ledger: CostLedger;
  cost: CostController;
  controller: ReviewController;
  panels: ReviewPanels;
  findings: FindingStore;
  settings: SettingsService;
  /** Replaces the UI that asks questions and shows notifications; `undefined` restores VS Code's. */
  usePrompter(prompter: Prompter | undefined): void;
  /** "Show What Will Be Sent" for any target (a changes review previews its regions through it). */
  sent: SentPreview;
  /** "Compare Models…": its page (the figures shown, the messages it accepts) and the measured figures kept per agent × model. */
  compare: { panel: ComparePanel; measured: MeasuredModels };
  /** Overrides whether the workspace counts as trusted (tests; `undefined` restores VS Code's answer). */
  useWorkspaceTrust(trusted: boolean | undefined): void;
  /** Reviews of changes read this Git API object instead of the Git extension's (tests; `undefined` restores it). */
  useGitApi(api: GitApi | undefined): void;
  /** The review threads (the Comments API) of the window's reviews. */
  threads: ReviewThreads;
  /** The `@quorum` chat participant's handler (tests drive it with a request and a recording stream). */
  chat: ReturnType<typeof chatHandler>;
  /** The agent-mode tool `quorum_review` (tests call its `prepareInvocation` for the confirmation). */
  reviewTool: ReviewTool;
  /** What became of each finding: the stores (core/outcomes) and the Show Review Outcomes view. */
  outcomes: { service: OutcomeService; view: OutcomesView };
}
