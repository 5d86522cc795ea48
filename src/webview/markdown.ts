import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { linkRefusal, type LinkRefusal } from '../shared/linkPolicy';
import type { PanelStringKey } from '../shared/panelStrings';
import { t } from './strings';

/**
 * Model answers are untrusted. They are rendered by markdown-it with raw HTML off and images off, links
 * limited to http(s), and the result is sanitised again by DOMPurify into a fragment (never assigned as
 * HTML). Links keep their href for display only: clicks are caught and sent to the host, which checks them.
 */

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
md.disable(['image']);
md.linkify.set({ fuzzyEmail: false });
md.validateLink = (url: string) => /^https?:\/\//i.test(url.trim());

/** Why a link from model output is not a link here, or undefined for an absolute http(s) link without credentials to a public host (the host checks again before opening). */
function refusalOf(href: string): LinkRefusal | 'malformed' | undefined {
  if (!/^https?:\/\//i.test(href)) return 'not-http';
  try {
    return linkRefusal(new URL(href));
  } catch {
    return 'malformed';
  }
}

export function isOpenableHref(href: string): boolean {
  return refusalOf(href) === undefined;
}

/** The panel string that says why a link is refused; `{0}` is where it pointed. */
const REFUSED_TITLE: Record<LinkRefusal | 'malformed', PanelStringKey> = {
  'not-http': 'linkNotHttp',
  credentials: 'linkCredentials',
  'private-host': 'linkPrivateHost',
  malformed: 'linkMalformed',
};

const ALLOWED_TAGS = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'em', 'strong',
  's', 'del', 'a', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    // Not openable (credentials, private or loopback hosts): shown as text, not as a link; the title says why.
    const refused = refusalOf(href);
    if (refused) {
      node.removeAttribute('href');
      node.setAttribute('title', t(REFUSED_TITLE[refused], href));
    } else node.setAttribute('title', href);
    node.setAttribute('rel', 'noreferrer noopener');
  }
  if (node.tagName === 'CODE') {
    const cls = node.getAttribute('class') ?? '';
    if (!/^language-[\w+-]{1,40}$/.test(cls)) node.removeAttribute('class');
  }
});

const PURIFY_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href', 'title', 'class', 'start'],
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true as const,
};

/** Markdown to a safe fragment. */
export function renderMarkdown(source: string): DocumentFragment {
  return DOMPurify.sanitize(md.render(source), PURIFY_CONFIG);
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
/** Above this many characters the unfinished block is re-rendered less often (by size). */
const TAIL_THROTTLE_CHARS = 4_000;
/** Finished blocks are grouped into boxes of about this many characters (see `scan`). */
const BLOCK_CHARS = 6_000;

/**
 * Renders a streamed answer without redoing the whole answer per token: blocks that are complete (ended by
 * a blank line before an unindented line, outside code fences) are rendered once and appended; only the
 * trailing, unfinished block is re-rendered. Answers that are JSON are shown as plain text, appended.
 */
export class StreamingMarkdown {
  readonly element: HTMLElement;
  private readonly committed: HTMLElement;
  private readonly tail: HTMLElement;
  private text = '';
  private mode: 'undecided' | 'markdown' | 'plain' = 'undecided';
  private plain: HTMLPreElement | undefined;
  /** text[0, committedEnd) is rendered into `committed`. */
  private committedEnd = 0;
  /** Start of the first line not yet scanned for block boundaries. */
  private scanPos = 0;
  private fence: string | null = null;
  /** Position after a blank line (or a closed fence), a boundary once an unindented line follows. */
  private pendingBoundary = -1;
  private tailRenderedFor = -1;
  private tailRenderedAt = 0;
  private block: HTMLDivElement | undefined;
  private blockChars = 0;

  constructor(className = 'markdown') {
    this.committed = document.createElement('div');
    this.tail = document.createElement('div');
    this.element = document.createElement('div');
    this.element.className = className;
    this.element.append(this.committed, this.tail);
  }

  get length(): number {
    return this.text.length;
  }

  get isPlain(): boolean {
    return this.mode === 'plain';
  }

  /** Shows `full`; cheap when `full` extends what was shown. `final` forces the unfinished block out now. */
  update(full: string, final: boolean): void {
    if (!full.startsWith(this.text)) this.reset();
    if (full.length === this.text.length && !final) return;
    const previous = this.text.length;
    this.text = full;
    if (this.mode === 'undecided') {
      const first = full.trimStart()[0];
      if (first === undefined) return;
      this.mode = first === '{' || first === '[' ? 'plain' : 'markdown';
    }
    if (this.mode === 'plain') {
      this.plain ??= this.committed.appendChild(document.createElement('pre'));
      this.plain.className = 'plain-answer';
      if (full.length > previous) this.plain.appendChild(document.createTextNode(full.slice(previous)));
      return;
    }
    this.scan();
    this.renderTail(final);
  }

  private reset(): void {
    this.text = '';
    this.mode = 'undecided';
    this.plain = undefined;
    this.committedEnd = 0;
    this.scanPos = 0;
    this.fence = null;
    this.pendingBoundary = -1;
    this.tailRenderedFor = -1;
    this.block = undefined;
    this.blockChars = 0;
    this.committed.replaceChildren();
    this.tail.replaceChildren();
  }

  /** Looks at the complete lines that arrived since the last call; commits finished blocks. */
  private scan(): void {
    const text = this.text;
    let boundary = -1;
    for (;;) {
      const nl = text.indexOf('\n', this.scanPos);
      if (nl < 0) break;
      const line = text.slice(this.scanPos, nl);
      const start = this.scanPos;
      this.scanPos = nl + 1;
      if (this.fence !== null) {
        const close = line.match(FENCE_OPEN)?.[1];
        if (close && close[0] === this.fence[0] && close.length >= this.fence.length && line.trim() === close) {
          this.fence = null;
          this.pendingBoundary = nl + 1;
        }
        continue;
      }
      const blank = line.trim() === '';
      if (blank) {
        if (this.pendingBoundary < 0) this.pendingBoundary = nl + 1;
        continue;
      }
      const unindented = !/^\s/.test(line);
      if (this.pendingBoundary >= 0 && unindented) boundary = start;
      this.pendingBoundary = -1;
      const open = line.match(FENCE_OPEN)?.[1];
      if (open) this.fence = open;
    }
    if (boundary > this.committedEnd) {
      // Each finished stretch gets its own box, which the browser may skip laying out and painting while it
      // is scrolled out of view (content-visibility in panel.css): long answers cost what is visible.
      // Stretches are grouped into boxes of a few thousand characters, so the boxes stay few.
      if (!this.block || this.blockChars >= BLOCK_CHARS) {
        this.block = this.committed.appendChild(document.createElement('div'));
        this.block.className = 'md-block';
        this.blockChars = 0;
      }
      this.block.appendChild(renderMarkdown(text.slice(this.committedEnd, boundary)));
      this.blockChars += boundary - this.committedEnd;
      this.committedEnd = boundary;
      this.tailRenderedFor = -1;
    }
  }

  private renderTail(final: boolean): void {
    const tail = this.text.slice(this.committedEnd);
    if (final) {
      this.tail.replaceChildren(renderMarkdown(tail));
      this.tailRenderedFor = this.text.length;
      return;
    }
    if (this.tailRenderedFor === this.text.length) return;
    if (tail.length > TAIL_THROTTLE_CHARS) {
      // A long unfinished block (a big code fence, a list without blank lines): re-render it at most every
      // tail/40 ms, so the cost per second stays bounded however long it grows.
      const now = performance.now();
      if (now - this.tailRenderedAt < Math.min(2_000, tail.length / 40)) return;
      this.tailRenderedAt = now;
    }
    this.tail.replaceChildren(renderMarkdown(tail));
    this.tailRenderedFor = this.text.length;
  }
}
