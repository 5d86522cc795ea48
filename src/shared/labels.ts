import type { PanelStringKey } from './panelStrings';
import type { AgentState, FindingView, ReviewState } from './protocol';
import type { HiddenReason } from './reviewCodes';
import type { Severity } from './severity';

/** The panel string that names each severity, agent state, review state and hidden reason: one map each, for the page and the export. */

export const SEVERITY_LABEL: Record<Severity, PanelStringKey> = {
  critical: 'severityCritical', high: 'severityHigh', medium: 'severityMedium', low: 'severityLow', info: 'severityInfo',
};

export const AGENT_STATE_LABEL: Record<AgentState, PanelStringKey> = {
  queued: 'stateQueued', running: 'stateRunning', done: 'stateDone', failed: 'stateFailed', cancelled: 'stateCancelled',
};

export const REVIEW_STATE_LABEL: Record<ReviewState, PanelStringKey> = {
  running: 'statusRunning', done: 'statusDone', failed: 'statusFailed', cancelled: 'statusCancelled',
};

export const HIDDEN_REASON_LABEL: Record<HiddenReason, PanelStringKey> = {
  confidence: 'hiddenConfidence', severity: 'hiddenSeverity', dismissed: 'hiddenDismissed', refuted: 'hiddenRefuted', 'reported-by-tool': 'hiddenReportedByTool',
};

/** What the verifier said of a finding, in words: `confirmed by gpt-4.1`, `refuted by …: why`, `not verified`; '' when it was not asked. */
export function verdictNote(t: (key: PanelStringKey, ...args: (string | number)[]) => string, f: Pick<FindingView, 'verification' | 'unverified'>): string {
  const v = f.verification;
  if (v) return v.verdict === 'confirmed' ? t('verdictConfirmed', v.by) : t(v.verdict === 'refuted' ? 'verdictRefuted' : 'verdictUncertain', v.by, v.reason);
  return f.unverified ? t('unverified') : '';
}
