/** Lines of a file, 1-based and inclusive: the one line-range vocabulary (overlaps are told here only). */

/** A range of lines, 1-based and inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/** Lines `startLine`–`endLine` (1-based, inclusive) of a file: a finding, a region, a tool result. */
interface Lines {
  startLine: number;
  endLine: number;
}

/** Whether two line ranges (1-based, inclusive) share a line. */
export const rangesOverlap = (a: LineRange, b: LineRange): boolean => a.start <= b.end && b.start <= a.end;

/** Whether two spans of lines share a line (their files are the caller's to compare). */
export const linesOverlap = (a: Lines, b: Lines): boolean => a.startLine <= b.endLine && b.startLine <= a.endLine;

/** The same file and at least one shared line. */
export const sameFileOverlap = (a: Lines & { file: string }, b: Lines & { file: string }): boolean => a.file === b.file && linesOverlap(a, b);
