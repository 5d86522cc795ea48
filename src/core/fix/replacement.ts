import { findBidi } from '../../shared/bidi';

/**
 * Whether a model's "replacement" for some lines is code for those lines, so that "Apply" may offer it.
 * Models put advice in that field as often as code ("Use a parameterized query: cur.execute(...)"); pasted
 * over the lines, advice breaks the file. Pure and language-agnostic; the host adds a parser check where it
 * has one (TypeScript/JavaScript).
 */

/** English words that are not keywords or common identifiers in programming languages. */
const PROSE_WORDS = new Set(['the', 'should', 'instead', 'your', 'you', 'rather', 'than', 'because', 'consider', 'ensure', 'please',
  'recommend', 'recommended', 'parameterized', 'parameterised', 'avoid', 'prefer', 'make', 'sure', 'which', 'would', 'could', 'this', 'that', 'using']);
const PROSE_START = /^(use|consider|replace|avoid|add|remove|change|ensure|instead|prefer|validate|sanitize|sanitise|escape|move|wrap|refactor|do not|don't|never|always|make sure|you|we|it is|this|the|a|an)\s+[a-z]/i;
const LETTERS_OF_PROSE_SCRIPTS = /[\u1100-\u11FF\u3040-\u30FF\u3130-\u318F\u3400-\u9FFF\uAC00-\uD7AF]/;

/** The text without string literals and comments (what is left is what a parser would read as code). */
function codeOnly(text: string): string {
  return text
    .replace(/"""[\s\S]*?"""|'''[\s\S]*?'''|`(?:\\[\s\S]|[^\\`])*`/g, '""')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, '""')
    .replace(/(^|\s)(\/\/|#|--)[^\n]*/g, '$1');
}

function proseLine(line: string): boolean {
  const l = line.trim();
  if (l === '') return false;
  if (LETTERS_OF_PROSE_SCRIPTS.test(l)) return true;
  const words = l.toLowerCase().match(/[a-z']+/g) ?? [];
  const proseWords = words.filter((w) => PROSE_WORDS.has(w)).length;
  // "Use a parameterized query: …", "Consider validating the input."
  if (PROSE_START.test(l) && (/^[A-Z]/.test(l) || proseWords > 0) && /^[A-Za-z' ]+[:.,]?(\s|$)/.test((l.split(/[:.](\s|$)/)[0] ?? '') + ':')) {
    const head = l.split(/[:.,(]/)[0] ?? '';
    if (head.trim().split(/\s+/).length >= 3) return true;
  }
  // A sentence: three or more plain words in a row and words that only prose uses.
  if (proseWords >= 2 && /[a-z]+ [a-z]+ [a-z]+/i.test(l)) return true;
  // Ends like a sentence: "… the value." (code lines do not end in a word and a full stop).
  if (/[a-z]{2,}\.$/i.test(l) && /^[A-Za-z][A-Za-z' ,]+\.$/.test(l) && words.length >= 4) return true;
  return false;
}

/** Languages whose files are prose, where a replacement in words is what the file holds (the prose check is off). */
export const PROSE_LANGUAGES: ReadonlySet<string> = new Set(['markdown', 'plaintext', 'restructuredtext', 'latex', 'asciidoc']);

/** True when the text reads as advice rather than code. */
export function looksLikeProse(text: string): boolean {
  const code = codeOnly(text.replace(/\r\n?/g, '\n'));
  return code.split('\n').some(proseLine);
}

const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? '';
const firstNonBlank = (lines: readonly string[]) => lines.find((l) => l.trim() !== '');

export type ReplacementVerdict =
  | { ok: true; code: string }
  | { ok: false; reason: 'bidi' | 'prose' | 'indentation' };

/**
 * Whether `replacement` may replace `original` (whole lines): no bidi control characters, not prose, and at
 * the lines' indentation. A replacement written from column 0 for indented lines is moved to their
 * indentation (every line, keeping its relative indentation); any other indentation mismatch is refused.
 * `prose` is true for languages whose files are prose (Markdown, plain text), where the prose check is off.
 */
export function fitReplacement(replacement: string, original: string, options: { prose?: boolean } = {}): ReplacementVerdict {
  if (findBidi(replacement).length > 0) return { ok: false, reason: 'bidi' };
  if (!options.prose && looksLikeProse(replacement)) return { ok: false, reason: 'prose' };
  const lines = replacement.replace(/\r\n?/g, '\n').split('\n');
  const was = firstNonBlank(original.replace(/\r\n?/g, '\n').split('\n'));
  const now = firstNonBlank(lines);
  if (was === undefined || now === undefined) return { ok: true, code: replacement };
  const base = indentOf(was);
  const given = indentOf(now);
  if (given === base) return { ok: true, code: replacement };
  const minIndent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => indentOf(l).length));
  if (given === '' && minIndent === 0 && base !== '') {
    return { ok: true, code: lines.map((l) => (l.trim() === '' ? l : base + l)).join('\n') };
  }
  return { ok: false, reason: 'indentation' };
}

/** Whether `code`, proposed for a file in `language`, is advice in words rather than code (prose languages take words). */
export function isAdvice(code: string, language: string | undefined): boolean {
  return !PROSE_LANGUAGES.has(language ?? '') && looksLikeProse(code);
}
