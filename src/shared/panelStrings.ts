import { contextCounts } from './codeContext';
import { formatCount } from './format';
import type { ContextView } from './protocol';

/**
 * Every user-facing string of the review panel, in English. The webview cannot call the host's
 * localisation, so the host translates each of these (the English text is the key of
 * `l10n/bundle.l10n.*.json`) and sends the result in every snapshot; the page falls back to these.
 * `{0}`, `{1}` are filled in by the page.
 */
/** An estimate's label: the likely figure and the ceiling, or the ceiling alone (reviews stored before there was a likely figure). */
export function estimateLabel(t: (key: 'costEstimate' | 'costCeiling', ...args: string[]) => string, format: (usd: number) => string, ceilingUsd: number, likelyUsd: number | undefined): string {
  return likelyUsd !== undefined ? t('costEstimate', format(likelyUsd), format(ceilingUsd)) : t('costCeiling', format(ceilingUsd));
}

/** A review's cost after the fact; the part priced from locally counted tokens is said to be an estimate. */
export function actualCostLabel(t: (key: 'costActual' | 'costActualEstimated', ...args: string[]) => string, format: (usd: number) => string, costUsd: number, estimatedUsd: number): string {
  return estimatedUsd > 0 ? t('costActualEstimated', format(costUsd), format(estimatedUsd)) : t('costActual', format(costUsd));
}

type ContextLabelKey = 'contextOff' | 'contextNone' | 'contextSent' | 'contextSentOneFile' | 'contextDefinitions' | 'contextDefinitionOne'
  | 'contextCallers' | 'contextCallerOne' | 'contextEnclosing' | 'contextEnclosingOne' | 'contextStopped' | 'contextStoppedAfter';

/**
 * What context went out, for the header ("context: 6 definitions, 3 callers from 5 files · 1,900 tokens"):
 * "context: off" when the setting was off, "context: none" when only the budget's cut is to be said, '' when
 * context was on and nothing was needed; and how many regions had theirs when the time budget stopped it
 * ("… · 31 of 545 regions, time budget").
 */
export function contextLabel(t: (key: ContextLabelKey, ...args: (string | number)[]) => string, context: ContextView): string {
  if (!context.enabled) return t('contextOff');
  const stopped = context.stopped;
  if (context.items.length === 0) return stopped ? t('contextStopped', formatCount(stopped.chosen), formatCount(stopped.regions)) : context.cut.length > 0 ? t('contextNone') : '';
  const sent = sentLabel(t, context);
  return stopped ? `${sent} · ${t('contextStoppedAfter', formatCount(stopped.chosen), formatCount(stopped.regions))}` : sent;
}

function sentLabel(t: (key: ContextLabelKey, ...args: (string | number)[]) => string, context: ContextView): string {
  const c = contextCounts(context.items, context.tokens);
  const kinds = [
    c.definition > 0 && (c.definition === 1 ? t('contextDefinitionOne') : t('contextDefinitions', c.definition)),
    c.caller > 0 && (c.caller === 1 ? t('contextCallerOne') : t('contextCallers', c.caller)),
    c.enclosing > 0 && (c.enclosing === 1 ? t('contextEnclosingOne') : t('contextEnclosing', c.enclosing)),
  ].filter((k): k is string => typeof k === 'string');
  return t(c.files === 1 ? 'contextSentOneFile' : 'contextSent', kinds.join(', '), c.files, formatCount(c.tokens));
}

export const PANEL_STRINGS = {
  panelTitle: 'Quorum Review',
  line: 'line {0}',
  lines: 'lines {0}',
  statusRunning: 'Reviewing…',
  statusDone: 'Review complete',
  statusFailed: 'Review failed',
  statusCancelled: 'Review stopped',
  elapsed: 'Elapsed {0}',
  costEstimate: '≈ {0} likely · up to {1}',
  costCeiling: 'up to {0}',
  costSoFar: '{0} so far',
  costActual: 'Cost {0}',
  costActualEstimated: 'Cost {0} (incl. {1} estimated)',
  stop: 'Stop',
  rerun: 'Re-run',
  rerunNoCache: 'Re-run without cache',
  export: 'Export',
  restored: 'Restored from an earlier window: re-run the review to preview or apply fixes.',
  emptyTitle: 'No review yet.',
  emptyHint: 'Select code in an editor and run "Quorum: Review Selection" from the context menu or the Command Palette.',
  agents: 'Agents',
  stateQueued: 'Queued',
  stateRunning: 'Running',
  stateDone: 'Done',
  stateFailed: 'Failed',
  stateCancelled: 'Cancelled',
  stateCached: 'Cached',
  liveTokens: '{0} tokens so far',
  latency: 'Latency',
  tokens: 'Tokens',
  cost: 'Cost',
  tokensValue: '{0} in · {1} out',
  tokensCached: '{0} cached',
  /** Reasoning tokens: part of the completion tokens, priced as output. */
  tokensReasoning: '{0} of them reasoning',
  costSourceReported: 'reported by the gateway',
  costSourceUsage: 'priced from reported usage',
  costSourceEstimated: 'estimated',
  costSourceCached: 'cache hit, no charge',
  costSourceNone: 'nothing billed',
  attempts: '{0} attempts',
  requestsCount: '{0} requests',
  waitingFirstTokens: 'Waiting for the first tokens…',
  // The cause is a sentence of its own ({1}), so that each language words it whole instead of fitting a
  // fragment into the retry sentence.
  retryingAttempt: '{1} Trying again (attempt {0})…',
  retryingFallback: '{1} Trying the fallback model {0}…',
  retryCauseNetwork: 'The connection failed.',
  retryCauseServer: 'The gateway had a server error.',
  retryCauseTimeout: 'No answer came in time.',
  retryCauseRateLimited: 'The gateway limited the request rate.',
  retryCauseOther: 'The request failed.',
  waitingTurn: 'Waiting for its turn.',
  noAnswer: 'No answer.',
  findingsCount: '{0} findings',
  findingsCountOne: '1 finding',
  answer: 'Answer',
  rawAnswer: 'Raw answer',
  progressNone: 'Reading the findings…',
  progressOne: '1 finding so far',
  progressMany: '{0} findings so far',
  codeProgressOne: 'Writing the improved code · 1 line so far',
  codeProgress: 'Writing the improved code · {0} lines so far',
  unparsed: 'The answer could not be read as findings, so it is shown as text.',
  switchModel: 'Switch Model',
  setApiKey: 'Set API Key',
  details: 'Details',
  errAuth: 'The gateway rejected the API key (401). Set a valid key and re-run.',
  errForbidden: 'The key may not use this model (403). Switch the agent to another model or use another key.',
  errModelNotFound: 'The gateway does not know the model "{0}". Switch the agent to a model the gateway lists.',
  errSuggestions: 'Closest models: {0}',
  errRateLimited: 'The gateway is rate limiting requests; it asked to wait {0}. Re-run in a moment.',
  errRateLimitedNoWait: 'The gateway is rate limiting requests. Re-run in a moment.',
  errQuota: 'The account has run out of quota or credit. Top it up at your gateway, then re-run.',
  errTooLarge: 'The selection is too large for this model. Review a smaller selection or switch to a model with a larger context.',
  errTimeout: 'The model did not answer in time. Re-run, or switch to a faster model.',
  errNetwork: 'Could not reach the gateway. Check the base URL setting and your connection, then re-run.',
  errServer: 'The gateway had an internal error ({0}). Re-run in a moment.',
  errBadResponse: 'The gateway sent an answer that could not be read. Re-run, or switch the model.',
  errCancelled: 'Stopped before it finished.',
  errInputsFailed: 'Not run: every agent it builds on failed. Fix the errors above, then re-run.',
  errUnknown: 'The agent failed ({0}).',
  findings: 'Findings',
  filterAgent: 'Agent',
  allAgents: 'All agents',
  filterSeverity: 'Severity',
  severityCritical: 'Critical',
  severityHigh: 'High',
  severityMedium: 'Medium',
  severityLow: 'Low',
  severityInfo: 'Info',
  noFindings: 'No findings.',
  noFindingsFiltered: 'No findings match the filter.',
  findingsPending: 'Findings appear here as the agents report them.',
  lineRange: 'Lines {0}',
  lineSingle: 'Line {0}',
  revealHint: 'Reveal in the editor',
  previewFix: 'Preview fix',
  applyFix: 'Apply fix',
  dismiss: 'Dismiss',
  fixApplied: 'Fix applied',
  confidence: 'confidence {0}%',
  clamped: 'line numbers adjusted to the selection',
  dismissedCount: '{0} dismissed',
  dismissInProject: 'Dismiss in this project',
  hiddenShow: '{0} hidden — show',
  hiddenHide: '{0} hidden — hide',
  hiddenConfidence: 'hidden: below quorum.review.minConfidence',
  hiddenSeverity: 'hidden: below quorum.review.minSeverity',
  hiddenDismissed: 'hidden: dismissed in this project',
  hiddenRefuted: 'hidden: refuted by the verifier',
  hiddenReportedByTool: 'hidden: already reported by the project\'s tools',
  hiddenReportedBy: 'hidden: already reported by {0} ({1})',
  hiddenLearned: 'hidden: by a rule learned from a dismissal (.quorum/learnings.md)',
  hiddenLearnedBy: 'hidden: by the learning "{0}" (.quorum/learnings.md)',
  severityLearnedBy: 'severity set by the learning "{0}" (.quorum/learnings.md)',
  verdictConfirmed: 'confirmed by {0}',
  verdictRefuted: 'refuted by {0}: {1}',
  verdictUncertain: 'uncertain ({0}): {1}',
  unverified: 'not verified (the verifier failed)',
  /** The verifier's notes (issue 30). {0}: a model id. */
  verifierSameModel: 'Checked on {0}, the same model that raised these findings: not a second model\'s opinion.',
  verifierNoOtherModel: 'Not checked: the gateway has no model but {0}, which raised these findings. Set quorum.review.verify to same-model to have it check them anyway.',
  carried: 'carried over from the last review',
  resolvedCount: '{0} resolved',
  improvedCode: 'Improved code',
  copy: 'Copy',
  previewDiff: 'Preview diff',
  apply: 'Apply',
  announceStarted: '{0} started',
  announceDone: '{0} finished with {1} findings',
  announceDoneOne: '{0} finished with 1 finding',
  announceFailed: '{0} failed',
  announceCancelled: '{0} was cancelled',
  exportHeading: 'Quorum review of {0}',
  exportAgent: 'Agent',
  exportModel: 'Model',
  exportStatus: 'Status',
  exportTotal: 'Total',
  exportGenerated: 'Exported {0}',
  exportSuggestion: 'Suggested replacement',
  exportRationale: 'Why',
  exportAdvice: 'Advice',
  exportOutsideChanges: 'outside the changes',
  exportHiddenHeading: 'Hidden findings',
  exportHiddenLeftOut: '{0} hidden ({1}), not listed here',
  exportHiddenListed: '{0} hidden ({1}), listed under Hidden findings',
  exportHiddenConfidence: '{0} below quorum.review.minConfidence',
  exportHiddenSeverity: '{0} below quorum.review.minSeverity',
  exportHiddenDismissed: '{0} dismissed in this project',
  exportHiddenRefuted: '{0} refuted by the verifier',
  exportHiddenReportedByTool: '{0} already reported by the project\'s tools',
  toolsSent: 'tools: {0} results from {1}',
  toolsSentOne: 'tools: 1 result from {1}',
  toolsRedundant: '{0} findings already reported, hidden',
  toolsRedundantOne: '1 finding already reported, hidden',
  exportHiddenLearned: '{0} by learned rules',
  exportSkipped: 'Skipped {0}: {1}',
  exportAnswerAsText: '{0} (answer kept as text)',
  rulesUsed: 'Repository rules: {0}',
  rulesDropped: 'Left out (over quorum.rules.maxTokens): {0}',
  redactedSecrets: 'Secrets replaced by placeholders before sending (kind, lines): {0}',
  changesSummary: '{0}: {1} files, +{2} −{3}, {4} skipped',
  changesSummaryOneFile: '{0}: 1 file, +{2} −{3}, {4} skipped',
  skippedFiles: 'Skipped: {0}',
  skipDeleted: 'deleted',
  skipBinary: 'binary',
  skipLockfile: 'lockfile',
  skipMinified: 'minified',
  skipGenerated: 'generated',
  skipTooLarge: 'too large',
  skipExcluded: 'never sent (privacy)',
  skipSymlink: 'symbolic link',
  skipUnreadable: 'unreadable',
  contextOff: 'context: off',
  contextOffHint: 'The setting quorum.context.enabled is off: no definitions or callers were sent with the reviewed code.',
  contextNone: 'context: none',
  contextStopped: 'context: {0} of {1} regions, time budget',
  contextStoppedAfter: '{0} of {1} regions, time budget',
  contextSent: 'context: {0} from {1} files · {2} tokens',
  contextSentOneFile: 'context: {0} from 1 file · {2} tokens',
  contextDefinitions: '{0} definitions',
  contextDefinitionOne: '1 definition',
  contextCallers: '{0} callers',
  contextCallerOne: '1 caller',
  contextEnclosing: '{0} enclosing signatures',
  contextEnclosingOne: '1 enclosing signature',
  contextKindDefinition: 'definition',
  contextKindCaller: 'caller',
  contextKindEnclosing: 'enclosing signature',
  contextListLabel: 'Code sent read-only with the reviewed code',
  contextCut: 'Left out (over quorum.context.maxTokens): {0}',
  linkNotHttp: 'Not a link (only http and https links open): {0}',
  linkCredentials: 'Not a link (it carries a user name or password): {0}',
  linkPrivateHost: 'Not a link (a loopback or private network address): {0}',
  linkMalformed: 'Not a link (not a valid address): {0}',
} as const;

export type PanelStringKey = keyof typeof PANEL_STRINGS;
export type PanelStrings = Record<PanelStringKey, string>;

/** How many `{n}` placeholders a string has (the host passes them through localisation unchanged). */
export function placeholderCount(template: string): number {
  let n = 0;
  for (const m of template.matchAll(/\{(\d+)\}/g)) n = Math.max(n, Number(m[1]) + 1);
  return n;
}

/** A string of the panel by its key, with `{0}`, `{1}`… filled in. */
export type Translate = (key: PanelStringKey, ...args: (string | number)[]) => string;

/** The `Translate` of a set of strings (the panel's, in the display language; the command line's). */
export function translator(strings: PanelStrings): Translate {
  return (key, ...args) => formatString(strings[key], args);
}

/** Fills `{0}`, `{1}`… with `args`. */
export function formatString(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => {
    const v = args[Number(i)];
    return v === undefined ? whole : String(v);
  });
}
