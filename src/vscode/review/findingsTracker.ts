import type * as vscode from 'vscode';
import type { Finding } from '../../core/domain/finding';
import type { ReviewEvent } from '../../core/domain/events';
import type { ReviewSummary } from '../../core/domain/result';
import { editorLines } from '../../core/domain/lineTracking';
import { IMPROVED_CODE, improvedCodeId, type FindingStore } from '../findings/findingStore';
import type { ReviewSession } from './reviewSession';

/**
 * Keeps a review's findings and proposed code in the finding store (and so in the Problems panel and the quick
 * fixes) at the lines they are about now: each reviewed region is anchored when the review starts, findings
 * and code follow their region's anchor, and the merge's result replaces the agents' own reports at the end.
 */
export class FindingsTracker {
  constructor(private readonly store: FindingStore) {}

  /** Anchors each reviewed region: its lines follow edits, and the coding agent's code for it lands there. */
  anchor(session: ReviewSession): void {
    session.fullTarget.regions.forEach((r, i) => {
      this.store.add({
        sessionId: session.id,
        id: improvedCodeId({ region: i }),
        uri: session.uriOf(r.file),
        range: editorLines(r),
        original: r.text,
        replacement: undefined,
        finding: undefined,
        agent: 'coding',
      });
    });
  }

  /** Follows one pipeline event: a finding is tracked, an agent's improved code is put at its lines. */
  onEvent(session: ReviewSession, event: ReviewEvent): void {
    if (event.type === 'finding') this.track(session, event.finding);
    if (event.type !== 'done') return;
    if (event.result.improvedCode !== undefined && session.fullTarget.regions.length === 1) {
      const anchor = this.store.get(session.id, IMPROVED_CODE);
      if (anchor) this.store.add({ ...anchor, replacement: restoreSecrets(session, event.result.improvedCode), agent: event.agent });
      return;
    }
    for (const r of event.result.replacements ?? []) {
      const at = this.linesOf(session, r.file, r.startLine, r.endLine);
      if (!at) continue;
      const anchor = this.store.get(session.id, improvedCodeId({ region: at.index }));
      const whole = anchor !== undefined && at.range.start === anchor.range.start && at.range.end === anchor.range.end;
      const id = improvedCodeId(whole ? { region: at.index } : r);
      this.store.add({ sessionId: session.id, id, uri: at.uri, range: at.range, original: at.original, replacement: restoreSecrets(session, r.code), finding: undefined, agent: event.agent });
    }
  }

  /**
   * The review is done: the merged findings replace the agents' reports. A report the merge folded into another
   * finding (the summary says which) is aliased to it, so that the panel's ids keep working.
   */
  finished(session: ReviewSession, summary: ReviewSummary): void {
    const merged = new Set(summary.findings.map((f) => f.id));
    for (const f of summary.findings) for (const from of f.mergedFrom ?? []) session.aliases.set(from, f.id);
    for (const e of session.events()) {
      if (e.type === 'finding' && !merged.has(e.finding.id)) this.store.remove(session.id, e.finding.id);
    }
    for (const f of summary.findings) {
      const tracked = this.store.get(session.id, f.id);
      if (tracked) this.store.add({ ...tracked, finding: f, replacement: restoreSecrets(session, f.suggestion), hidden: session.hidden.has(f.id) });
    }
  }

  /** The one id the store knows a finding by: its own, or the merged finding's it was folded into. */
  resolve(session: ReviewSession | undefined, findingId: string): string {
    return session?.aliases.get(findingId) ?? findingId;
  }

  /**
   * Where lines start..end of a reviewed file are now: the region holding them, moved as far as its anchor was
   * moved by edits since the review; undefined when the region's lines were deleted.
   */
  private linesOf(session: ReviewSession, file: string, start: number, end: number): { index: number; uri: vscode.Uri; range: { start: number; end: number }; original: string } | undefined {
    const index = session.regionIndex(file, start, end);
    const region = session.fullTarget.regions[index];
    const anchor = region ? this.store.get(session.id, improvedCodeId({ region: index })) : undefined;
    if (!region || !anchor) return undefined;
    const offset = anchor.range.start - editorLines(region).start;
    const lines = editorLines({ startLine: start, endLine: end });
    return { index, uri: anchor.uri, range: { start: lines.start + offset, end: lines.end + offset }, original: session.originalLines(index, start, end) };
  }

  /** Adds a finding to the Problems panel (of its file) at its current lines, unless the reviewed lines were edited since. */
  private track(session: ReviewSession, finding: Finding): void {
    if (session.cancelled) return;
    const at = this.linesOf(session, finding.file, finding.startLine, finding.endLine);
    if (!at) return;
    this.store.add({
      sessionId: session.id,
      id: finding.id,
      uri: at.uri,
      range: at.range,
      original: at.original,
      replacement: restoreSecrets(session, finding.suggestion),
      finding,
      agent: finding.agents[0] ?? '',
      hidden: session.hidden.has(finding.id),
    });
  }
}

/**
 * A suggestion or improved code with the review's secret placeholders put back to the user's real text, so
 * that applying it never writes `[REDACTED:…]` over a value.
 */
function restoreSecrets(session: ReviewSession, text: string | undefined): string | undefined {
  return text === undefined || !session.vault ? text : session.vault.restore(text);
}
