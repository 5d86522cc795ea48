/**
 * Removes secrets from text before it reaches a log, an error message or the webview. Known secrets (the
 * API keys this session has read or stored) are replaced wherever they occur; bearer tokens and
 * `sk-…`-style keys are masked even when we never saw them. Plain TypeScript: no `vscode`.
 */
export const REDACTED = '[redacted]';

const PATTERNS: readonly [RegExp, string][] = [
  [/(authorization["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^\s"',}]+/gi, `$1${REDACTED}`],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]{4,}/gi, `Bearer ${REDACTED}`],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, `$1-${REDACTED}`],
  [/((?:api[_-]?key|x-api-key)["']?\s*[:=]\s*["']?)[^\s"',}&]+/gi, `$1${REDACTED}`],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Redactor {
  private readonly secrets = new Set<string>();
  private matcher: RegExp | undefined;

  /** Remembers a secret so that every later `redact` removes it. Very short strings are ignored. */
  add(secret: string | undefined): void {
    const s = secret?.trim();
    if (!s || s.length < 4 || this.secrets.has(s)) return;
    this.secrets.add(s);
    // Longest first, so that a key that contains another is removed whole.
    const sorted = [...this.secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.matcher = new RegExp(sorted.join('|'), 'g');
  }

  redact(text: string): string {
    let out = this.matcher ? text.replace(this.matcher, REDACTED) : text;
    for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
    return out;
  }

  /** Redacts every string inside a JSON-like value (for objects logged or posted as data). */
  redactValue<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.redactValue(v)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.redactValue(v);
      return out as T;
    }
    return value;
  }
}
