/**
 * Text that did not come from Quorum — model output, gateway error messages, `/models` ids, settings values,
 * file names — escaped for the surface that shows it, so that it is shown as the characters it is and can
 * never become a link, a command link, an image, HTML or an icon. Pure: used by the VS Code adapter for
 * notifications, input boxes, quick picks and `MarkdownString`s, and by anything else that renders Markdown.
 *
 * Which escape goes where:
 * - `escapeMarkdown`: a `MarkdownString` (hover, status bar tooltip) or any CommonMark/GFM renderer.
 * - `escapeLinkedText`: notifications (`show*Message`, progress notifications) and input box prompts and
 *   validation messages. VS Code renders `[label](https://…|command:…|file:…)` there as a clickable link and
 *   knows no backslash escapes, so the link syntax itself is broken.
 * - `escapeIcons`: quick pick labels, descriptions and details, status bar text (`$(name)` renders an icon).
 * - `terminalText`: plain text for a terminal or a log file (the CLI's text output).
 */

import { revealBidi } from './bidi';

/** Every ASCII punctuation character: CommonMark lets each of them be backslash-escaped. */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * Escapes text for a Markdown paragraph or table cell: every ASCII punctuation character is backslash-escaped,
 * so no link, image, autolink (`https://…`, `www.…`, `a@b.c`), raw HTML, entity, code span, emphasis, heading,
 * list, table cell break or theme icon (`$(…)`) can start. Line breaks become spaces unless `multiline`, when
 * they become Markdown hard breaks.
 */
export function escapeMarkdown(text: string, options: { multiline?: boolean } = {}): string {
  const escaped = text.replace(/\r\n?/g, '\n').replace(ASCII_PUNCTUATION, (c) => `\\${c}`);
  return options.multiline ? escaped.split('\n').map((l) => l.trimStart()).join('  \n') : escaped.replace(/\s*\n\s*/g, ' ');
}

/**
 * Escapes text for VS Code's "linked text" (notifications, progress notifications, input box prompts and
 * validation messages): a link there is exactly `[label](target)` with nothing between `]` and `(`, so a
 * space is put between them. The text stays readable and shows what was attempted. Idempotent.
 */
export function escapeLinkedText(text: string): string {
  return text.replace(/\]\(/g, '] (');
}

/** Escapes `$(name)` so that a quick pick or status bar shows it as text instead of an icon. Idempotent. */
export function escapeIcons(text: string): string {
  return text.replace(/(\\?)\$\(/g, (m, slash: string) => (slash ? m : '\\$('));
}


/** C0 controls but tab and newline, DEL, and C1 controls: ESC starts terminal escape sequences (colours, titles, OSC 8 links). */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Plain text for a terminal: control characters that a terminal would act on (ESC sequences that recolour,
 * retitle, hide text or make links; carriage returns that overwrite a line) and bidi controls are shown as
 * visible `<U+001B>` tokens. Line breaks (`\r\n` too) and tabs are kept.
 */
export function terminalText(text: string): string {
  const codePoint = (c: string) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
  return revealBidi(text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROL, codePoint));
}

/**
 * A model's Markdown answer (a follow-up in a review thread, the chat), kept readable as Markdown but unable to
 * act: outside fenced code blocks, raw HTML, links, images and autolinks are broken by escaping `<`, `](`, `![`
 * and `://`. Code blocks stay as they are (they render as text). For surfaces that also refuse command links and
 * HTML on their own (a MarkdownString that is not trusted); this is the second guard.
 */
export function proseMarkdown(text: string): string {
  let fence: string | undefined;
  return revealBidi(text.replace(/\r\n?/g, '\n'))
    .split('\n')
    .map((line) => {
      const mark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (mark && mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
        return line;
      }
      if (mark) {
        fence = mark;
        return line;
      }
      return line.replace(/</g, '\\<').replace(/!\[/g, '!\\[').replace(/\]\(/g, ']\\(').replace(/\]\[/g, ']\\[').replace(/:\/\//g, '\\://');
    })
    .join('\n');
}
