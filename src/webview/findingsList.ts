import { SEVERITY_LABEL, findingMarks, hiddenWhy, lineWords } from '../shared/labels';
import { lineLabel } from '../shared/lineLabel';
import type { FindingView, ReviewView } from '../shared/protocol';
import type { HiddenReason } from '../shared/reviewCodes';
import { SEVERITIES } from '../shared/severity';
import { filterFindings, hiddenFindings, type FindingFilter } from '../shared/reviewReducer';
import { button, h, icon } from './dom';
import { renderMarkdown } from './markdown';
import { t } from './strings';

const SEVERITY_ICONS: Record<string, string> = {
  critical: 'flame', high: 'error', medium: 'warning', low: 'info', info: 'lightbulb',
};

export function severityIcon(severity: string): HTMLElement {
  return icon(SEVERITY_ICONS[severity] ?? 'info');
}

/** A finding as the list shows it: severity, title and lines (a button that reveals them), who found it, and the explanation. */
export function findingSummary(f: FindingView, view: ReviewView): HTMLElement[] {
  const lines = lineLabel(f.startLine, f.endLine, lineWords(t));
  const agentTitles = f.agents.map((id) => view.agents.find((a) => a.agent === id)?.title ?? id).join(', ');
  const meta = [agentTitles, f.cwe ?? '', t('confidence', Math.round(f.confidence * 100)), ...findingMarks(t, f)].filter(Boolean).join(' · ');
  const out: HTMLElement[] = [
    h('button', { type: 'button', class: 'finding-main', 'data-action': 'reveal', 'data-finding': f.id, title: t('revealHint') },
      h('span', { class: `sev-label sev-${f.severity}` }, severityIcon(f.severity), ` ${t(SEVERITY_LABEL[f.severity])}`),
      h('span', { class: 'finding-title' }, f.title),
      h('span', { class: 'finding-lines' }, lines)),
    h('div', { class: 'finding-meta' }, meta),
  ];
  if (f.explanation) out.push(h('div', { class: 'markdown finding-explanation' }, renderMarkdown(f.explanation)));
  if (f.advice) out.push(h('div', { class: 'markdown finding-advice' }, renderMarkdown(f.advice)));
  return out;
}

/**
 * The merged findings, most severe first, with an agent filter and severity toggles. Re-rendered as a whole
 * when findings or filters change (a list of tens of items); focus is kept on the same control.
 */
export class FindingsList {
  readonly root: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly agentSelect: HTMLSelectElement;
  private readonly severityGroup: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly footer: HTMLElement;
  private readonly hiddenToggle: HTMLButtonElement;
  private readonly dismissedNote: HTMLElement;

  constructor(private filter: FindingFilter, private readonly onFilter: (f: FindingFilter) => void) {
    this.heading = h('h2', { id: 'findings-title' });
    this.agentSelect = h('select', { class: 'agent-filter', 'aria-label': t('filterAgent') });
    this.agentSelect.addEventListener('change', () => this.setFilter({ ...this.filter, agent: this.agentSelect.value }));
    this.severityGroup = h('div', { class: 'severity-filter', role: 'group', 'aria-label': t('filterSeverity') });
    this.severityGroup.addEventListener('click', (e) => {
      const b = e.target instanceof Element ? e.target.closest('button[data-severity]') : null;
      if (!b) return;
      const s = b.getAttribute('data-severity') ?? '';
      const set = new Set(this.filter.severities);
      if (set.has(s)) set.delete(s);
      else set.add(s);
      this.setFilter({ ...this.filter, severities: SEVERITIES.filter((v) => set.has(v)) });
    });
    this.list = h('ul', { class: 'findings', 'aria-labelledby': 'findings-title' });
    this.list.addEventListener('keydown', (e) => this.onKey(e));
    this.hiddenToggle = h('button', { type: 'button', class: 'link-button hidden-toggle', hidden: true });
    this.hiddenToggle.addEventListener('click', () => this.setFilter({ ...this.filter, showHidden: !this.filter.showHidden }));
    this.dismissedNote = h('span', { class: 'dismissed-count' });
    this.footer = h('p', { class: 'findings-footer' }, this.hiddenToggle, this.dismissedNote);
    this.root = h('section', { class: 'findings-section', 'aria-labelledby': 'findings-title' },
      h('div', { class: 'findings-head' }, this.heading,
        h('label', { class: 'filter' }, h('span', {}, t('filterAgent')), this.agentSelect),
        this.severityGroup),
      this.list, this.footer);
  }

  private setFilter(f: FindingFilter): void {
    this.filter = f;
    this.onFilter(f);
  }

  render(view: ReviewView): void {
    const restore = this.focusKey();
    const shown = filterFindings(view, this.filter);
    const all = filterFindings(view, { agent: '', severities: [] });
    this.heading.replaceChildren(icon('checklist'), ' ', `${t('findings')} (${all.length})`);

    const agents = view.agents.map((a) => [a.agent, a.title] as const);
    this.agentSelect.replaceChildren(
      h('option', { value: '' }, t('allAgents')),
      ...agents.map(([id, title]) => h('option', { value: id }, title)));
    this.agentSelect.value = agents.some(([id]) => id === this.filter.agent) ? this.filter.agent : '';

    const counts = new Map<string, number>();
    for (const f of all) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
    this.severityGroup.replaceChildren(...SEVERITIES.map((s) => h('button', {
      type: 'button',
      class: `chip sev-${s}`,
      'data-severity': s,
      'aria-pressed': this.filter.severities.includes(s) ? 'true' : 'false',
    }, icon(SEVERITY_ICONS[s] ?? 'info'), ` ${t(SEVERITY_LABEL[s])} ${counts.get(s) ?? 0}`)));

    const hidden = hiddenFindings(view);
    const items = view.changes ? this.byFile(shown, view, hidden) : shown.map((f) => this.item(f, view, hidden.get(f.id)));
    if (items.length === 0) {
      const text = all.length > 0 ? t('noFindingsFiltered') : view.status === 'running' ? t('findingsPending') : t('noFindings');
      items.push(h('li', { class: 'empty-findings' }, text));
    }
    this.list.replaceChildren(...items);
    // The noise controls' hidden findings are counted, and listed on request.
    this.hiddenToggle.hidden = hidden.size === 0;
    this.hiddenToggle.textContent = t(this.filter.showHidden ? 'hiddenHide' : 'hiddenShow', hidden.size);
    this.hiddenToggle.setAttribute('aria-pressed', this.filter.showHidden ? 'true' : 'false');
    this.dismissedNote.textContent = view.dismissed.length > 0 ? t('dismissedCount', view.dismissed.length) : '';
    this.restoreFocus(restore);
  }

  /** A review of changes: the findings grouped by file (in the order the files were reviewed), each group headed by its file. */
  private byFile(shown: readonly FindingView[], view: ReviewView, hidden: ReturnType<typeof hiddenFindings>): HTMLLIElement[] {
    const order = view.changes?.files ?? [];
    const files = [...new Set([...order.filter((f) => shown.some((x) => x.file === f)), ...shown.map((f) => f.file)])];
    return files.flatMap((file) => {
      const group = shown.filter((f) => f.file === file);
      return [
        h('li', { class: 'file-group', role: 'presentation', title: file }, icon('file-code'), ` ${file} (${group.length})`),
        ...group.map((f) => this.item(f, view, hidden.get(f.id))),
      ];
    });
  }

  private item(f: FindingView, view: ReviewView, hidden: HiddenReason | undefined): HTMLLIElement {
    const hasFix = f.suggestion !== undefined;
    const applied = view.applied?.includes(f.id) ?? false;
    const data = { finding: f.id };
    const why = hidden ? hiddenWhy(t, f, hidden) : undefined;
    // A learning that capped the severity of a finding still shown says which learning did.
    const learned = !hidden && f.learning !== undefined ? t('severityLearnedBy', f.learning) : undefined;
    return h('li', { class: `finding sev-${f.severity}${why ? ' finding-hidden' : ''}`, 'data-finding': f.id },
      ...findingSummary(f, view),
      why ? h('div', { class: 'finding-hidden-reason' }, icon('eye-closed'), ` ${why}`) : null,
      learned ? h('div', { class: 'finding-learned' }, icon('book'), ` ${learned}`) : null,
      h('div', { class: 'actions' },
        applied ? h('span', { class: 'fix-applied' }, icon('check'), ` ${t('fixApplied')}`) : null,
        hasFix && !applied ? button({ action: 'previewFix', label: t('previewFix'), icon: 'diff', secondary: true, data, disabled: !view.live }) : null,
        hasFix && !applied ? button({ action: 'applyFix', label: t('applyFix'), icon: 'check', secondary: true, data, disabled: !view.live }) : null,
        button({ action: 'dismiss', label: t('dismiss'), icon: 'close', secondary: true, data }),
        view.projectDismiss && view.live && hidden !== 'dismissed' ? button({ action: 'dismissInProject', label: t('dismissInProject'), icon: 'eye-closed', secondary: true, data }) : null));
  }

  /** Up/Down move between findings, Home/End to the first/last. */
  private onKey(e: KeyboardEvent): void {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    const mains = [...this.list.querySelectorAll<HTMLButtonElement>('button.finding-main')];
    if (mains.length === 0) return;
    const current = mains.findIndex((b) => b.closest('li')?.contains(document.activeElement));
    const last = mains.length - 1;
    const next = e.key === 'ArrowDown' ? Math.min(last, current + 1) : e.key === 'ArrowUp' ? Math.max(0, current - 1) : e.key === 'Home' ? 0 : last;
    mains[next]?.focus();
    e.preventDefault();
  }

  private focusKey(): string | undefined {
    const a = document.activeElement;
    if (!a || !this.root.contains(a)) return undefined;
    return [a.getAttribute('data-action'), a.getAttribute('data-finding'), a.getAttribute('data-severity')].join('|');
  }

  private restoreFocus(key: string | undefined): void {
    if (!key || (document.activeElement && this.root.contains(document.activeElement))) return;
    const [action, finding, severity] = key.split('|');
    const candidates = [...this.root.querySelectorAll<HTMLElement>('button')];
    const match = candidates.find((b) => (b.getAttribute('data-action') ?? '') === action
      && (b.getAttribute('data-finding') ?? '') === finding && (b.getAttribute('data-severity') ?? '') === severity);
    (match ?? candidates.find((b) => b.classList.contains('finding-main')))?.focus();
  }
}
