import { formatMs, formatUsd } from '../shared/format';
import { REVIEW_STATE_LABEL, lineWords } from '../shared/labels';
import { lineLabel, lineSpan } from '../shared/lineLabel';
import { actualCostLabel, estimateLabel, type PanelStringKey } from '../shared/panelStrings';
import type { ReviewView } from '../shared/protocol';
import type { SkipReason } from '../shared/reviewCodes';
import { estimatedSpentUsd, hiddenFindings, spentUsd, streamsText } from '../shared/reviewReducer';
import { STREAMING_ICON } from './agentCard';
import { ContextList } from './contextList';
import { button, h, icon, setAttr, setText } from './dom';
import { t } from './strings';

/** The panel string that names each reason a changed file is skipped. */
const SKIP_LABEL: Record<SkipReason, PanelStringKey> = {
  deleted: 'skipDeleted', binary: 'skipBinary', lockfile: 'skipLockfile', minified: 'skipMinified', generated: 'skipGenerated',
  'too-large': 'skipTooLarge', excluded: 'skipExcluded', symlink: 'skipSymlink', unreadable: 'skipUnreadable',
};

const STATUS_ICONS: Record<ReviewView['status'], string> = {
  running: 'loading codicon-modifier-spin', done: 'pass-filled', failed: 'error', cancelled: 'circle-slash',
};

/** Target, status (a live region), elapsed time, cost, the review's buttons, and what shaped the prompts (rules, redactions, context). */
export class ReviewHeader {
  readonly root: HTMLElement;
  private readonly file: HTMLElement;
  private readonly lines: HTMLElement;
  private readonly language: HTMLElement;
  private readonly statusIcon: HTMLElement;
  private readonly statusText: HTMLElement;
  private readonly elapsed: HTMLElement;
  private readonly cost: HTMLElement;
  private readonly stop: HTMLButtonElement;
  private readonly restored: HTMLElement;
  private readonly privacy: HTMLElement;
  /** What the project's tools reported and how many findings repeated it ("tools: 3 results from eslint, ts · 1 finding already reported, hidden"). */
  private readonly tools: HTMLElement;
  /** What context went out, listed on click. */
  readonly context = new ContextList();

  constructor() {
    this.file = h('span', { class: 'file' });
    this.lines = h('span', { class: 'lines' });
    this.language = h('span', { class: 'language' });
    this.statusIcon = icon('loading');
    this.statusText = h('span');
    this.elapsed = h('span', { class: 'elapsed' });
    this.cost = h('span', { class: 'cost' });
    this.stop = button({ action: 'stop', label: t('stop'), icon: 'debug-stop', secondary: true });
    this.restored = h('p', { class: 'restored', hidden: true }, icon('history'), ' ', t('restored'));
    this.privacy = h('p', { class: 'privacy', hidden: true });
    this.tools = h('p', { class: 'tools', hidden: true });
    this.root = h('header', { class: 'review-head' },
      h('div', { class: 'target' }, icon('file-code'), this.file, this.lines, this.language),
      h('div', { class: 'status-line' },
        h('span', { class: 'status', role: 'status', 'aria-live': 'polite' }, this.statusIcon, ' ', this.statusText),
        this.elapsed, this.cost),
      h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': t('panelTitle') },
        this.stop,
        button({ action: 'rerun', label: t('rerun'), icon: 'refresh', data: { nocache: 'false' } }),
        button({ action: 'rerun', label: t('rerunNoCache'), icon: 'refresh', secondary: true, data: { nocache: 'true' } }),
        button({ action: 'export', label: t('export'), icon: 'export', secondary: true })),
      this.restored,
      this.privacy,
      this.tools,
      this.context.root);
  }

  update(view: ReviewView, now: number): void {
    const changes = view.changes;
    if (changes) {
      // A review of changes: what was reviewed, across files ("Uncommitted changes: 7 files, +120 −35, 2 skipped").
      const summary = t(changes.files.length === 1 ? 'changesSummaryOneFile' : 'changesSummary', changes.label, changes.files.length, changes.added, changes.removed, changes.skipped.length);
      // A re-review: the last review's findings not raised again.
      setText(this.file, view.resolved ? `${summary} · ${t('resolvedCount', view.resolved)}` : summary);
      setAttr(this.file, 'title', changes.files.join('\n'));
      setText(this.lines, changes.skipped.length > 0 ? t('skippedFiles', changes.skipped.map((k) => `${k.file} (${t(SKIP_LABEL[k.reason])})`).join(', ')) : '');
      setText(this.language, '');
      this.language.hidden = true;
    } else {
      setText(this.file, view.target.file.split(/[\\/]/).pop() || view.target.file);
      setAttr(this.file, 'title', view.target.file);
      setText(this.lines, lineLabel(view.target.startLine, view.target.endLine, lineWords(t, true)));
      setText(this.language, view.target.language);
      this.language.hidden = false;
    }
    // Spins while the review waits for answers; still while answers arrive (they show the progress).
    setAttr(this.statusIcon, 'class', `codicon codicon-${view.status === 'running' && view.agents.some(streamsText) ? STREAMING_ICON : STATUS_ICONS[view.status]}`);
    setText(this.statusText, t(REVIEW_STATE_LABEL[view.status]));
    setAttr(this.root, 'data-status', view.status);
    this.updateElapsed(view, now);
    const spent = spentUsd(view);
    const parts: string[] = [];
    if (view.status === 'running') {
      if (view.estimateUsd !== undefined) parts.push(estimateLabel(t, formatUsd, view.estimateUsd, view.likelyUsd));
      if (spent > 0) parts.push(t('costSoFar', formatUsd(spent)));
    } else {
      parts.push(actualCostLabel(t, formatUsd, spent, estimatedSpentUsd(view)));
    }
    setText(this.cost, parts.join(' · '));
    this.stop.disabled = view.status !== 'running' || !view.live;
    this.restored.hidden = view.live;
    this.updatePrivacy(view);
    this.updateTools(view);
    this.context.update(view.context);
  }

  /** The tool results sent and the findings hidden for repeating them. */
  private updateTools(view: ReviewView): void {
    const tools = view.tools;
    if (!tools || tools.results === 0) {
      setText(this.tools, '');
      this.tools.hidden = true;
      return;
    }
    const redundant = [...hiddenFindings(view).values()].filter((reason) => reason === 'reported-by-tool').length;
    const parts = [t(tools.results === 1 ? 'toolsSentOne' : 'toolsSent', tools.results, tools.tools.join(', '))];
    if (redundant > 0) parts.push(t(redundant === 1 ? 'toolsRedundantOne' : 'toolsRedundant', redundant));
    setText(this.tools, parts.join(' · '));
    this.tools.hidden = false;
  }

  /** The repository rules in the prompts and the secrets redacted: kinds and lines, never values. */
  private updatePrivacy(view: ReviewView): void {
    const p = view.privacy;
    const parts: string[] = [];
    if (p && p.rules.length > 0) parts.push(t('rulesUsed', p.rules.join(', ')));
    if (p && p.rulesDropped.length > 0) parts.push(t('rulesDropped', p.rulesDropped.join(', ')));
    if (p && p.redactions.length > 0) {
      parts.push(t('redactedSecrets', p.redactions.map((r) => `${r.file ? `${r.file}: ` : ''}${r.kind} (${lineSpan(r.line, r.endLine)})`).join(', ')));
    }
    setText(this.privacy, parts.join(' · '));
    this.privacy.hidden = parts.length === 0;
  }

  updateElapsed(view: ReviewView, now: number): void {
    const ms = view.elapsedMs ?? Math.max(0, now - view.startedAt);
    setText(this.elapsed, t('elapsed', formatMs(ms)));
  }
}
