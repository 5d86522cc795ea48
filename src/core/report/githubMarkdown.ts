/**
 * Untrusted text (model output, file names) made safe for a GitHub or GitLab comment: it cannot open raw HTML (so
 * no comment marker, hidden text or forged Quorum marker), ping anyone (`@name`, `@org/team`), reference an
 * issue, merge request, label, milestone, snippet or epic (`#1`, `!1`, `~bug`, `%v1`, `$1`, `&1`: GitLab would
 * link them and note the mention on the other side), open or close a code fence, turn into a link or an image,
 * or start a block (heading, quote, list, table) that swallows what follows.
 */

const ZERO_WIDTH_SPACE = '\u200b';

/** One line or paragraph of untrusted prose, rendered as plain text. */
export function plainText(text: string, maxChars: number): string {
  const cut = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  return cut
    .replace(/\r\n?/g, '\n')
    // GitLab's references (https://docs.gitlab.com/user/markdown/#gitlab-specific-references): broken before escaping.
    .replace(/([#!~%$&])(?=[\p{L}\p{N}_"'])/gu, `$1${ZERO_WIDTH_SPACE}`)
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]!|~#])/g, '\\$1')
    .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${ZERO_WIDTH_SPACE}`)
    .replace(/^(\s*)([-+=]|\d+[.)])(?=\s|$)/gm, '$1\\$2')
    .replace(/(https?|ftp):\/\//gi, `$1:${ZERO_WIDTH_SPACE}//`);
}

/** Untrusted prose on one line (titles, names). */
export function inlineText(text: string, maxChars: number): string {
  return plainText(text.replace(/\s+/g, ' ').trim(), maxChars);
}

/** A fenced block of `code` (shown verbatim) whose fence no line of the code can close. */
export function fenced(info: string, code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = code.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Untrusted text as an inline code span (shown verbatim: no HTML, no mention, no link); backticks and line breaks dropped. */
export function codeSpan(text: string, maxChars: number): string {
  const flat = text.replace(/[`\r\n\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, maxChars);
  return `\`${flat || ' '}\``;
}
