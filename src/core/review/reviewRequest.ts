import type { ChangesPlan } from '../changes/plan';
import type { ContextCandidate } from '../context/candidates';
import type { ExclusionRule } from '../prompt/exclude';
import type { PromptContext, ShapedReview } from '../prompt/shape';
import type { WhatWillBeSent } from '../../shared/whatWillBeSent';
import type { BatchesEstimate } from '../pipeline/batches';
import type { DismissedEntry } from '../memory/dismissed';
import type { NoiseSplit, ReviewSummary } from '../domain/result';
import type { RegionMemory } from '../memory/regionMemory';
import type { ToolResult } from '../domain/toolResult';
import type { OutcomeRecorder } from '../outcomes/observe';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from '../pipeline/options';
import type { ReviewTarget } from '../domain/target';
import type { Severity } from '../../shared/severity';

/**
 * What a face gives `runReview` and gets back: the one review use case's input, the small interface through
 * which the face confirms a planned review, and the one result. Faces adapt their input to these and the
 * result to their output; the flow between is core's (runReview.ts).
 */

/**
 * What is reviewed: a target of regions. A selection or a file is one region, sent as one request per agent; a
 * review of changes has its regions cut into batches (`changes`, from core/changes/plan), one request per
 * agent and batch.
 */
export interface ReviewWork {
  target: ReviewTarget;
  /** A review of changes: the target's batches, files and line counts. */
  changes?: ChangesPlan;
  /**
   * A selection's or file's path from the repository root (rules' `applyTo` and the exclusions match it);
   * undefined outside a repository. The regions of a review of changes are repository-relative already.
   */
  relativeFile?: string;
}

/** The noise controls the review's merged findings pass (noise.ts): hidden, counted, never failing a run. */
export interface NoiseSettings {
  minConfidence: number;
  minSeverity: Severity;
  /** The project's dismissed findings, read when the noise step runs (after the agents). */
  dismissed?: () => Promise<readonly DismissedEntry[]>;
}

/**
 * Where the context of a review (definitions, callers, enclosing signatures) comes from: the editor's language
 * server when it answers, else a repository's tree-sitter index.
 */
export interface CodeContextSource {
  /** The repository (or folder) root; the regions are relative to it (a selection: `ReviewWork.relativeFile`). */
  root: string;
  /** Where the index is kept between reviews; undefined keeps it in memory. */
  cacheDir: string | undefined;
  /** Tokens of context per request at most (`quorum.context.maxTokens`); 0 sends none. */
  maxTokens: number;
  /** Files larger than this are not indexed (`quorum.changes.maxFileKb`). */
  maxFileBytes: number;
  /** Milliseconds the index may take to choose the context (`quorum.context.timeBudgetMs`); the batches after get none and the review says so. */
  timeBudgetMs?: number;
  /**
   * The editor's language server: the candidate snippets of a batch (paths relative to `root`), or undefined when
   * it did not answer within its time budget. A batch that gets none from it gets the tree-sitter index's; either
   * way the candidates go through the same ranking, cut, exclusions and redaction.
   */
  languageServer?: (batch: ReviewTarget) => Promise<readonly ContextCandidate[] | undefined>;
  /** Told why no context is sent when choosing it failed (the review goes on without). */
  onError?: (message: string) => void;
}

export interface ReviewRequest {
  work: ReviewWork;
  /** What the workspace or repository contributes to the prompts (rules, agents, exclusions, redaction): `loadPromptContext`. */
  context: PromptContext;
  /** The code around the change, sent read-only; absent: no context (`quorum.context.enabled` off, `--context off`). */
  codeContext?: CodeContextSource;
  /**
   * What the project's tools already report (SARIF files, the editor's diagnostics), files repository-relative (or
   * as the regions name them): those on the reviewed regions are sent read-only and the findings repeating them hidden.
   */
  toolResults?: readonly ToolResult[];
  /** How the review runs; its prompt shape is the shaping step's. */
  options: Omit<ReviewOptions, 'prompt'>;
  noise?: NoiseSettings;
  /** Plan without asking the gateway anything (no listed prices): "what will be sent" only; the face's confirm declines. */
  dryRun?: boolean;
  confirm: ReviewConfirm;
  /** Every event of the run, in order; the one `review-done`, last, carries the summary and noise split the steps after the run made. */
  onEvent?: (event: ReviewEvent) => void;
  /**
   * A review of changes on this machine: the regions reviewed before with the same content are not sent, their
   * findings carried over; the memory learns this review's regions (regionMemory.ts).
   */
  memory?: RegionMemory;
  /** What became of each finding shown (core/outcomes): decided after the review and kept in the outcome store. */
  outcomes?: OutcomeRecorder;
}

/** Whether the review goes on. */
export type ReviewDecision = 'proceed' | 'cancel';

/** What shaping made of the work: the target and batches as they will be sent. */
export interface ShapedWork {
  shaped: ShapedReview;
  /** A review of changes, its batches with the shaped regions that remain (excluded files are skipped). */
  changes?: ChangesPlan;
  /** The batches as sent (a selection or file: its one target). */
  batches: ReviewTarget[];
  /** Why the repository's rules were not read, when they were not. */
  rulesOff?: PromptContext['rulesOff'];
  /** A re-review of changes: how many regions of the target are not sent, their findings carried over from memory. */
  reused?: number;
}

/** A review planned and priced, nothing sent yet: what the face confirms. */
export interface PlannedReview extends ShapedWork {
  estimate: BatchesEstimate;
  /** The repository rules in the agents' prompts, and those left out over `quorum.rules.maxTokens`. */
  rules: { used: string[]; dropped: string[] };
  /** Every message the review would send, with models and estimates (the dry run, the editor's preview). */
  whatWillBeSent(): WhatWillBeSent;
}

/**
 * The face's part of the flow, between planning and sending: the key, the budgets, the file-count prompt, what
 * will be sent, the dry run. Each returns 'cancel' to stop the review (nothing is sent).
 */
export interface ReviewConfirm {
  /** After shaping, before anything is planned or asked of the gateway (a face asks for a missing key here). */
  shaped?(work: ShapedWork): Promise<ReviewDecision> | ReviewDecision;
  /** Planned and priced (listed prices learnt): the last word before the requests go out. */
  planned(plan: PlannedReview): Promise<ReviewDecision> | ReviewDecision;
}

/** A finished review: its summary (findings merged), what the noise controls hid, and the plan it ran. */
export interface ReviewResult {
  summary: ReviewSummary;
  noise: NoiseSplit;
  plan: PlannedReview;
}

export type ReviewOutcome =
  /** The file is never sent (`quorum.privacy.exclude`, `.quorumignore`); nothing was planned. */
  | { status: 'excluded'; file: string; rule: ExclusionRule }
  /** Shaping left nothing to send (every changed file skipped); `summary` is the empty review of the target. */
  | { status: 'nothing'; work: ShapedWork; summary: ReviewSummary; noise: NoiseSplit }
  /** The face's confirm said 'cancel' (a dry run always ends here, with its plan). */
  | { status: 'declined'; work: ShapedWork; plan?: PlannedReview }
  | ({ status: 'reviewed' } & ReviewResult);
