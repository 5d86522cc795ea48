import type { LineWords } from './lineLabel';
import type { PanelStringKey, Translate } from './panelStrings';
import type { AgentState, FindingView, ReviewState } from './protocol';
import type { HiddenReason, VerifierNoticeCode } from './reviewCodes';
import type { Severity } from './severity';

/**
 * What every face says of a finding besides its own text, in the panel's words (`Translate`: the page's and the
 * export's in the display language, the command line's in English): the panel string that names each severity,
 * agent state, review state and hidden reason (one map each), the verifier's note, the marks, why it is hidden,
 * and the words of a line label.
 */

export const SEVERITY_LABEL: Record<Severity, PanelStringKey> = {
  critical: 'severityCritical', high: 'severityHigh', medium: 'severityMedium', low: 'severityLow', info: 'severityInfo',
};

export const AGENT_STATE_LABEL: Record<AgentState, PanelStringKey> = {
  queued: 'stateQueued', running: 'stateRunning', done: 'stateDone', failed: 'stateFailed', cancelled: 'stateCancelled',
};

export const REVIEW_STATE_LABEL: Record<ReviewState, PanelStringKey> = {
  running: 'statusRunning', done: 'statusDone', failed: 'statusFailed', cancelled: 'statusCancelled',
};

const HIDDEN_REASON_LABEL: Record<HiddenReason, PanelStringKey> = {
  confidence: 'hiddenConfidence', severity: 'hiddenSeverity', dismissed: 'hiddenDismissed', refuted: 'hiddenRefuted', 'reported-by-tool': 'hiddenReportedByTool', learned: 'hiddenLearned',
};

/** What the verifier said of a finding, in words: `confirmed by gpt-4.1`, `refuted by …: why`, `not verified`; '' when it was not asked. */
export function verdictNote(t: Translate, f: Pick<FindingView, 'verification' | 'unverified'>): string {
  const v = f.verification;
  if (v) return v.verdict === 'confirmed' ? t('verdictConfirmed', v.by) : t(v.verdict === 'refuted' ? 'verdictRefuted' : 'verdictUncertain', v.by, v.reason);
  return f.unverified ? t('unverified') : '';
}

/** The verifier's note on its run: it checked on the model that raised the findings, or had no other model to check on. */
export function verifierNotice(t: Translate, notice: { code: VerifierNoticeCode; model?: string | undefined }): string {
  return t(notice.code === 'same-model' ? 'verifierSameModel' : 'verifierNoOtherModel', notice.model ?? '?');
}

/** The panel's words for `lineLabel`, translated: `Line {0}` / `Lines {0}` heading a finding, `line {0}` / `lines {0}` in a sentence. */
export function lineWords(t: (key: PanelStringKey) => string, inSentence = false): LineWords {
  return inSentence ? { one: t('line'), many: t('lines') } : { one: t('lineSingle'), many: t('lineRange') };
}

/**
 * A finding's marks, in the order every face lists them: its lines were clamped, it is outside the changes, the
 * verifier's note, carried over from the last review.
 */
export function findingMarks(t: Translate, f: Pick<FindingView, 'clamped' | 'outsideChanges' | 'verification' | 'unverified' | 'carried'>): string[] {
  return [f.clamped ? t('clamped') : '', f.outsideChanges ? t('exportOutsideChanges') : '', verdictNote(t, f), f.carried ? t('carried') : ''].filter(Boolean);
}

/** Why a finding is hidden: its reason, naming the tool and its rule, or the learning, when the finding says which. */
export function hiddenWhy(t: Translate, f: Pick<FindingView, 'reportedBy' | 'learning'>, reason: HiddenReason): string {
  if (reason === 'reported-by-tool' && f.reportedBy) return t('hiddenReportedBy', f.reportedBy.tool, f.reportedBy.rule || '—');
  if (reason === 'learned' && f.learning !== undefined) return t('hiddenLearnedBy', f.learning);
  return t(HIDDEN_REASON_LABEL[reason]);
}
