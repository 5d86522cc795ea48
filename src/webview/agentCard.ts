import { formatCount } from '../shared/format';
import { AGENT_STATE_LABEL, SEVERITY_LABEL } from '../shared/labels';
import { AnswerProgress } from '../shared/answerProgress';
import type { AgentOutcome, AgentView, ReviewView } from '../shared/protocol';
import { hiddenFindings, sortFindings, streamsText } from '../shared/reviewReducer';
import { builtinAgent } from '../shared/builtinAgents';
import { metricItems, noticeNodes, retryText } from './agentNotices';
import { button, h, icon, setAttr, setText } from './dom';
import { findingSummary, severityIcon } from './findingsList';
import { StreamingMarkdown, renderMarkdown } from './markdown';
import { t } from './strings';

const STATE_ICONS: Record<AgentView['state'], string> = {
  queued: 'clock', running: 'loading', done: 'pass', failed: 'error', cancelled: 'circle-slash',
};
/** The still icon of an agent (and a review) whose answer is arriving (see `streamsText`). */
export const STREAMING_ICON = 'pulse';

/** How a card presents its agent's answer. */
type Presentation = 'empty' | 'markdown' | 'progress' | 'findings' | 'code';

/**
 * One agent's card. A reviewer's JSON answer is never shown as half a JSON document: while it streams the
 * card lists the findings seen so far (titles and severities, read incrementally by `AnswerProgress`); once
 * the agent is done it shows that agent's findings as the findings list does. A code agent shows its improved
 * code. Either way the answer itself is behind a "Raw answer" disclosure, filled only when opened. Answers
 * that are not JSON (prose, or an answer Quorum could not read) are shown as Markdown, rendered incrementally.
 */
export class AgentCard {
  readonly root: HTMLElement;
  private readonly stateBadge: HTMLElement;
  private readonly stateIcon: HTMLElement;
  private readonly stateText: HTMLElement;
  private readonly titleEl: HTMLElement;
  private readonly modelEl: HTMLElement;
  private readonly metrics: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly answer: HTMLElement;
  private readonly placeholder: HTMLElement;
  private readonly markdown = new StreamingMarkdown('markdown answer-body');
  private readonly progress: HTMLElement;
  private readonly progressText: HTMLElement;
  private readonly progressList: HTMLUListElement;
  private readonly scan = new AnswerProgress();
  private progressShown = '';
  private readonly findingsEl: HTMLElement;
  private findingsShown = '';
  private readonly raw: HTMLDetailsElement;
  private readonly rawPre: HTMLPreElement;
  private rawShown = '';
  private rawText = '';
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
    this.answer = h('div', { class: 'answer' }, this.placeholder, this.markdown.element);
    this.progressText = h('p', { class: 'progress-text' });
    this.progressList = h('ul', { class: 'progress-list' });
    this.progress = h('div', { class: 'progress', hidden: true, role: 'status' }, this.progressText, this.progressList);
    this.findingsEl = h('div', { class: 'card-findings', hidden: true });
    this.rawPre = h('pre', { class: 'plain-answer raw-text', tabindex: '0' });
    this.raw = h('details', { class: 'raw-answer', hidden: true }, h('summary', {}, t('rawAnswer')), this.rawPre);
    // The raw answer is put in the page only when someone opens it (then kept current while it streams).
    this.raw.addEventListener('toggle', () => this.showRaw());
    this.extra = h('div', { class: 'extra' });
    const body = this.markdown.element;
    body.tabIndex = 0;
    // No geometry is read here (that would force a layout per scroll event, ours included): the next frame's
    // read phase looks at where the reader is (see `measure`).
    body.addEventListener('scroll', () => { this.scrolled = true; }, { passive: true });
    const head = h('div', { class: 'card-head' },
      icon(builtinAgent(agent)?.icon ?? 'hubot', 'agent-icon'),
      this.titleEl,
      h('span', { class: 'model-wrap' }, icon('chip'), this.modelEl),
      button({ action: 'switchModel', label: t('switchModel'), icon: 'arrow-swap', iconOnly: true, data: { agent } }),
      this.stateBadge);
    this.root = h('section', { class: 'card state-queued', 'aria-labelledby': titleId, 'data-agent': agent },
      head, this.metrics, this.notice, this.answer, this.progress, this.findingsEl, this.extra, this.raw);
  }

  /** The previous state, for announcements. */
  get state(): AgentView['state'] | undefined {
    return this.lastState;
  }

  /** A Markdown answer is streaming: its newest text stays in view unless the reader scrolled up to read. */
  get streamsMarkdown(): boolean {
    return (this.lastState === 'running' || this.lastState === 'queued') && this.markdown.length > 0 && !this.markdown.element.hidden;
  }

  get followsTail(): boolean {
    return this.following && this.streamsMarkdown;
  }

  /**
   * Where the reader is, read at the start of a frame (the layout is clean then) and only after a scroll:
   * whether they scrolled away from the end we last showed.
   */
  readScroll(): void {
    if (!this.scrolled) return;
    this.scrolled = false;
    const body = this.markdown.element;
    // Measured against the end we last scrolled to: new text below does not count as the reader moving.
    this.following = this.scrolledTo - body.scrollTop < 24;
  }

  /**
   * Called after the frame's writes, for a card whose answer streams: shows the answer's end unless the
   * reader scrolled up. The first card's reads lay the page out (once; the frame had to anyway); the scroll
   * itself dirties no layout. An answer that fills its box gets a fixed size (`.filled`: the height it has
   * reached, with size containment), so new text lays out that box alone, not the card, the grid and page.
   */
  followTail(): void {
    const body = this.markdown.element;
    if (!this.filled && body.scrollHeight > body.clientHeight) {
      this.filled = true;
      body.classList.add('filled');
    }
    if (!this.followsTail) return;
    body.scrollTop = body.scrollHeight;
    this.scrolledTo = body.scrollTop;
  }

  /** The answer's box has its full height while it streams (see `followTail`). */
  private filled = false;

  private scrolled = false;
  private scrolledTo = 0;

  /** Whether `a` differs from what is shown by more than streamed text (a new state or outcome). */
  hasNews(a: AgentView, live: boolean): boolean {
    return a.state !== this.lastState || a.outcome !== this.renderedOutcome || live !== this.renderedLive || a.retry !== this.renderedRetry;
  }

  private renderedRetry: AgentView['retry'];

  update(a: AgentView, view: ReviewView): void {
    const live = view.live;
    this.renderedRetry = a.retry;
    this.lastState = a.state;
    const o = a.outcome;
    setText(this.titleEl, a.title);
    setAttr(this.markdown.element, 'aria-label', `${a.title}: ${t('answer')}`);
    setAttr(this.rawPre, 'aria-label', `${a.title}: ${t('rawAnswer')}`);
    setText(this.modelEl, a.model);
    const cached = o?.cached === true;
    setAttr(this.root, 'class', `card state-${a.state}${cached ? ' cached' : ''}`);
    // The icon spins while the agent waits for its first tokens; then the streaming answer shows progress.
    const arriving = streamsText(a);
    setAttr(this.stateIcon, 'class', `codicon codicon-${cached ? 'database' : arriving ? STREAMING_ICON : STATE_ICONS[a.state]}${a.state === 'running' && !arriving ? ' codicon-modifier-spin' : ''}`);
    const stateLabel = cached ? `${t(AGENT_STATE_LABEL[a.state])} · ${t('stateCached')}`
      : a.state === 'running' && a.chunks > 0 ? `${t('stateRunning')} · ${t('liveTokens', formatCount(a.chunks))}`
        : t(AGENT_STATE_LABEL[a.state]);
    setText(this.stateText, stateLabel);

    const streaming = a.state === 'running' || a.state === 'queued';
    const code = a.output === 'code' || o?.improvedCode !== undefined;
    this.scan.update(a.text);
    const p: Presentation = a.text.length === 0 ? 'empty'
      : a.state === 'done' && o && !o.unparsed ? (code ? 'code' : 'findings')
        : a.state === 'done' || !this.scan.json ? 'markdown' : 'progress';
    setAttr(this.answer, 'aria-busy', streaming ? 'true' : 'false');

    // Markdown: prose answers (streamed, or one Quorum could not read). Nothing else feeds the renderer.
    this.markdown.update(p === 'markdown' ? a.text : '', !streaming);
    this.markdown.element.hidden = p !== 'markdown';
    // Only while it streams: a finished (or restarted) answer is laid out as its text needs.
    if (this.filled && (!streaming || p !== 'markdown')) {
      this.filled = false;
      this.markdown.element.classList.remove('filled');
    }
    this.placeholder.hidden = p !== 'empty';
    if (p === 'empty') {
      setText(this.placeholder, a.state === 'queued' ? t('waitingTurn') : a.state === 'running' ? (a.retry ? retryText(a.retry) : t('waitingFirstTokens')) : o?.error ? '' : t('noAnswer'));
    }
    // A failure before any text: the error notice says it all.
    this.answer.hidden = (p !== 'empty' && p !== 'markdown') || (p === 'empty' && !streaming && o?.error !== undefined);

    this.progress.hidden = p !== 'progress';
    if (p === 'progress') this.renderProgress(code);
    this.findingsEl.hidden = p !== 'findings';
    if (p === 'findings') this.renderFindings(a, view);

    this.raw.hidden = p === 'empty' || p === 'markdown';
    this.rawText = a.text;
    if (this.raw.open) this.showRaw();

    if (o !== this.renderedOutcome || live !== this.renderedLive) {
      this.renderedOutcome = o;
      this.renderedLive = live;
      this.renderOutcome(a, live);
    } else if (!o && a.estimateUsd !== undefined && this.metrics.childElementCount === 0) {
      this.renderOutcome(a, live);
    }
  }

  /** Findings (or lines of code) so far: a count and the titles seen, re-rendered only when they change. */
  private renderProgress(code: boolean): void {
    const s = this.scan;
    const last = s.findings[s.findings.length - 1];
    const key = code ? `c${s.codeLines}` : `f${s.count}:${last?.severity ?? ''}`;
    if (key === this.progressShown) return;
    this.progressShown = key;
    if (code) {
      setText(this.progressText, s.codeLines === 1 ? t('codeProgressOne') : t('codeProgress', formatCount(s.codeLines)));
      this.progressList.replaceChildren();
      return;
    }
    setText(this.progressText, s.count === 0 ? t('progressNone') : s.count === 1 ? t('progressOne') : t('progressMany', formatCount(s.count)));
    this.progressList.replaceChildren(...s.findings.map((f) => h('li', { class: `progress-item${f.severity ? ` sev-${f.severity}` : ''}` },
      f.severity ? h('span', { class: `sev-label sev-${f.severity}` }, severityIcon(f.severity), ` ${t(SEVERITY_LABEL[f.severity])}`) : null,
      h('span', { class: 'finding-title' }, f.title))));
  }

  /** This agent's findings, rendered as the findings list renders them (without the list's actions). */
  private renderFindings(a: AgentView, view: ReviewView): void {
    const hidden = hiddenFindings(view);
    const mine = sortFindings(view.findings.filter((f) => f.agents.includes(a.agent) && !view.dismissed.includes(f.id) && !hidden.has(f.id)));
    const key = mine.map((f) => `${f.id}\u0000${f.severity}\u0000${f.title}\u0000${f.agents.join(',')}`).join('\u0001');
    if (key === this.findingsShown && this.findingsEl.childElementCount > 0) return;
    this.findingsShown = key;
    const count = mine.length === 1 ? t('findingsCountOne') : t('findingsCount', mine.length);
    const nodes: Node[] = [h('h4', { class: 'card-findings-head' }, icon('checklist'), ' ', mine.length > 0 ? count : t('noFindings'))];
    if (mine.length > 0) {
      nodes.push(h('ul', { class: 'card-findings-list' }, ...mine.map((f) => h('li', { class: `card-finding sev-${f.severity}`, 'data-finding': f.id }, ...findingSummary(f, view)))));
    }
    this.findingsEl.replaceChildren(...nodes);
  }

  private showRaw(): void {
    if (!this.raw.open) return;
    if (this.rawText.startsWith(this.rawShown) && this.rawShown.length > 0) {
      if (this.rawText.length > this.rawShown.length) this.rawPre.appendChild(document.createTextNode(this.rawText.slice(this.rawShown.length)));
    } else {
      this.rawPre.textContent = this.rawText;
    }
    this.rawShown = this.rawText;
  }

  private renderOutcome(a: AgentView, live: boolean): void {
    const o = a.outcome;
    this.metrics.replaceChildren(...metricItems(a).map(([k, v]) => h('div', { class: 'metric' }, h('dt', {}, k), h('dd', {}, v))));
    const notices = noticeNodes(a);
    this.notice.replaceChildren(...notices);
    this.notice.hidden = notices.length === 0;
    setAttr(this.notice, 'class', `notice${o?.error && a.state === 'failed' ? ' error' : ''}`);

    // Improved code
    const extra: Node[] = [];
    // The rationale shows without code too: advice the agent wrote where code belongs is kept there, not applied.
    if (o?.rationale && a.state !== 'running') extra.push(h('div', { class: 'markdown rationale' }, renderMarkdown(o.rationale)));
    if (o?.improvedCode) {
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
