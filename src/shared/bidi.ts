/**
 * Bidirectional control characters in model output ("Trojan Source", CVE-2021-42574): invisible characters
 * that reorder how code is displayed, so that it reads differently from how it runs. The panel shows each as
 * a visible token, and a fix that contains one is not applied.
 */

/** LRE, RLE, PDF, LRO, RLO (U+202A–202E), LRI, RLI, FSI, PDI (U+2066–2069), LRM, RLM (U+200E/200F), ALM (U+061C). */
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

const codePoint = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** The text with each bidi control character replaced by a visible `<U+202E>` token. */
export function revealBidi(text: string): string {
  return text.replace(BIDI_CONTROL, (c) => `<${codePoint(c)}>`);
}

interface BidiHit {
  /** 1-based line within the text. */
  line: number;
  /** e.g. `U+202E`. */
  codePoint: string;
}

/** Every bidi control character in the text, with its line (empty when there is none). */
export function findBidi(text: string): BidiHit[] {
  const hits: BidiHit[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(BIDI_CONTROL)) hits.push({ line: i + 1, codePoint: codePoint(m[0]) });
  });
  return hits;
}
