import { lineSpan } from '../shared/lineLabel';
import { contextLabel, type PanelStringKey } from '../shared/panelStrings';
import type { ContextView } from '../shared/protocol';
import { h, icon, setAttr, setText } from './dom';
import { t } from './strings';

const KIND_LABEL: Record<ContextView['items'][number]['kind'], PanelStringKey> = {
  definition: 'contextKindDefinition', caller: 'contextKindCaller', enclosing: 'contextKindEnclosing',
};

/**
 * The header's line on the context sent with the review ("context: 6 definitions, 3 callers from 5 files · 1,900
 * tokens"). Clicking it lists each snippet (symbol, kind, file:lines); clicking a snippet asks the host to open
 * it. File names and symbols are the repository's text: set as text, never as markup.
 */
export class ContextList {
  readonly root: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly label: HTMLElement;
  private readonly off: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly cut: HTMLElement;
  /** The context the list was built from (it does not change during a review; a snapshot brings a new one). */
  private listed: ContextView | undefined;

  constructor() {
    this.label = h('span');
    this.toggle = h('button', { type: 'button', class: 'link-button context-toggle', 'data-action': 'toggleContext', 'aria-expanded': 'false', 'aria-controls': 'context-list', title: t('contextListLabel') },
      icon('chevron-right', 'context-chevron'), ' ', this.label);
    this.off = h('span', { class: 'context-off', hidden: true });
    this.list = h('ul', { id: 'context-list', class: 'context-list', 'aria-label': t('contextListLabel'), hidden: true });
    this.cut = h('p', { class: 'context-cut', hidden: true });
    this.root = h('div', { class: 'context', hidden: true }, this.toggle, this.off, this.list, this.cut);
  }

  update(context: ContextView | undefined): void {
    const text = context ? contextLabel(t, context) : '';
    this.root.hidden = text === '';
    if (!context || text === '') return;
    const listable = context.enabled && context.items.length > 0;
    this.toggle.hidden = !listable;
    this.off.hidden = listable;
    if (listable) setText(this.label, text);
    else {
      setText(this.off, text);
      setAttr(this.off, 'title', context.enabled ? null : t('contextOffHint'));
    }
    setText(this.cut, context.cut.length > 0 ? t('contextCut', [...new Set(context.cut.map((c) => `${c.symbol} (${t(KIND_LABEL[c.kind])}, ${c.file})`))].join(', ')) : '');
    this.cut.hidden = context.cut.length === 0 || !this.expanded;
    if (this.listed !== context) {
      this.listed = context;
      // Built when first shown (a review of many files may list thousands of snippets).
      if (this.expanded) this.build(context);
      else this.list.replaceChildren();
    }
  }

  get expanded(): boolean {
    return this.toggle.getAttribute('aria-expanded') === 'true';
  }

  /** Shows or hides the list (the toggle's click). */
  toggleList(): void {
    const open = !this.expanded;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.list.hidden = !open;
    this.cut.hidden = !open || (this.listed?.cut.length ?? 0) === 0;
    if (open && this.listed && this.list.childElementCount === 0) this.build(this.listed);
  }

  private build(context: ContextView): void {
    this.list.replaceChildren(...context.items.map((c, i) => {
      return h('li', {},
        h('button', { type: 'button', class: 'link-button context-entry', 'data-action': 'openContext', 'data-index': i, title: t('revealHint') },
          h('span', { class: 'context-symbol' }, c.symbol),
          h('span', { class: 'context-kind' }, t(KIND_LABEL[c.kind])),
          h('span', { class: 'context-where' }, `${c.file}:${lineSpan(c.startLine, c.endLine)}`)));
    }));
  }
}
