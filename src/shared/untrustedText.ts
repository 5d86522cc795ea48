/**
 * Text that did not come from Quorum — model output, gateway error messages, `/models` ids, settings values,
 * file names, repository text — made safe for the surface that shows it, and the Markdown primitives every
 * renderer builds with. Escaping, code spans and fences are written here and nowhere else, so that such text is
 * shown as the characters it is and can never become a link, a command link, an image, HTML, an icon, a
 * mention or a block of its own. Pure: the host, the command line and the page all use it.
 *
 * Which escape goes where:
 * - `escapeInline`: a Markdown document (the panel's Export, `--format markdown`, a CI step summary, SARIF's
 *   help, the MCP result, What Will Be Sent): one line, no HTML, emphasis, link or block, still readable as text.
 * - `escapeMarkdown`: a `MarkdownString` (hover, status bar tooltip, chat, review threads) or any
 *   CommonMark/GFM renderer: every ASCII punctuation character escaped.
 * - `proseMarkdown`: a model's Markdown answer kept as Markdown (a follow-up, the chat) but unable to link.
 * - `commentText`, `commentLine`: a GitHub or GitLab comment, where text can also mention someone or
 *   reference an issue.
 * - `codeSpan`, `fence`: code or a name shown verbatim, in a span or a block that the text cannot close.
 * - `escapeLinkedText`: notifications (`show*Message`, progress notifications) and input box prompts and
 *   validation messages. VS Code renders `[label](https://…|command:…|file:…)` there as a clickable link and
 *   knows no backslash escapes, so the link syntax itself is broken.
 * - `escapeIcons`: quick pick labels, descriptions and details, status bar text (`$(name)` renders an icon).
 * - `terminalText`: plain text for a terminal or a log file (the CLI's text output).
 */

import { revealBidi } from './bidi';

/** Every ASCII punctuation character: CommonMark lets each of them be backslash-escaped. */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

// eslint-disable-next-line no-control-regex -- control characters are what this finds: they are dropped, not shown
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;

// eslint-disable-next-line no-control-regex -- control characters are what this finds: a terminal would act on them
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

const ZERO_WIDTH_SPACE = '\u200b';

/** Line breaks as `\n`. */
const unixLines = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * Escapes text for a Markdown document's paragraph, heading or table cell: no HTML, no emphasis, no links, no
 * block (heading, list) at its start; one line; bidi controls shown as `<U+202E>` tokens.
 */
export function escapeInline(text: string): string {
  return revealBidi(text)
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/^(\s*)([#+-])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])(?=\s|$)/, '$1\\$2');
}

/**
 * Escapes text for a Markdown paragraph or table cell: every ASCII punctuation character is backslash-escaped,
 * so no link, image, autolink (`https://…`, `www.…`, `a@b.c`), raw HTML, entity, code span, emphasis, heading,
 * list, table cell break or theme icon (`$(…)`) can start; bidi controls are shown as `<U+202E>` tokens. Line
 * breaks become spaces unless `multiline`, when they become Markdown hard breaks.
 */
export function escapeMarkdown(text: string, options: { multiline?: boolean } = {}): string {
  const escaped = unixLines(revealBidi(text)).replace(ASCII_PUNCTUATION, (c) => `\\${c}`);
  return options.multiline ? escaped.split('\n').map((l) => l.trimStart()).join('  \n') : escaped.replace(/\s*\n\s*/g, ' ');
}

/**
 * A code span of one line (`maxChars` at most): backticks inside become quotes, so nothing can close it early;
 * line breaks, controls and bidi characters become spaces.
 */
export function codeSpan(text: string, maxChars = Infinity): string {
  const flat = text.replace(/`/g, "'").replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim().slice(0, maxChars);
  return `\`${flat || ' '}\``;
}

/** Backticks for a fence around `text`: three, or more than its longest run, so that the text cannot close it. */
export function fenceMarks(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A fenced code block whose fence the code cannot close. `info`: the language (`ts`) or a host's keyword
 * (`suggestion`, GitLab's `suggestion:-1+0`); anything else is left out.
 */
export function fence(code: string, info = ''): string {
  const marks = fenceMarks(code);
  const tag = /^[\w+:-]{1,40}$/.test(info) ? info : '';
  return `${marks}${tag}\n${unixLines(code).replace(/\n$/, '')}\n${marks}`;
}

/**
 * Untrusted prose for a GitHub or GitLab comment, as plain text (`maxChars` at most): it cannot open raw HTML (so
 * no comment marker, hidden text or forged Quorum marker), ping anyone (`@name`, `@org/team`), reference an
 * issue, merge request, label, milestone, snippet or epic (`#1`, `!1`, `~bug`, `%v1`, `$1`, `&1`: GitLab would
 * link them and note the mention on the other side), open or close a code fence, turn into a link or an image,
 * or start a block (heading, quote, list, table) that swallows what follows.
 */
export function commentText(text: string, maxChars: number): string {
  const cut = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  return unixLines(cut)
    // GitLab's references (https://docs.gitlab.com/user/markdown/#gitlab-specific-references): broken before escaping.
    .replace(/([#!~%$&])(?=[\p{L}\p{N}_"'])/gu, `$1${ZERO_WIDTH_SPACE}`)
    .replace(INVISIBLE, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]!|~#])/g, '\\$1')
    .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${ZERO_WIDTH_SPACE}`)
    .replace(/^(\s*)([-+=]|\d+[.)])(?=\s|$)/gm, '$1\\$2')
    .replace(/(https?|ftp):\/\//gi, `$1:${ZERO_WIDTH_SPACE}//`);
}

/** Untrusted prose on one line of a comment (titles, names). */
export function commentLine(text: string, maxChars: number): string {
  return commentText(text.replace(/\s+/g, ' ').trim(), maxChars);
}

/**
 * A model's Markdown answer (a follow-up in a review thread, the chat), kept readable as Markdown but unable to
 * act: outside fenced code blocks, raw HTML, links, images and autolinks are broken by escaping `<`, `](`, `![`
 * and `://`. Code blocks stay as they are (they render as text). For surfaces that also refuse command links and
 * HTML on their own (a MarkdownString that is not trusted); this is the second guard.
 */
export function proseMarkdown(text: string): string {
  let open: string | undefined;
  return revealBidi(unixLines(text))
    .split('\n')
    .map((line) => {
      const mark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (open) {
        if (mark && mark[0] === open[0] && mark.length >= open.length) open = undefined;
        return line;
      }
      if (mark) {
        open = mark;
        return line;
      }
      return line.replace(/</g, '\\<').replace(/!\[/g, '!\\[').replace(/\]\(/g, ']\\(').replace(/\]\[/g, ']\\[').replace(/:\/\//g, '\\://');
    })
    .join('\n');
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

/**
 * Plain text for a terminal: control characters that a terminal would act on (ESC sequences that recolour,
 * retitle, hide text or make links; carriage returns that overwrite a line) and bidi controls are shown as
 * visible `<U+001B>` tokens. Line breaks (`\r\n` too) and tabs are kept.
 */
export function terminalText(text: string): string {
  const codePoint = (c: string) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
  return revealBidi(text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROL, codePoint));
}
