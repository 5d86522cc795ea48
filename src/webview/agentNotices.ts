import { formatCount, formatMs, formatUsd } from '../shared/format';
import { verifierNotice } from '../shared/labels';
import { estimateLabel, type PanelStringKey } from '../shared/panelStrings';
import type { AgentErrorView, AgentView } from '../shared/protocol';
import type { GatewayErrorCode } from '../shared/reviewCodes';
import { costSourceKey } from '../shared/reviewReducer';
import { button, h, icon, type ButtonOptions } from './dom';
import { t } from './strings';

/**
 * What an agent's card says besides the answer: its figures (latency, tokens, cost or the estimate), what went
 * wrong and the buttons that fix it, that it is retrying and why, and the verifier's note.
 */

/** What an error says and which buttons fix it. */
function describeError(agent: string, err: AgentErrorView): { text: string; actions: ButtonOptions[] } {
  const rerun: ButtonOptions = { action: 'rerun', label: t('rerun'), icon: 'refresh', secondary: true, data: { nocache: 'false' } };
  const switchModel: ButtonOptions = { action: 'switchModel', label: t('switchModel'), icon: 'arrow-swap', data: { agent } };
  const setKey: ButtonOptions = { action: 'setApiKey', label: t('setApiKey'), icon: 'key' };
  switch (err.code) {
    case 'auth': return { text: t('errAuth'), actions: [setKey] };
    case 'forbidden': return { text: t('errForbidden'), actions: [switchModel, { ...setKey, secondary: true }] };
    case 'model-not-found': {
      const text = t('errModelNotFound', err.model ?? '');
      const hint = err.suggestions?.length ? ` ${t('errSuggestions', err.suggestions.slice(0, 5).join(', '))}` : '';
      return { text: text + hint, actions: [switchModel] };
    }
    case 'rate-limited':
      return {
        text: err.retryAfterMs !== undefined ? t('errRateLimited', formatMs(err.retryAfterMs)) : t('errRateLimitedNoWait'),
        actions: [rerun],
      };
    case 'quota': return { text: t('errQuota'), actions: [{ ...switchModel, secondary: true }] };
    case 'too-large': return { text: t('errTooLarge'), actions: [switchModel] };
    case 'timeout': return { text: t('errTimeout'), actions: [rerun, { ...switchModel, secondary: true }] };
    case 'network': return { text: t('errNetwork'), actions: [rerun] };
    case 'server': return { text: t('errServer', err.status ?? 500), actions: [rerun] };
    case 'bad-response': return { text: t('errBadResponse'), actions: [rerun, { ...switchModel, secondary: true }] };
    case 'cancelled': return { text: t('errCancelled'), actions: [rerun] };
    // Not asked at all: the agents whose reviews it builds on failed; their cards say how to fix that.
    case 'inputs-failed': return { text: t('errInputsFailed'), actions: [] };
    // Quorum's own failures, with no fix the page can offer but a re-run.
    case 'empty-answer':
    case 'internal': return { text: t('errUnknown', err.code), actions: [rerun] };
  }
}

/** Why the gateway client tries again, by the failed attempt's code. */
const RETRY_CAUSE: Record<GatewayErrorCode, PanelStringKey> = {
  network: 'retryCauseNetwork', server: 'retryCauseServer', timeout: 'retryCauseTimeout', 'rate-limited': 'retryCauseRateLimited',
  auth: 'retryCauseOther', forbidden: 'retryCauseOther', 'model-not-found': 'retryCauseOther', quota: 'retryCauseOther',
  'too-large': 'retryCauseOther', 'bad-response': 'retryCauseOther', cancelled: 'retryCauseOther',
};

/** What a card says while the gateway client tries again: the attempt (or fallback model) and why. */
export function retryText(retry: NonNullable<AgentView['retry']>): string {
  const cause = t(RETRY_CAUSE[retry.code]);
  return retry.reason === 'fallback' ? t('retryingFallback', retry.model, cause) : t('retryingAttempt', retry.attempt, cause);
}

/** The card's figures: latency (with requests and attempts), tokens, cost; before the run, the estimate. */
export function metricItems(a: AgentView): [string, string][] {
  const o = a.outcome;
  if (!o) return a.estimateUsd !== undefined ? [[t('cost'), estimateLabel(t, formatUsd, a.estimateUsd, a.likelyUsd)]] : [];
  // A review of changes sends an agent one request per batch: attempts are worth showing beyond those.
  const requests = o.requests ?? 1;
  const sent = requests > 1 ? ` · ${t('requestsCount', requests)}` : '';
  const cachedTokens = o.usage.cachedTokens > 0 ? ` · ${t('tokensCached', formatCount(o.usage.cachedTokens))}` : '';
  // Reasoning tokens are part of the completion tokens (priced as output), shown so a reasoning model's cost reads right.
  const reasoningTokens = o.usage.reasoningTokens > 0 ? ` · ${t('tokensReasoning', formatCount(o.usage.reasoningTokens))}` : '';
  return [
    [t('latency'), `${formatMs(o.latencyMs)}${sent}${o.attempts > requests ? ` · ${t('attempts', o.attempts)}` : ''}`],
    [t('tokens'), t('tokensValue', formatCount(o.usage.promptTokens), formatCount(o.usage.completionTokens)) + cachedTokens + reasoningTokens],
    [t('cost'), `${formatUsd(o.costUsd)} (${t(costSourceKey(o))})`],
  ];
}

/** The card's notices: the error with its fixes and details, or an answer kept as text; the verifier's note. */
export function noticeNodes(a: AgentView): Node[] {
  const o = a.outcome;
  const notices: Node[] = [];
  if (o?.error && a.state !== 'done') {
    const { text, actions } = describeError(a.agent, o.error);
    notices.push(h('p', { class: 'notice-text' }, icon(o.error.code === 'cancelled' ? 'circle-slash' : 'error'), ' ', text));
    if (actions.length > 0) notices.push(h('div', { class: 'actions' }, ...actions.map(button)));
    if (o.error.message) notices.push(h('details', { class: 'error-details' }, h('summary', {}, t('details')), h('pre', {}, o.error.message)));
  } else if (o?.unparsed) {
    notices.push(h('p', { class: 'notice-text' }, icon('info'), ' ', t('unparsed')));
  }
  // The verifier's note: it checked on the model that raised the findings, or had no other model to check on.
  if (o?.notice) notices.push(h('p', { class: 'notice-text' }, icon('info'), ' ', verifierNotice(t, o.notice)));
  return notices;
}
