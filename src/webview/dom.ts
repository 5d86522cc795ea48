/** Tiny DOM helpers: elements are built with properties and text nodes only, never from HTML strings. */

import type { WebviewToHost } from '../shared/protocol';

/** What a page button asks of the host: the type of the message its click sends (`data-action`). */
export const PAGE_ACTIONS = [
  'stop', 'rerun', 'export', 'reveal', 'previewFix', 'applyFix', 'dismiss', 'dismissInProject',
  'previewImproved', 'applyImproved', 'copyImproved', 'setApiKey', 'switchModel', 'openContext',
] as const satisfies readonly WebviewToHost['type'][];
type PageAction = (typeof PAGE_ACTIONS)[number];

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A codicon, hidden from assistive technology (its meaning is always in adjacent text or a label). */
export function icon(name: string, extra = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, 'aria-hidden': 'true' });
}

export interface ButtonOptions {
  action: PageAction;
  label: string;
  icon?: string;
  /** Secondary look (VS Code's secondary button colours). */
  secondary?: boolean;
  /** Icon-only button; the label becomes its accessible name and tooltip. */
  iconOnly?: boolean;
  data?: Record<string, string>;
  disabled?: boolean;
}

export function button(o: ButtonOptions): HTMLButtonElement {
  const attrs: Attrs = {
    type: 'button',
    class: `btn${o.secondary ? ' secondary' : ''}${o.iconOnly ? ' icon-only' : ''}`,
    'data-action': o.action,
    disabled: o.disabled === true,
    title: o.iconOnly ? o.label : undefined,
    'aria-label': o.iconOnly ? o.label : undefined,
  };
  for (const [k, v] of Object.entries(o.data ?? {})) attrs[`data-${k}`] = v;
  return h('button', attrs, o.icon ? icon(o.icon) : null, o.iconOnly ? null : h('span', {}, o.label));
}

/** Sets text only when it changed (cheap enough to call every frame). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el: Element, name: string, value: string | null): void {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) {
    el.setAttribute(name, value);
  }
}
