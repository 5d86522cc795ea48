/**
 * The one redactor: removes the API key from text before it reaches a log, an error, the CLI's output, a cache
 * or the webview. What is removed:
 * - a known secret wherever it appears whole (secrets shorter than 4 characters are ignored);
 * - any run of 12 or more consecutive characters of a known secret (a gateway that cuts a prefix off);
 * - a masked form of a known secret (`sk-proj-ABCD****wxyz`, `sk-…wxyz`): the key's start, a mask, the key's
 *   end, 12 characters or more in all;
 * - bearer tokens, `Authorization` and `api_key` values, and `sk-`-style keys it never saw.
 * Ordinary text is never touched: a shorter run of a key's characters (a folder named `quorum-hostile-x` when
 * the key contains `-hostile-`) stays as it is.
 */

export const REDACTED = '[redacted]';

/** Shortest run of a secret's characters, or masked form, that counts as the secret showing through. */
const MIN_FRAGMENT = 12;
/** Shortest secret that is redacted at all (whole). */
const MIN_SECRET = 4;

const PATTERNS: readonly [RegExp, string][] = [
  [/(authorization["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^\s"',}]+/gi, `$1${REDACTED}`],
  [/\bbearer\s+(?:(?=[\w.~+/=-]*\d)[\w.~+/=-]{4,}|[\w.~+/=-]{20,})/gi, `Bearer ${REDACTED}`],
  [/\b(sk|pk|rk)-(?=[\w-]*\d)[\w-]{16,}/g, `$1-${REDACTED}`],
  [/((?:api[_-]?key|x-api-key)["']?\s*[:=]\s*["']?)[^\s"',}&]+/gi, `$1${REDACTED}`],
];

/** A mask that a gateway puts in the middle of a key it echoes. */
const MASK = /[*•·…x]{3,}|\.{3,}|…/g;

/** Replaces every run of MIN_FRAGMENT or more consecutive characters of `secret` in `text`, extended to the longest run. */
function scrubRuns(text: string, secret: string): string {
  let out = text;
  for (let i = 0; i + MIN_FRAGMENT <= secret.length; i++) {
    const window = secret.slice(i, i + MIN_FRAGMENT);
    let at = out.indexOf(window);
    while (at >= 0) {
      let start = at;
      let end = at + MIN_FRAGMENT;
      let from = i;
      let to = i + MIN_FRAGMENT;
      while (start > 0 && from > 0 && out[start - 1] === secret[from - 1]) { start--; from--; }
      while (end < out.length && to < secret.length && out[end] === secret[to]) { end++; to++; }
      out = `${out.slice(0, start)}${REDACTED}${out.slice(end)}`;
      at = out.indexOf(window, start + REDACTED.length);
    }
  }
  return out;
}

/** Replaces masked forms of `secret`: its first characters, a mask, its last characters, MIN_FRAGMENT or more in all. */
function scrubMasked(text: string, secret: string): string {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(MASK)) {
    const maskStart = m.index;
    const maskEnd = maskStart + m[0].length;
    let head = Math.min(maskStart, secret.length);
    while (head > 0 && text.slice(maskStart - head, maskStart) !== secret.slice(0, head)) head--;
    let tail = Math.min(text.length - maskEnd, secret.length);
    while (tail > 0 && text.slice(maskEnd, maskEnd + tail) !== secret.slice(secret.length - tail)) tail--;
    const shown = head + tail;
    if (shown >= MIN_SECRET && shown < secret.length && shown + (maskEnd - maskStart) >= MIN_FRAGMENT) spans.push([maskStart - head, maskEnd + tail]);
  }
  let out = text;
  for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}${REDACTED}${out.slice(end)}`;
  return out;
}

/** `text` without `secrets` (whole, cut or masked) and without anything shaped like a bearer token or secret key. */
export function redact(text: string, secrets: string | readonly (string | undefined)[] | undefined): string {
  const known = (typeof secrets === 'string' ? [secrets] : (secrets ?? []))
    .map((s) => s?.trim() ?? '')
    .filter((s) => s.length >= MIN_SECRET)
    // Longest first, so that a secret that contains another is removed whole.
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of known) out = out.split(s).join(REDACTED);
  for (const s of known) if (s.length >= MIN_FRAGMENT) out = scrubRuns(scrubMasked(out, s), s);
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

/** The secrets this session has read or stored, redacted from everything passed through it. */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Remembers a secret so that every later `redact` removes it. Very short strings are ignored. */
  add(secret: string | undefined): void {
    const s = secret?.trim();
    if (s && s.length >= MIN_SECRET) this.secrets.add(s);
  }

  redact(text: string): string {
    return redact(text, [...this.secrets]);
  }

  /** Redacts every string inside a JSON-like value (for objects logged or posted as data). */
  redactValue(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.redactValue(v)]));
    return value;
  }
}
