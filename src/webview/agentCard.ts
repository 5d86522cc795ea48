import { formatCount, formatMs, formatUsd } from '../shared/format';
import { AGENT_STATE_LABEL } from '../shared/labels';
import { estimateLabel } from '../shared/panelStrings';
import type { AgentErrorView, AgentOutcome, AgentView } from '../shared/protocol';
import { costSourceKey } from '../shared/reviewReducer';
import { button, h, icon, setAttr, setText, type ButtonOptions } from './dom';
import { StreamingMarkdown, renderMarkdown } from './markdown';
import { t } from './strings';

const AGENT_ICONS: Record<string, string> = {
  analyst: 'graph', architecture: 'symbol-structure', security: 'shield', coding: 'code',
};


const STATE_ICONS: Record<AgentView['state'], string> = {
  queued: 'clock', running: 'loading', done: 'pass', failed: 'error', cancelled: 'circle-slash',
};

/** What an error says and which buttons fix it. */
export function describeError(agent: string, err: AgentErrorView): { text: string; actions: ButtonOptions[] } {
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
    default: return { text: t('errUnknown', err.code), actions: [rerun] };
  }
}

/** One agent's card. `update` is called once per frame at most, and only when the agent changed. */
/** What a card says while the gateway client tries again: the attempt (or fallback model) and why. */
function retryText(retry: NonNullable<AgentView['retry']>): string {
  const cause = retry.code === 'network' ? t('retryCauseNetwork') : retry.code === 'server' ? t('retryCauseServer')
    : retry.code === 'timeout' ? t('retryCauseTimeout') : retry.code === 'rate-limited' ? t('retryCauseRateLimited') : t('retryCauseOther');
  return retry.reason === 'fallback' ? t('retryingFallback', retry.model, cause) : t('retryingAttempt', retry.attempt, cause);
}

export class AgentCard {
  readonly root: HTMLElement;
  private readonly stateBadge: HTMLElement;
  private readonly stateIcon: HTMLElement;
  private readonly stateText: HTMLElement;
  private readonly titleEl: HTMLElement;
  private readonly modelEl: HTMLElement;
  private readonly metrics: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly answer: HTMLDetailsElement;
  private readonly answerSummary: HTMLElement;
  private readonly placeholder: HTMLElement;
  private readonly markdown = new StreamingMarkdown('markdown answer-body');
  private readonly extra: HTMLElement;
  private renderedOutcome: AgentOutcome | undefined | null = null;
  private renderedLive: boolean | null = null;
  private lastState: AgentView['state'] | undefined;
  /** Whether the answer follows new text (true until the reader scrolls away from the bottom). */
  private following = true;

  constructor(readonly agent: string) {
    const titleId = `card-title-${agent.replace(/[^\w-]/g, '_')}`;
    this.titleEl = h('h3', { class: 'card-title', id: titleId });
    this.modelEl = h('span', { class: 'model' });
    this.stateIcon = icon('clock');
    this.stateText = h('span');
    this.stateBadge = h('span', { class: 'state-badge' }, this.stateIcon, this.stateText);
    this.metrics = h('dl', { class: 'metrics' });
    this.notice = h('div', { class: 'notice', hidden: true });
    this.placeholder = h('p', { class: 'placeholder' });
    this.answerSummary = h('summary', {});
    this.answer = h('details', { class: 'answer', open: true }, this.answerSummary, this.placeholder, this.markdown.element);
    this.extra = h('div', { class: 'extra' });
    const body = this.markdown.element;
    body.tabIndex = 0;
    body.addEventListener('scroll', () => {
      this.following = body.scrollHeight - body.scrollTop - body.clientHeight < 24;
    }, { passive: true });
    const head = h('div', { class: 'card-head' },
      icon(AGENT_ICONS[agent] ?? 'hubot', 'agent-icon'),
      this.titleEl,
      h('span', { class: 'model-wrap' }, icon('chip'), this.modelEl),
      button({ action: 'switchModel', label: t('switchModel'), icon: 'arrow-swap', iconOnly: true, data: { agent } }),
      this.stateBadge);
    this.root = h('section', { class: 'card state-queued', 'aria-labelledby': titleId, 'data-agent': agent },
      head, this.metrics, this.notice, this.answer, this.extra);
  }

  /** When the card last rendered (performance.now()). */
  updatedAt = -Infinity;

  /** The previous state, for announcements. */
  get state(): AgentView['state'] | undefined {
    return this.lastState;
  }

  /** While streaming, the newest text stays in view unless the reader scrolled up to read. */
  get followsTail(): boolean {
    return this.following && (this.lastState === 'running' || this.lastState === 'queued') && this.markdown.length > 0;
  }

  /** The answer's full height (reading it lays out the page: the caller reads all cards first, then scrolls). */
  answerHeight(): number {
    return this.markdown.element.scrollHeight;
  }

  scrollAnswerTo(top: number): void {
    this.markdown.element.scrollTop = top;
  }

  /** Whether `a` differs from what is shown by more than streamed text (a new state or outcome). */
  hasNews(a: AgentView, live: boolean): boolean {
    return a.state !== this.lastState || a.outcome !== this.renderedOutcome || live !== this.renderedLive || a.retry !== this.renderedRetry;
  }

  private renderedRetry: AgentView['retry'];

  update(a: AgentView, live: boolean): void {
    this.updatedAt = performance.now();
    this.renderedRetry = a.retry;
    this.lastState = a.state;
    const o = a.outcome;
    setText(this.titleEl, a.title);
    setAttr(this.markdown.element, 'aria-label', `${a.title}: ${t('answer')}`);
    setText(this.modelEl, a.model);
    const cached = o?.cached === true;
    setAttr(this.root, 'class', `card state-${a.state}${cached ? ' cached' : ''}`);
    setAttr(this.stateIcon, 'class', `codicon codicon-${cached ? 'database' : STATE_ICONS[a.state]}${a.state === 'running' ? ' codicon-modifier-spin' : ''}`);
    const stateLabel = cached ? `${t(AGENT_STATE_LABEL[a.state])} · ${t('stateCached')}`
      : a.state === 'running' && a.chunks > 0 ? `${t('stateRunning')} · ${t('liveTokens', formatCount(a.chunks))}`
        : t(AGENT_STATE_LABEL[a.state]);
    setText(this.stateText, stateLabel);

    const streaming = a.state === 'running' || a.state === 'queued';
    setAttr(this.answer, 'aria-busy', streaming ? 'true' : 'false');
    if (a.text.length > 0) {
      this.placeholder.hidden = true;
      this.markdown.update(a.text, !streaming);
    } else {
      this.markdown.update('', !streaming);
      this.placeholder.hidden = false;
      setText(this.placeholder, a.state === 'queued' ? t('waitingTurn') : a.state === 'running' ? (a.retry ? retryText(a.retry) : t('waitingFirstTokens')) : o?.error ? '' : t('noAnswer'));
      if (!streaming && o?.error) this.placeholder.hidden = true;
    }
    // A failure before any text: the error notice says it all.
    this.answer.hidden = a.text.length === 0 && !streaming && o?.error !== undefined;

    if (o !== this.renderedOutcome || live !== this.renderedLive) {
      this.renderedOutcome = o;
      this.renderedLive = live;
      this.renderOutcome(a, live);
    } else if (!o && a.estimateUsd !== undefined && this.metrics.childElementCount === 0) {
      this.renderOutcome(a, live);
    }
  }

  private renderOutcome(a: AgentView, live: boolean): void {
    const o = a.outcome;
    // Metrics
    const items: [string, string][] = [];
    if (o) {
      items.push([t('latency'), `${formatMs(o.latencyMs)}${o.attempts > 1 ? ` · ${t('attempts', o.attempts)}` : ''}`]);
      const cachedTokens = o.usage.cachedTokens > 0 ? ` · ${t('tokensCached', formatCount(o.usage.cachedTokens))}` : '';
      items.push([t('tokens'), t('tokensValue', formatCount(o.usage.promptTokens), formatCount(o.usage.completionTokens)) + cachedTokens]);
      items.push([t('cost'), `${formatUsd(o.costUsd)} (${t(costSourceKey(o))})`]);
    } else if (a.estimateUsd !== undefined) {
      items.push([t('cost'), estimateLabel(t, formatUsd, a.estimateUsd, a.likelyUsd)]);
    }
    this.metrics.replaceChildren(...items.map(([k, v]) => h('div', { class: 'metric' }, h('dt', {}, k), h('dd', {}, v))));

    // Error or notice
    const notices: Node[] = [];
    if (o?.error && a.state !== 'done') {
      const { text, actions } = describeError(a.agent, o.error);
      notices.push(h('p', { class: 'notice-text' }, icon(o.error.code === 'cancelled' ? 'circle-slash' : 'error'), ' ', text));
      if (actions.length > 0) notices.push(h('div', { class: 'actions' }, ...actions.map(button)));
      if (o.error.message) {
        notices.push(h('details', { class: 'error-details' }, h('summary', {}, t('details')), h('pre', {}, o.error.message)));
      }
    } else if (o?.unparsed) {
      notices.push(h('p', { class: 'notice-text' }, icon('info'), ' ', t('unparsed')));
    }
    this.notice.replaceChildren(...notices);
    this.notice.hidden = notices.length === 0;
    setAttr(this.notice, 'class', `notice${o?.error && a.state === 'failed' ? ' error' : ''}`);

    // A JSON answer that was read into findings is only the raw material: fold it away.
    const folded = o !== undefined && a.state === 'done' && !o.unparsed && this.markdown.isPlain;
    this.answer.open = !folded;
    setText(this.answerSummary, folded ? `${t('rawAnswer')} · ${o?.findingCount === 1 ? t('findingsCountOne') : t('findingsCount', o?.findingCount ?? 0)}` : t('answer'));

    // Improved code
    const extra: Node[] = [];
    if (o?.improvedCode) {
      if (o.rationale) extra.push(h('div', { class: 'markdown rationale' }, renderMarkdown(o.rationale)));
      extra.push(h('div', { class: 'code-head' },
        h('h4', {}, icon('sparkle'), ' ', t('improvedCode')),
        h('div', { class: 'actions' },
          button({ action: 'copyImproved', label: t('copy'), icon: 'copy', secondary: true }),
          button({ action: 'previewImproved', label: t('previewDiff'), icon: 'diff', secondary: true, disabled: !live }),
          button({ action: 'applyImproved', label: t('apply'), icon: 'check', disabled: !live }))));
      extra.push(h('pre', { class: 'improved-code', tabindex: '0' }, h('code', {}, o.improvedCode)));
    }
    this.extra.replaceChildren(...extra);
  }
}
