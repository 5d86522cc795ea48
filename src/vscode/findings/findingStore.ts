import * as vscode from 'vscode';
import { revealBidi } from '../../shared/bidi';
import type { Finding } from '../../core/domain/finding';
import { lineSpan } from '../../shared/lineLabel';
import { severityLevel, type SeverityLevel } from '../../shared/severity';
import { trackRange, type EditorLines } from '../../core/domain/lineTracking';

/** A finding (or the coding agent's improved code) tied to the lines it was made for. */
export interface TrackedFix {
  sessionId: string;
  /** The finding id, or `improvedCodeId(…)` for the coding agent's proposal. */
  id: string;
  uri: vscode.Uri;
  /** 0-based inclusive lines, kept in step with edits. */
  range: EditorLines;
  /** The text of those lines when the review ran; a fix applies only while the lines still read so. */
  original: string;
  replacement: string | undefined;
  finding: Finding | undefined;
  agent: string;
  /** Hidden by the noise controls: kept (its lines tracked) but not in the Problems panel and without quick fixes. */
  hidden?: boolean;
}

/** Where the coding agent's improved code is kept: a whole reviewed region (by its index), or some lines of a file. */
type ImprovedCodeAt = { region: number } | { file: string; startLine: number; endLine: number };

/** The id of improved code in the store: the one encoding (ids are strings: they travel as command arguments). */
export function improvedCodeId(at: ImprovedCodeAt): string {
  if ('region' in at) return at.region === 0 ? '@improved' : `@improved#${at.region}`;
  return `@improved:${at.file}:${at.startLine}-${at.endLine}`;
}

/** The improved code of a review's first (for a selection, its one) region. */
export const IMPROVED_CODE = improvedCodeId({ region: 0 });

/** A finding's level (shared with SARIF and CI annotations) in the Problems panel. */
const DIAGNOSTIC: Record<SeverityLevel, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  note: vscode.DiagnosticSeverity.Information,
};

/** `security/CWE-89` (agent and rule), with a link to the CWE entry when there is one. */
function diagnosticCode(f: Finding): vscode.Diagnostic['code'] {
  const who = f.agents.join('+');
  const cwe = f.cwe && /^CWE-(\d+)$/i.exec(f.cwe);
  if (cwe) return { value: `${who}/${f.cwe?.toUpperCase()}`, target: vscode.Uri.parse(`https://cwe.mitre.org/data/definitions/${cwe[1]}.html`) };
  return who;
}

/**
 * Title and explanation, bidi controls shown as `<U+202E>` tokens (Problems would reorder them: Trojan Source);
 * a finding the agent placed outside the reviewed lines says so and where.
 */
function diagnosticMessage(f: Finding): string {
  const text = revealBidi(f.explanation ? `${f.title}\n${f.explanation}` : f.title);
  if (!f.clamped) return text;
  const r = f.reportedLines;
  const where = r ? lineSpan(r.startLine, r.endLine) : '?';
  return `${text}\n${vscode.l10n.t('[Placed by the reviewer at line(s) {0}, outside the reviewed lines: shown at the nearest reviewed line.]', where)}`;
}

function lineRange(doc: vscode.TextDocument | undefined, r: EditorLines): vscode.Range {
  const endLen = doc && r.end < doc.lineCount ? doc.lineAt(r.end).text.length : Number.MAX_SAFE_INTEGER;
  const startChar = doc && r.start < doc.lineCount ? doc.lineAt(r.start).firstNonWhitespaceCharacterIndex : 0;
  return new vscode.Range(r.start, startChar, r.end, endLen);
}

/**
 * Holds every finding with its tracked lines, publishes them to the Problems panel (source "Quorum"),
 * follows edits (shifting findings below an edit, dropping those whose lines were deleted) and forgets
 * dismissed or discarded ones.
 */
export class FindingStore implements vscode.Disposable {
  private readonly items = new Map<string, TrackedFix>();
  private readonly collection = vscode.languages.createDiagnosticCollection('quorum');
  private readonly disposables: { dispose(): unknown }[] = [this.collection];
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  /** Findings are published to the Problems panel (`quorum.review.showFindingsIn` is not `threads`). */
  private inProblems = true;

  constructor() {
    this.disposables.push(
      this.emitter,
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === 'untitled') this.removeWhere((t) => t.uri.toString() === doc.uri.toString());
      }),
    );
  }

  private static key(sessionId: string, id: string): string {
    return `${sessionId}\u0000${id}`;
  }

  add(fix: TrackedFix): void {
    this.items.set(FindingStore.key(fix.sessionId, fix.id), fix);
    this.publish(fix.uri);
  }

  get(sessionId: string, id: string): TrackedFix | undefined {
    return this.items.get(FindingStore.key(sessionId, id));
  }

  /** Every tracked item of a review. */
  forSession(sessionId: string): TrackedFix[] {
    return [...this.items.values()].filter((t) => t.sessionId === sessionId);
  }

  forDocument(uri: vscode.Uri): TrackedFix[] {
    const u = uri.toString();
    return [...this.items.values()].filter((t) => t.uri.toString() === u);
  }

  remove(sessionId: string, id: string): void {
    const t = this.items.get(FindingStore.key(sessionId, id));
    if (!t) return;
    this.items.delete(FindingStore.key(sessionId, id));
    this.publish(t.uri);
  }

  /** Forgets every finding of a review (discarded, or replaced by a new review of the same range). */
  discard(sessionId: string): void {
    this.removeWhere((t) => t.sessionId === sessionId);
  }

  /** Shows findings in the Problems panel or takes them out of it (they stay tracked either way). */
  showInProblems(show: boolean): void {
    if (show === this.inProblems) return;
    this.inProblems = show;
    for (const uri of new Map([...this.items.values()].map((t) => [t.uri.toString(), t.uri])).values()) this.publish(uri);
  }

  diagnostics(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private removeWhere(pred: (t: TrackedFix) => boolean): void {
    const touched = new Map<string, vscode.Uri>();
    for (const [k, t] of this.items) {
      if (!pred(t)) continue;
      this.items.delete(k);
      touched.set(t.uri.toString(), t.uri);
    }
    for (const uri of touched.values()) this.publish(uri);
  }

  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) return;
    const tracked = this.forDocument(e.document.uri);
    if (tracked.length === 0) return;
    // VS Code reports the changes of one event against the document before the event, in any order;
    // applying them bottom-up keeps each one's line numbers valid.
    const changes = [...e.contentChanges].sort((a, b) => b.range.start.line - a.range.start.line);
    for (const t of tracked) {
      let range: EditorLines | undefined = t.range;
      for (const c of changes) {
        if (!range) break;
        range = trackRange(range, { startLine: c.range.start.line, startCharacter: c.range.start.character, endLine: c.range.end.line, insertedLineBreaks: (c.text.match(/\r\n|\r|\n/g) ?? []).length });
      }
      const key = FindingStore.key(t.sessionId, t.id);
      if (range) this.items.set(key, { ...t, range });
      else this.items.delete(key);
    }
    this.publish(e.document.uri);
  }

  private publish(uri: vscode.Uri): void {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const diagnostics: vscode.Diagnostic[] = [];
    for (const t of this.forDocument(uri)) {
      if (!t.finding || t.hidden || !this.inProblems) continue;
      const f = t.finding;
      const d = new vscode.Diagnostic(lineRange(doc, t.range), diagnosticMessage(f), DIAGNOSTIC[severityLevel(f.severity)]);
      d.source = 'Quorum';
      d.code = diagnosticCode(f);
      diagnostics.push(d);
    }
    this.collection.set(uri, diagnostics);
    this.emitter.fire(uri);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.items.clear();
  }
}
