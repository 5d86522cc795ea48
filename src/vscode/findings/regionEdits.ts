import * as vscode from 'vscode';
import { findBidi } from '../../shared/bidi';
import type { Prompter } from '../prompter';
import type { FindingStore, TrackedFix } from './findingStore';
import { codeForLines, fitFix, linesAsReviewed } from './fixes';

const MULTI_PREVIEW_SCHEME = 'quorum-preview-files';

interface RegionEditsOutcome {
  applied: number;
  /** Regions not applied, and why: their lines changed since the review, or the code cannot go there as it is. */
  refused: { id: string; why: 'changed' | 'bidi' | 'prose' | 'indentation' }[];
}

/** Fixes of one document, bottom first, without overlaps (a later one that overlaps an earlier one is left out). */
function ordered(fixes: readonly TrackedFix[]): TrackedFix[] {
  const out: TrackedFix[] = [];
  for (const f of [...fixes].sort((a, b) => b.range.start - a.range.start)) {
    const last = out[out.length - 1];
    if (!last || f.range.end < last.range.start) out.push(f);
  }
  return out;
}

/**
 * The coding agent's proposals for a review of changes, one per changed region across files: previewed as one
 * multi-file diff (`vscode.changes`) and applied as ONE WorkspaceEdit, each region refused on its own when its
 * lines changed since the review (or its code cannot be applied as it is), with the same checks as a single fix.
 */
export class RegionEdits implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly store: FindingStore,
    private readonly prompter: Prompter,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(MULTI_PREVIEW_SCHEME, this);
  }

  private fixes(sessionId: string, ids: readonly string[]): TrackedFix[] {
    return ids.flatMap((id) => {
      const f = this.store.get(sessionId, id);
      return f && f.replacement !== undefined ? [f] : [];
    });
  }

  /** A document with every proposal for it applied (as Apply would write them, where they fit). */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const params = new URLSearchParams(uri.query);
    const fixes = this.fixes(params.get('session') ?? '', params.getAll('id'));
    const first = fixes[0];
    if (!first) return vscode.l10n.t('This fix is no longer available: the review was discarded or its lines were edited.');
    const doc = await vscode.workspace.openTextDocument(first.uri);
    let text = doc.getText();
    for (const f of ordered(fixes)) {
      if (f.range.end >= doc.lineCount) continue;
      const verdict = fitFix(f, doc.languageId);
      const start = doc.offsetAt(new vscode.Position(f.range.start, 0));
      const end = doc.offsetAt(doc.lineAt(f.range.end).range.end);
      text = text.slice(0, start) + codeForLines(verdict.ok ? verdict.code : (f.replacement ?? ''), doc) + text.slice(end);
    }
    return text;
  }

  /** One multi-file diff of every proposal of the session. */
  async preview(sessionId: string, ids: readonly string[]): Promise<boolean> {
    const byFile = new Map<string, TrackedFix[]>();
    for (const f of this.fixes(sessionId, ids)) byFile.set(f.uri.toString(), [...(byFile.get(f.uri.toString()) ?? []), f]);
    if (byFile.size === 0) {
      void this.prompter.message('info', vscode.l10n.t('This fix is no longer available: the review was discarded or its lines were edited.'), { id: 'fix.gone' });
      return false;
    }
    const stamp = String(Date.now());
    const resources = [...byFile.values()].map((fixes) => {
      const file = (fixes[0] as TrackedFix).uri;
      const query = new URLSearchParams({ session: sessionId, v: stamp });
      for (const f of fixes) query.append('id', f.id);
      const right = vscode.Uri.from({ scheme: MULTI_PREVIEW_SCHEME, path: file.path, query: query.toString() });
      return [file, file, right] as [vscode.Uri, vscode.Uri, vscode.Uri];
    });
    await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Quorum improved code ({0} files)', resources.length), resources);
    return true;
  }

  /** Applies every proposal that still fits as one edit; tells which regions were refused and why. */
  async apply(sessionId: string, ids: readonly string[]): Promise<RegionEditsOutcome> {
    const outcome: RegionEditsOutcome = { applied: 0, refused: [] };
    const edit = new vscode.WorkspaceEdit();
    const applied: TrackedFix[] = [];
    const byFile = new Map<string, TrackedFix[]>();
    for (const f of this.fixes(sessionId, ids)) byFile.set(f.uri.toString(), [...(byFile.get(f.uri.toString()) ?? []), f]);
    for (const fixes of byFile.values()) {
      for (const f of ordered(fixes)) {
        if (findBidi(f.replacement ?? '').length > 0) {
          outcome.refused.push({ id: f.id, why: 'bidi' });
          continue;
        }
        const checked = await linesAsReviewed(f);
        if (!checked) {
          outcome.refused.push({ id: f.id, why: 'changed' });
          continue;
        }
        const verdict = fitFix(f, checked.doc.languageId);
        if (!verdict.ok) {
          outcome.refused.push({ id: f.id, why: verdict.reason });
          continue;
        }
        edit.replace(f.uri, checked.range, codeForLines(verdict.code, checked.doc));
        applied.push(f);
      }
    }
    if (applied.length > 0 && !(await vscode.workspace.applyEdit(edit))) {
      void this.prompter.message('error', vscode.l10n.t('VS Code could not apply the fix (is the file read-only?).'), { id: 'fix.failed' });
      return { applied: 0, refused: outcome.refused };
    }
    for (const f of applied) this.store.remove(sessionId, f.id);
    outcome.applied = applied.length;
    if (outcome.refused.length > 0) {
      const changed = outcome.refused.filter((r) => r.why === 'changed').length;
      void this.prompter.message(
        'warning',
        vscode.l10n.t('Quorum applied {0} of {1} proposed changes; {2} were refused ({3} because their lines changed since the review). Preview them and edit by hand, or review the changes again.', applied.length, applied.length + outcome.refused.length, outcome.refused.length, changed),
        { id: 'fix.regionsRefused' },
      );
    }
    return outcome;
  }

  dispose(): void {
    this.registration.dispose();
  }
}
