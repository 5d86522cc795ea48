import type { PanelStringKey } from './panelStrings';
import type { AgentState, HiddenFindingView, ReviewState, SeverityView } from './protocol';

/** The panel string that names each severity, agent state, review state and hidden reason: one map each, for the page and the export. */

export const SEVERITY_LABEL: Record<SeverityView, PanelStringKey> = {
  critical: 'severityCritical', high: 'severityHigh', medium: 'severityMedium', low: 'severityLow', info: 'severityInfo',
};

export const AGENT_STATE_LABEL: Record<AgentState, PanelStringKey> = {
  queued: 'stateQueued', running: 'stateRunning', done: 'stateDone', failed: 'stateFailed', cancelled: 'stateCancelled',
};

export const REVIEW_STATE_LABEL: Record<ReviewState, PanelStringKey> = {
  running: 'statusRunning', done: 'statusDone', failed: 'statusFailed', cancelled: 'statusCancelled',
};

export const HIDDEN_REASON_LABEL: Record<HiddenFindingView['reason'], PanelStringKey> = {
  confidence: 'hiddenConfidence', severity: 'hiddenSeverity', dismissed: 'hiddenDismissed',
};
