/** Cleaning code that a model returns: fences, the line-number column we sent, stray blank edges. */

const FENCE_OPEN = /^\s*(?<fence>(?<marker>[`~])\k<marker>{2,})[^\n`]*\n/;

/** Removes one enclosing code fence (```lang … ```), when the whole text is fenced. */
export function stripFence(text: string): string {
  const open = FENCE_OPEN.exec(text);
  const fence = open?.groups?.fence;
  if (!open || !fence) return text;
  const rest = text.slice(open[0].length);
  const close = new RegExp(`\\n?\\s*${fence.startsWith('`') ? '`' : '~'}{${fence.length},}\\s*$`);
  const m = close.exec(rest);
  if (!m) return rest;
  return rest.slice(0, m.index);
}

const NUMBERED = /^\+?\s*(\d+)\s?[|:│]\s?/;

/**
 * Removes a line-number column like the one in our prompts (`  12 | code`, `12: code`) when every non-blank
 * line has one and the numbers count up by one (from `expectedStart` when given); code that merely starts with
 * numbers is left alone.
 */
export function stripLineNumbers(text: string, expectedStart?: number): string {
  const lines = text.split('\n');
  const numbered = lines.filter((l) => l.trim() !== '');
  if (numbered.length === 0) return text;
  let previous: number | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const m = NUMBERED.exec(line);
    if (!m) return text;
    const n = Number(m[1]);
    if (previous === undefined && expectedStart !== undefined && n !== expectedStart) return text;
    if (previous !== undefined && n !== previous + 1) return text;
    previous = n;
  }
  return lines
    .map((l) => {
      const m = NUMBERED.exec(l);
      if (!m) return l.trim() === '' ? '' : l;
      // The prompt's separator is " | " with exactly one space after the bar: keep the code's own indentation.
      const prefix = /^\+?\s*\d+\s?[|:│] ?/.exec(l);
      return l.slice(prefix?.[0].length ?? 0);
    })
    .join('\n');
}

/**
 * Code from a model, ready to replace lines of a file: unfenced, unnumbered (when the numbers start at
 * `firstLine`, the first replaced line), without blank lines before or trailing whitespace after.
 */
export function cleanCode(text: string, firstLine?: number): string {
  let t = text.replace(/\r\n/g, '\n');
  t = stripFence(t.replace(/^\s*\n/, ''));
  t = stripLineNumbers(t, firstLine);
  return t.replace(/^\s*\n/, '').replace(/\s+$/, '');
}
