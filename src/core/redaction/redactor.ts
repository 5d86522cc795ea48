import type { Region, RemovedLines } from '../domain/target';
import { findSecretSpans, type SecretSpan } from './secretRules';

/**
 * The one redactor: every removal of a key or a secret goes through this module. It works on VALUES (a string,
 * or the strings inside a report object), never on a serialised document, so a JSON, SARIF or Markdown output
 * stays what its renderer made, whatever the reviewed code says. It has two jobs:
 *
 * 1. Key scrubbing, for what Quorum prints, logs, caches or shows: `scrubKey` removes the known keys (the API
 *    key, a base URL's password), whole, cut or masked, and nothing else; `scrubSecrets` also removes secrets
 *    the detectors find, for text that is not repository content (gateway errors, logs, notifications).
 * 2. Secret redaction, for what is sent: `SecretRedactor` replaces every detected secret in reviewed code (added,
 *    context and removed lines, and any other snippet of the repository) by a placeholder of its kind,
 *    `[REDACTED:github-token]`, keeping line breaks so that every line keeps its number, and keeps the values
 *    in a `SecretVault` to put the user's text back when a suggestion is applied.
 *
 * Code or text that merely looks like a credential (`"Authorization: *"`, `Bearer <token>`) is never touched:
 * only the keys it was given and secrets a detector recognised (`secretRules.ts`, and secretlint's preset in
 * `secretlint.ts`, loaded when a review first redacts) are.
 */

export const REDACTED = '[redacted]';

// ---- key scrubbing ----

/** Shortest run of a secret's characters, or masked form, that counts as the secret showing through. */
const MIN_FRAGMENT = 12;
/** Shortest secret that is redacted at all (whole). */
const MIN_SECRET = 4;

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

type Secrets = string | readonly (string | undefined)[] | undefined;

function knownSecrets(secrets: Secrets): string[] {
  return (typeof secrets === 'string' ? [secrets] : (secrets ?? []))
    .map((s) => s?.trim() ?? '')
    .filter((s) => s.length >= MIN_SECRET)
    // Longest first, so that a secret that contains another is removed whole.
    .sort((a, b) => b.length - a.length);
}

/**
 * `text` without the known `secrets`: whole (4 characters or more), any run of 12 or more consecutive characters
 * of one (a gateway that cuts a prefix off), and masked forms (`sk-proj-ABCD****wxyz`: the key's start, a mask,
 * its end, 12 characters or more in all). Nothing else changes: a shorter run of a key's characters (a folder
 * named `quorum-hostile-x` when the key contains `-hostile-`) stays as it is.
 */
export function scrubKey(text: string, secrets: Secrets): string {
  const known = knownSecrets(secrets);
  let out = text;
  for (const s of known) out = out.split(s).join(REDACTED);
  for (const s of known) if (s.length >= MIN_FRAGMENT) out = scrubRuns(scrubMasked(out, s), s);
  return out;
}

/**
 * `scrubKey`, then every secret Quorum's detectors recognise (a bearer token, an `sk-` key it never saw, a
 * password in a URL): for text that does not come from the repository — a gateway's error, a log line, a
 * notification — where a credential of any origin must not show.
 */
export function scrubSecrets(text: string, secrets?: Secrets): string {
  const out = scrubKey(text, secrets);
  const spans = mergeSpans(findSecretSpans(out));
  if (spans.length === 0) return out;
  let result = '';
  let at = 0;
  for (const s of spans) {
    result += out.slice(at, s.start) + REDACTED;
    at = s.end;
  }
  return result + out.slice(at);
}

/** `value` with every string inside it (nested in arrays and plain objects) passed through `scrub`; other values stay. */
export function scrubStrings<T>(value: T, scrub: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    const proto: unknown = v && typeof v === 'object' ? Object.getPrototypeOf(v) : undefined;
    if (v && typeof v === 'object' && (proto === Object.prototype || proto === null)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  // The walk keeps every shape: arrays stay arrays, plain objects keep their keys, strings stay strings.
  return walk(value) as T;
}

/** The keys this session has read or stored, and every detected secret, removed from everything passed through it. */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Remembers a key so that every later `redact` removes it. Very short strings are ignored. */
  add(secret: string | undefined): void {
    const s = secret?.trim();
    if (s && s.length >= MIN_SECRET) this.secrets.add(s);
  }

  redact(text: string): string {
    return scrubSecrets(text, [...this.secrets]);
  }

  /** Redacts every string inside a JSON-like value (for objects logged or posted as data). */
  redactValue<T>(value: T): T {
    return scrubStrings(value, (t) => this.redact(t));
  }
}

// ---- secret redaction before sending ----

/** What was redacted, for the user: the kind and the lines, never the value. */
export interface Redaction {
  kind: string;
  /** The file, in a review of several files. */
  file?: string;
  /** 1-based, in the file's numbering (a removed line: the line after which it went away). */
  line: number;
  endLine: number;
  placeholder: string;
}

const PLACEHOLDER = /\[REDACTED:[a-z0-9-]+(?:#\d+)?\]/g;

/**
 * The values behind the placeholders of one review, kept in memory to put the user's real text back when a
 * suggestion is applied. Its fields are private: serialising it (a cache, a log, a message) shows nothing.
 */
export class SecretVault {
  readonly #segments = new Map<string, string[]>();

  add(placeholder: string, segments: readonly string[]): void {
    this.#segments.set(placeholder, [...(this.#segments.get(placeholder) ?? []), ...segments]);
  }

  get size(): number {
    return this.#segments.size;
  }

  /**
   * `text` with each placeholder put back to the value it stands for. A multi-line secret's placeholder is
   * repeated on each of its lines; its n-th occurrence gets the n-th line back.
   */
  restore(text: string): string {
    if (this.#segments.size === 0) return text;
    const seen = new Map<string, number>();
    return text.replace(PLACEHOLDER, (p) => {
      const segments = this.#segments.get(p);
      if (!segments || segments.length === 0) return p;
      const n = seen.get(p) ?? 0;
      seen.set(p, n + 1);
      return segments[Math.min(n, segments.length - 1)] ?? p;
    });
  }

  /** Another vault holding this one's values and `other`'s (a review across files has one per region). */
  merge(other: SecretVault): void {
    for (const [p, s] of other.#segments) this.add(p, s);
  }

  toJSON(): Record<string, never> {
    return {};
  }
}

/** Overlapping spans become one (the earliest-starting span's kind), so no part of a secret is left out. */
function mergeSpans(spans: readonly SecretSpan[]): SecretSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      last.end = Math.max(last.end, s.end);
      continue;
    }
    out.push({ ...s });
  }
  return out;
}

/** Every secret found in `text` (secretlint's preset and Quorum's rules), as non-overlapping spans in order. */
async function findSecrets(text: string): Promise<SecretSpan[]> {
  let fromSecretlint: SecretSpan[] = [];
  try {
    fromSecretlint = await (await import('./secretlint')).secretlintSpans(text);
  } catch {
    // Quorum's own rules still run; they cover every kind the preset has.
  }
  return mergeSpans([...fromSecretlint, ...findSecretSpans(text)]);
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * The secret redaction of one review: every piece of repository text it sends (a region's lines, its removed
 * lines, a context snippet) passes through one of these, so that placeholders are numbered across the review,
 * every redaction is listed and every value is in one vault.
 */
export class SecretRedactor {
  readonly vault = new SecretVault();
  readonly redactions: Redaction[] = [];
  readonly #counter = new Map<string, number>();

  /**
   * `text` with every secret replaced by its placeholder (line breaks kept). `startLine` is the file's number of
   * its first line, so that the redactions name the file's lines; `file` names the file in the redactions.
   */
  redactSnippet(text: string, startLine = 1, file?: string): Promise<string> {
    return this.#redact(text, file, (offset, secret) => {
      const line = startLine + countLines(text, 0, offset);
      return { line, endLine: line + countLines(secret, 0, secret.length) };
    });
  }

  /**
   * `region` with its lines AND its removed lines redacted (a change that deletes a secret must not send it);
   * `file` names the file in the redactions (a review of several regions).
   */
  async redactRegion(region: Region, file?: string): Promise<Region> {
    const text = await this.redactSnippet(region.text, region.startLine, file);
    if (!region.removed) return { ...region, text };
    const removed: RemovedLines[] = [];
    for (const r of region.removed) {
      // Removed lines have no number in the new file: their redactions name the line they went away after.
      const line = Math.max(1, r.after);
      const joined = await this.#redact(r.lines.join('\n'), file, () => ({ line, endLine: line }));
      removed.push({ ...r, lines: joined.split('\n') });
    }
    return { ...region, text, removed };
  }

  async #redact(text: string, file: string | undefined, lines: (offset: number, secret: string) => { line: number; endLine: number }): Promise<string> {
    const spans = await findSecrets(text);
    let out = '';
    let at = 0;
    for (const span of spans) {
      const n = (this.#counter.get(span.kind) ?? 0) + 1;
      this.#counter.set(span.kind, n);
      const placeholder = `[REDACTED:${span.kind}${n > 1 ? `#${n}` : ''}]`;
      const secret = text.slice(span.start, span.end);
      const segments: string[] = [];
      // Line by line, so that a multi-line secret keeps its line breaks (and `\r`s) where they were.
      const replaced = secret.replace(/[^\r\n]+/g, (segment) => {
        segments.push(segment);
        return placeholder;
      });
      this.vault.add(placeholder, segments);
      this.redactions.push({ kind: span.kind, ...(file !== undefined ? { file } : {}), ...lines(span.start, secret), placeholder });
      out += text.slice(at, span.start) + replaced;
      at = span.end;
    }
    return out + text.slice(at);
  }
}
