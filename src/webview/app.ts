import {
  describeIssues, hostToWebviewSchema, type AgentView, type HostToWebview, type ReviewView, type WebviewToHost,
} from '../shared/protocol';
import { SEVERITIES } from '../shared/severity';
import { applyViewEvent, noChanges, streamsText, type FindingFilter, type ViewChanges } from '../shared/reviewReducer';
import * as z from 'zod/mini';
import { AGENT_STATE_LABEL } from '../shared/labels';
import { AgentCard } from './agentCard';
import { actionMessage } from './actionMessage';
import { PAGE_ACTIONS, h, icon, setText } from './dom';
import { FindingsList } from './findingsList';
import { isOpenableHref, renderMarkdown } from './markdown';
import { ReviewHeader } from './header';
import { StreamClock } from './streamClock';
import { setStrings, t } from './strings';
import { field, isOneOf } from '../shared/guards';

export interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** UI state only (VS Code keeps it across reloads; the serializer reads `targetKey`). */
/** What a screen reader is told when an agent's state changes. */
function announcement(a: AgentView): string {
  if (a.state === 'running') return t('announceStarted', a.title);
  if (a.state === 'done') return a.outcome?.findingCount === 1 ? t('announceDoneOne', a.title) : t('announceDone', a.title, a.outcome?.findingCount ?? 0);
  if (a.state === 'failed') return t('announceFailed', a.title);
  if (a.state === 'cancelled') return t('announceCancelled', a.title);
  return `${a.title}: ${t(AGENT_STATE_LABEL[a.state])}`;
}

const uiStateSchema = z.object({
  targetKey: z.optional(z.string().check(z.maxLength(2_000))),
  filter: z.optional(z.object({ agent: z.string().check(z.maxLength(200)), severities: z.array(z.enum(SEVERITIES)), showHidden: z.optional(z.boolean()) })),
});
type UiState = z.infer<typeof uiStateSchema>;

/**
 * The page: validates what the host sends, applies events with the shared reducer, and renders at most
 * once per animation frame only the parts that changed.
 */
export class App {
  private review: ReviewView | null = null;
  private seq = -1;
  private awaitingSnapshot = true;
  private pending: ViewChanges = noChanges();
  private frame = 0;
  private cards = new Map<string, AgentCard>();
  /** The clock that streamed text goes out on. */
  private readonly clock = new StreamClock(() => this.schedule());
  /** Whether some agent's answer was arriving at the last render. */
  private arriving = false;
  private header: ReviewHeader | undefined;
  private findings: FindingsList | undefined;
  private cardsEl: HTMLElement | undefined;
  private readonly announcer: HTMLElement;
  private readonly body: HTMLElement;
  private ui: UiState;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly root: HTMLElement, private readonly vscode: VsCodeApi) {
    const saved = uiStateSchema.safeParse(vscode.getState() ?? {});
    this.ui = saved.success ? saved.data : {};
    this.announcer = h('div', { class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.body = h('div', { class: 'body' });
    root.replaceChildren(this.body, this.announcer);
    // Links first, in the capture phase on the window: VS Code's own webview script listens for clicks on
    // links on the window too and opens http(s) links itself, whether or not the default was prevented.
    window.addEventListener('click', (e) => this.onLinkEvent(e), true);
    window.addEventListener('auxclick', (e) => this.onLinkEvent(e), true);
    root.addEventListener('click', (e) => this.onClick(e));
    window.addEventListener('message', (e: MessageEvent<unknown>) => this.onMessage(e.data));
  }

  start(): void {
    this.vscode.postMessage({ type: 'ready' });
    // The markdown renderer's first use compiles its rules and link patterns: do it while the page waits for
    // the first tokens, not in the middle of streaming.
    requestIdleCallback(() => renderMarkdown('*warm* `up` https://example.com\n\n- a\n'), { timeout: 1_000 });
  }

  private onMessage(data: unknown): void {
    const parsed = hostToWebviewSchema.safeParse(data);
    if (!parsed.success) {
      const said = field(data, 'type');
      const type = typeof said === 'string' || typeof said === 'number' ? String(said).slice(0, 40) : typeof (said ?? data);
      console.warn(`quorum: dropped an invalid message (${type})`);
      this.vscode.postMessage({ type: 'log', level: 'warn', message: `dropped an invalid ${type} message: ${describeIssues(parsed.error)}` });
      return;
    }
    this.handle(parsed.data);
  }

  private handle(m: HostToWebview): void {
    if (m.type === 'snapshot') {
      setStrings(m.strings);
      this.seq = m.seq;
      this.awaitingSnapshot = false;
      this.review = m.review;
      if (m.review) this.saveUi({ targetKey: m.review.targetKey });
      this.rebuild();
      return;
    }
    if (this.awaitingSnapshot) return;
    if (m.seq !== this.seq + 1 || !this.review) {
      this.awaitingSnapshot = true;
      this.vscode.postMessage({ type: 'resync', lastSeq: this.seq });
      return;
    }
    this.seq = m.seq;
    for (const e of m.events) applyViewEvent(this.review, e, this.pending);
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const changes = this.pending;
      this.pending = noChanges();
      this.render(changes);
    });
  }

  private saveUi(patch: Partial<UiState>): void {
    this.ui = { ...this.ui, ...patch };
    this.vscode.setState(this.ui);
  }

  private get filter(): FindingFilter {
    return this.ui.filter ?? { agent: '', severities: [] };
  }

  /** Builds the whole page from the current view (snapshots only). */
  private rebuild(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.pending = noChanges();
    this.cards.clear();
    this.clock.reset();
    this.root.setAttribute('aria-busy', 'false');
    document.title = t('panelTitle');
    const review = this.review;
    if (!review) {
      this.header = undefined;
      this.findings = undefined;
      this.body.replaceChildren(h('div', { class: 'empty-state' },
        icon('comment-discussion', 'empty-icon'),
        h('h2', {}, t('emptyTitle')),
        h('p', {}, t('emptyHint'))));
      this.tick();
      return;
    }
    this.header = new ReviewHeader();
    this.findings = new FindingsList(this.filter, (f) => {
      this.saveUi({ filter: { agent: f.agent, severities: f.severities.filter((s): s is (typeof SEVERITIES)[number] => isOneOf(SEVERITIES, s)), ...(f.showHidden ? { showHidden: true } : {}) } });
      if (this.review) this.findings?.render(this.review);
    });
    this.cardsEl = h('div', { class: 'cards' });
    this.body.replaceChildren(this.header.root,
      h('h2', { class: 'sr-only' }, t('agents')), this.cardsEl, this.findings.root);
    const all = noChanges();
    all.header = true;
    all.findings = true;
    all.layout = true;
    for (const a of review.agents) all.agents.add(a.agent);
    this.render(all, false);
  }

  private render(changes: ViewChanges, announce = true): void {
    const review = this.review;
    if (!review || !this.header || !this.findings || !this.cardsEl) return;
    if (changes.layout) this.layOutCards(review, changes, this.cardsEl);
    // Finished cards show their agent's findings: the merged list at the end, or a dismissal, changes them.
    if (changes.findings) for (const a of review.agents) if (a.state === 'done') changes.agents.add(a.agent);
    const announcements: string[] = [];
    this.clock.startFrame(performance.now(), changes.agents);
    // Where readers scrolled to is read first, while the layout is still clean from the last frame.
    for (const c of this.cards.values()) c.readScroll();
    const streamed: AgentCard[] = [];
    for (const id of changes.agents) {
      const a = review.agents.find((x) => x.agent === id);
      const card = this.cards.get(id);
      if (!a || !card) continue;
      // State changes go out at once; streamed text waits for the clock (once per card per tick, within the
      // frame's budget: the rest go next frame).
      if (!card.hasNews(a, review.live)) {
        const when = this.clock.admit(id);
        if (when === 'frame') this.pending.agents.add(id);
        if (when !== 'now') continue;
      }
      this.clock.drawn(id);
      const before = card.state;
      card.update(a, review);
      if (card.streamsMarkdown) streamed.push(card);
      if (announce && before !== a.state) announcements.push(announcement(a));
    }
    this.clock.endFrame();
    // The header's icon stops spinning once answers arrive (see `streamsText`).
    const arriving = review.agents.some(streamsText);
    if (changes.header || arriving !== this.arriving) this.header.update(review, Date.now());
    this.arriving = arriving;
    if (changes.findings || changes.layout) this.findings.render(review);
    if (announcements.length > 0) setText(this.announcer, announcements.join('. '));
    // Last, after every write: cards that got new text show its end (unless their reader scrolled up). The
    // first scroll lays the page out once, as this frame must anyway; the scrolls themselves dirty no layout.
    for (const c of streamed) c.followTail();
    if (this.clock.deferred) this.schedule();
    this.tick();
  }

  /** A card for each agent that has none yet (to be drawn this frame), and the cards in the review's order. */
  private layOutCards(review: ReviewView, changes: ViewChanges, cardsEl: HTMLElement): void {
    for (const a of review.agents) {
      if (!this.cards.has(a.agent)) {
        const card = new AgentCard(a.agent);
        this.cards.set(a.agent, card);
        changes.agents.add(a.agent);
      }
    }
    cardsEl.replaceChildren(...review.agents.flatMap((a) => this.cards.get(a.agent)?.root ?? []));
  }

  /** The elapsed clock ticks once a second while the review runs. */
  private tick(): void {
    const running = this.review?.status === 'running';
    if (running && !this.timer) {
      this.timer = setInterval(() => {
        if (this.review && this.header) this.header.updateElapsed(this.review, Date.now());
      }, 1000);
    } else if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * A click (left, middle, or Enter on a focused link) on a link never reaches VS Code or the browser: the
   * page asks the host, which checks the link (http/https, no credentials, not a private address) and opens
   * it with VS Code's confirmation for untrusted domains.
   */
  private onLinkEvent(e: MouseEvent): void {
    const link = e.composedPath().find((n): n is HTMLAnchorElement => n instanceof HTMLAnchorElement);
    if (!link) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.type === 'auxclick' && e.button !== 1) return;
    const href = link.getAttribute('href');
    if (href && isOpenableHref(href)) this.vscode.postMessage({ type: 'openLink', href });
  }

  private onClick(e: MouseEvent): void {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    const el = target.closest<HTMLElement>('[data-action]');
    if (!el || (el instanceof HTMLButtonElement && el.disabled)) return;
    const action = el.getAttribute('data-action');
    if (action === 'toggleContext') return this.header?.context.toggleList();
    if (!isOneOf(PAGE_ACTIONS, action)) return;
    const message = actionMessage(action, el, this.review, this.filter);
    if (message) this.post(message);
  }

  private post(m: WebviewToHost): void {
    this.vscode.postMessage(m);
  }
}
