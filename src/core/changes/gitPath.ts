/**
 * Git's C-style quoting of paths in a patch's headers (git's `quote.c`): a path with a control character, a double
 * quote or a backslash — and, with `core.quotePath` on (git's default), any byte over 0x7f — is written between
 * double quotes with `\t \n \" \\ …` and three-digit octal escapes of its bytes (`"a/caf\303\251.py"`). No
 * option turns this off for patch text (`-z` applies to `--raw`, `--name-only` and `--numstat` only), so the names
 * are read back here, for the command line's diff and the Git extension's alike.
 */

/** The single-letter escapes of `quote_c_style`, and the bytes they stand for. */
const ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
const LETTER_OF = new Map(Object.entries(ESCAPES).map(([letter, byte]) => [byte, letter]));
const utf8 = new TextEncoder();

/**
 * A quoted path at `text[at]` (which is `"`): the path, and where its closing quote ends; undefined when the
 * quotes do not close. Escaped bytes and the characters between them are one UTF-8 byte string.
 */
export function readQuoted(text: string, at: number): { path: string; end: number } | undefined {
  const bytes: number[] = [];
  let i = at + 1;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '"') return { path: new TextDecoder('utf-8').decode(Uint8Array.from(bytes)), end: i + 1 };
    if (c !== '\\') {
      // A character git left as it is (quotePath off, or a diff already decoded): its UTF-8 bytes.
      const cp = text.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      bytes.push(...utf8.encode(ch));
      i += ch.length;
      continue;
    }
    const next = text[i + 1] ?? '';
    const octal = /^[0-3][0-7]{2}/.exec(text.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 4;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next] ?? 0);
      i += 2;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** A path as a patch header writes it: quoted when git would quote it, as it is otherwise. */
export function headerPath(path: string): string {
  // eslint-disable-next-line no-control-regex -- git quotes a path that holds control characters; this finds them
  if (!/[\u0000-\u001f"\\\u007f]/.test(path)) return path;
  let out = '"';
  for (const ch of path) {
    const byte = ch.charCodeAt(0);
    const letter = ch.length === 1 ? LETTER_OF.get(byte) : undefined;
    if (letter !== undefined) out += `\\${letter}`;
    else if (ch.length === 1 && (byte < 0x20 || byte === 0x7f)) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return out + '"';
}
