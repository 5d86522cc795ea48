import type { PromptShape } from '../prompt/shape';
import type { QuorumSettings } from '../settings/schema';

/** How one review is run. */
export interface ReviewOptions {
  /** Given by the caller to correlate events; a random id otherwise. */
  reviewId?: string;
  /** Run only these agents (dependencies on agents not listed are dropped). All enabled agents when absent. */
  agents?: string[];
  /** Bypass the cache (results are still stored for later reviews). */
  noCache?: boolean;
  /** Cancels every agent of the review. */
  signal?: AbortSignal;
  /** Resolved output language: `en`, `ko`, …. Callers resolve `auto` (VS Code's display language, or LANG). */
  language: string;
  /** agent id → model id, for this review only. */
  modelOverrides?: Record<string, string>;
  /** In a review of changes: keep findings that touch no changed line, marked `outsideChanges` (dropped otherwise). */
  keepOutsideChanges?: boolean;
  /**
   * The repository's rules and agents and whether secrets were redacted, from `shapeReview` (core/prompt).
   * Without it, `run` redacts the target's secrets itself (when the setting is on) and uses no rules.
   */
  prompt?: PromptShape;
}

/**
 * The one rule for `keepOutsideChanges`: a face asked for every finding (`--all-findings`), or
 * quorum.changes.onlyChangedLines is off.
 */
export function keepsOutsideChanges(settings: { changes: Pick<QuorumSettings['changes'], 'onlyChangedLines'> }, asked = false): boolean {
  return asked || !settings.changes.onlyChangedLines;
}
