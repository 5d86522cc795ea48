import * as vscode from 'vscode';
import { editorLines } from '../../core/domain/lineTracking';
import type { FollowUpTurn } from '../../core/agents/followUp';
import { formatUsd } from '../../shared/format';
import { revealBidi } from '../../shared/bidi';
import { escapeMarkdown } from '../../shared/untrustedText';
import type { FindingStore, TrackedFix } from '../findings/findingStore';
import type { ApplyOutcome } from '../findings/fixes';
import { InternalCommands } from '../commands';
import type { FollowUps } from '../findings/followUps';
import type { ReviewSession } from '../review/reviewSession';
import type { SettingsService } from '../settings';
import { answerMarkdown, findingMarkdown, severityLabel, untrustedMarkdown } from './threadMarkdown';

/** The comment controller's id: menus of its threads say `commentController == quorum`. */
const THREADS_CONTROLLER_ID = 'quorum';

interface ThreadsDeps {
  store: FindingStore;
  followUps: FollowUps;
  settings: SettingsService;
  /** Reviews as they start (the review controller's `onDidStartReview`). */
  onDidStartReview: vscode.Event<ReviewSession>;
}

/** One finding's thread, and the conversation in it. */
interface Entry {
  sessionId: string;
  findingId: string;
  thread: vscode.CommentThread;
  comments: vscode.Comment[];
  turns: FollowUpTurn[];
  asking?: AbortController;
}

/** What a test (or another extension) sees of a thread. */
interface ThreadView {
  /** The thread itself: what its actions' commands are given. */
  thread: vscode.CommentThread;
  sessionId: string;
  findingId: string;
  uri: vscode.Uri;
  /** 0-based lines. */
  startLine: number;
  endLine: number;
  label: string;
  contextValue: string;
  comments: { author: string; body: string }[];
}

const key = (sessionId: string, findingId: string) => `${sessionId}\u0000${findingId}`;

/**
 * Review threads: each finding of a finished review as a comment thread on its lines (the Comments API), with
 * Apply, Dismiss and Dismiss in this project as thread actions (the quick fixes' commands), and replies that ask the
 * finding's agent a follow-up. Threads follow the finding store: they move with edits and close when their lines
 * are deleted, the fix is applied, the finding is dismissed, or a later review of those lines replaces it.
 */
export class ReviewThreads implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(THREADS_CONTROLLER_ID, 'Quorum');
  private readonly entries = new Map<string, Entry>();
  private readonly subscriptions: { dispose(): void }[] = [this.controller];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires whenever threads open, move, change or close (tests follow it). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: ThreadsDeps) {
    this.controller.options = { prompt: vscode.l10n.t('Ask the agent about this finding…'), placeHolder: vscode.l10n.t('Ask the agent that raised this finding a follow-up question') };
    deps.store.showInProblems(this.mode() !== 'threads');
    this.subscriptions.push(
      this.changed,
      deps.onDidStartReview((session) => {
        const sub = session.onEvent((e) => {
          if (e.type !== 'review-done') return;
          sub.dispose();
          this.open(session);
        });
        this.subscriptions.push(sub);
      }),
      deps.store.onDidChange((uri) => this.follow(uri)),
      deps.settings.onDidChange(() => {
        deps.store.showInProblems(this.mode() !== 'threads');
        if (this.mode() === 'problems') for (const e of [...this.entries.values()]) this.close(e);
      }),
    );
  }

  private mode(): 'both' | 'threads' | 'problems' {
    return this.deps.settings.current.review.showFindingsIn;
  }

  /** The threads open now (of one document, when given). */
  threads(uri?: vscode.Uri): ThreadView[] {
    return [...this.entries.values()]
      .filter((e) => !uri || e.thread.uri.toString() === uri.toString())
      .map((e) => ({
        thread: e.thread,
        sessionId: e.sessionId,
        findingId: e.findingId,
        uri: e.thread.uri,
        startLine: e.thread.range?.start.line ?? 0,
        endLine: e.thread.range?.end.line ?? 0,
        label: e.thread.label ?? '',
        contextValue: e.thread.contextValue ?? '',
        comments: e.comments.map((c) => ({ author: c.author.name, body: typeof c.body === 'string' ? c.body : c.body.value })),
      }));
  }

  /** A review finished: its shown findings become threads; threads of earlier reviews on the lines it covered close. */
  private open(session: ReviewSession): void {
    if (this.mode() === 'problems' || session.cancelled) return;
    const covered = session.fullTarget.regions.map((r) => ({ uri: session.uriOf(r.file).toString(), ...editorLines(r) }));
    for (const e of [...this.entries.values()]) {
      if (e.sessionId === session.id) continue;
      const t = this.deps.store.get(e.sessionId, e.findingId);
      if (t && covered.some((c) => c.uri === t.uri.toString() && c.start <= t.range.start && t.range.end <= c.end)) this.close(e);
    }
    for (const t of this.deps.store.forSession(session.id)) {
      if (t.finding && !t.hidden && !this.entries.has(key(t.sessionId, t.id))) this.create(session, t);
    }
    this.changed.fire();
  }

  private create(session: ReviewSession, t: TrackedFix): void {
    const f = t.finding;
    if (!f) return;
    const comment: vscode.Comment = { body: findingMarkdown(f, t.original, t.replacement), mode: vscode.CommentMode.Preview, author: { name: `Quorum · ${f.agents.join(' + ')}` } };
    const thread = this.controller.createCommentThread(t.uri, this.rangeOf(t), [comment]);
    thread.label = `${severityLabel(f.severity)}: ${revealBidi(f.title)}`;
    thread.contextValue = ['finding', ...(t.replacement !== undefined ? ['fix'] : []), ...(session.projectDismiss ? ['project'] : [])].join(' ');
    thread.canReply = true;
    thread.collapsibleState = f.severity === 'critical' || f.severity === 'high' ? vscode.CommentThreadCollapsibleState.Expanded : vscode.CommentThreadCollapsibleState.Collapsed;
    this.entries.set(key(t.sessionId, t.id), { sessionId: t.sessionId, findingId: t.id, thread, comments: [comment], turns: [] });
  }

  private rangeOf(t: TrackedFix): vscode.Range {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === t.uri.toString());
    const end = doc && t.range.end < doc.lineCount ? doc.lineAt(t.range.end).text.length : 0;
    return new vscode.Range(t.range.start, 0, t.range.end, end);
  }

  /** The store changed for `uri`: threads move with their findings, and close when a finding is gone. */
  private follow(uri: vscode.Uri): void {
    let changed = false;
    for (const e of [...this.entries.values()]) {
      if (e.thread.uri.toString() !== uri.toString()) continue;
      const t = this.deps.store.get(e.sessionId, e.findingId);
      if (!t) {
        this.close(e);
        changed = true;
        continue;
      }
      const range = this.rangeOf(t);
      if (!e.thread.range || !e.thread.range.isEqual(range)) {
        e.thread.range = range;
        changed = true;
      }
    }
    if (changed) this.changed.fire();
  }

  private close(e: Entry): void {
    e.asking?.abort();
    this.entries.delete(key(e.sessionId, e.findingId));
    e.thread.dispose();
  }

  private entryOf(thread: unknown): Entry | undefined {
    return [...this.entries.values()].find((e) => e.thread === thread);
  }

  /**
   * A thread's action runs the command the quick fix and the panel's button run for its finding (one handler:
   * findings/findingActions.ts); false when the thread is not one of Quorum's open threads.
   */
  private async act<R>(thread: unknown, command: string): Promise<R | undefined> {
    const e = this.entryOf(thread);
    return e ? vscode.commands.executeCommand<R>(command, e.sessionId, e.findingId) : undefined;
  }

  /** Apply: the same checks and edit as the quick fix and the panel's Apply. */
  async apply(thread: unknown): Promise<boolean> {
    return (await this.act<ApplyOutcome>(thread, InternalCommands.applyFix)) === 'applied';
  }

  async dismiss(thread: unknown): Promise<boolean> {
    if (!this.entryOf(thread)) return false;
    await this.act(thread, InternalCommands.dismissFinding);
    return true;
  }

  async dismissInProject(thread: unknown): Promise<boolean> {
    return (await this.act<boolean>(thread, InternalCommands.dismissInProject)) === true;
  }

  /** A reply: the question joins the thread, and the agent's answer streams in below it. */
  async reply(reply: { thread: unknown; text: string }): Promise<boolean> {
    const e = this.entryOf(reply.thread);
    const question = reply.text.trim();
    if (!e || question === '' || e.asking) return false;
    const known = this.deps.followUps.find(e.sessionId, e.findingId);
    if (!known) return false;
    const agent = known.finding.agents.join(' + ');
    const asked: vscode.Comment = { body: untrustedMarkdown(escapeMarkdown(question, { multiline: true })), mode: vscode.CommentMode.Preview, author: { name: vscode.l10n.t('You') } };
    const answer: vscode.Comment = { body: answerMarkdown('…'), mode: vscode.CommentMode.Preview, author: { name: `Quorum · ${agent}` } };
    const show = (text: string, label?: string, note = '') => {
      answer.body = answerMarkdown(text, note);
      if (label !== undefined) answer.label = label;
      e.thread.comments = [...e.comments];
      this.changed.fire();
    };
    e.comments.push(asked, answer);
    e.thread.comments = [...e.comments];
    const abort = new AbortController();
    e.asking = abort;
    let text = '';
    try {
      const outcome = await this.deps.followUps.ask(known, question, e.turns, (delta) => show((text += delta)), abort.signal);
      if (outcome.ok) {
        show(outcome.result.text || text, formatUsd(outcome.result.costUsd));
        e.turns.push({ from: 'user', text: question }, { from: 'agent', text: outcome.result.text || text });
        return true;
      }
      show(text, undefined, `_${escapeMarkdown(outcome.reason)}_`);
      return false;
    } finally {
      if (e.asking === abort) e.asking = undefined;
    }
  }

  dispose(): void {
    for (const e of this.entries.values()) e.asking?.abort();
    this.entries.clear();
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }
}
