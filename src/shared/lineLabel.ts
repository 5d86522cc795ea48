/**
 * How every face writes a range of lines: `3` or `3–5` after a file name (`src/a.ts:3–5`), `line 3` or
 * `lines 3–5` in words. The dash is an en dash, as the panel and the README have always written a range; it is
 * written here and nowhere else. (The `--lines 3-5` argument keeps its hyphen: that is syntax, typed, not shown.)
 */

/** `3`, or `3–5`. */
export function lineSpan(start: number, end: number): string {
  return start === end ? `${start}` : `${start}–${end}`;
}

/** A label's words, `{0}` where the line or the span goes: English by default; the panel's are translated. */
export interface LineWords {
  one: string;
  many: string;
}

const ENGLISH: LineWords = { one: 'line {0}', many: 'lines {0}' };

/** `line 3`, or `lines 3–5` (in `words`). */
export function lineLabel(start: number, end: number, words: LineWords = ENGLISH): string {
  return (start === end ? words.one : words.many).replace('{0}', lineSpan(start, end));
}
