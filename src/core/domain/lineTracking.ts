import type { LineRange } from './lines';

/**
 * Keeps line ranges in step with document edits. The VS Code adapter passes each
 * content change with 0-based positions in the document as it was before the change.
 */
/** Lines of a document as editors count them: 0-based, inclusive (a `LineRange` of review types is 1-based). */
export interface EditorLines {
  /** 0-based, inclusive. */
  start: number;
  end: number;
}

/** A review's lines (1-based, as regions and findings count them) as an editor counts them: the one conversion. */
export function editorLines(lines: { startLine: number; endLine: number }): EditorLines {
  return { start: lines.startLine - 1, end: lines.endLine - 1 };
}

/** An editor's lines (0-based) as a review counts them (1-based): the one conversion back. */
export function reviewLines(lines: EditorLines): LineRange {
  return { start: lines.start + 1, end: lines.end + 1 };
}

export interface LineEdit {
  startLine: number;
  startCharacter: number;
  endLine: number;
  /** Line breaks in the inserted text. */
  insertedLineBreaks: number;
}

/**
 * The range after one edit, or undefined when the edit removed all of its lines ("edited away": from the
 * start of its first line to past its last line). Edits above shift it; edits below leave it alone; edits
 * inside or across its edges keep it, grown or shrunk by the lines they add or remove, so that a fix whose
 * lines changed can be recognised and refused instead of silently disappearing.
 */
export function trackRange(range: EditorLines, edit: LineEdit): EditorLines | undefined {
  const delta = edit.insertedLineBreaks - (edit.endLine - edit.startLine);
  if (edit.startLine > range.end) return range;
  if (edit.endLine < range.start) return { start: range.start + delta, end: range.end + delta };
  const fromStart = edit.startLine < range.start || (edit.startLine === range.start && edit.startCharacter === 0);
  if (fromStart && edit.endLine > range.end && edit.insertedLineBreaks === 0) return undefined;
  const start = Math.min(range.start, edit.startLine);
  const end = Math.max(start, range.end + delta);
  return { start, end };
}
