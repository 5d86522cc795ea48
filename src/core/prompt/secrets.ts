import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { findSecretSpans, type SecretSpan } from './secretRules';

/**
 * Secret redaction before anything is sent: secretlint's recommended preset plus Quorum's own rules
 * (`secretRules.ts`). Each secret becomes a placeholder of its kind, `[REDACTED:github-token]`, and a secret
 * that spans lines (a PEM body) keeps its line breaks, so every line keeps its number.
 */

/** What was redacted, for the user: the kind and the lines, never the value. */
export interface Redaction {
  kind: string;
  /** The file, in a review of several files. */
  file?: string;
  /** 1-based, in the file's numbering. */
  line: number;
  endLine: number;
  placeholder: string;
}

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

const PLACEHOLDER = /\[REDACTED:[a-z0-9-]+(?:#\d+)?\]/g;

interface RedactedText {
  text: string;
  redactions: Redaction[];
  vault: SecretVault;
}

/** secretlint rule (without its `@secretlint/secretlint-rule-` prefix) and message id → Quorum's kind. */
const SECRETLINT_KINDS: Record<string, string> = {
  'aws:AWSAccessKeyID': 'aws-access-key-id',
  'aws:AWSSecretAccessKey': 'aws-secret-access-key',
  'gcp:PrivateKeyJSON': 'gcp-service-account-key',
  'npm:PackageJSON_xOauthToken': 'npm-token',
  'npm:Npmrc_authToken': 'npm-token',
  'linear:LINEAR_API_TOKEN': 'linear-api-key',
  'sendgrid:SENDGRID_KEY': 'sendgrid-api-key',
  'shopify:SHOPIFY_KEY': 'shopify-token',
  '1password:OPS_TOKEN': 'onepassword-token',
  'privatekey:PrivateKey': 'private-key',
  'basicauth:BasicAuth': 'url-password',
  'github:GITHUB_TOKEN': 'github-token',
  'slack:SLACK_TOKEN': 'slack-token',
  'slack:IncomingWebhook': 'slack-webhook',
  'npm:NPM_ACCESS_TOKEN': 'npm-token',
  'openai:OPENAI_TOKEN': 'openai-api-key',
};
/** Rules of the preset that report things that are not secrets in code under review (file names, home paths). */
const SKIPPED_RULES = new Set(['no-dotenv', 'no-homedir', 'filter-comments', 'no-k8s-kind-secret']);
/** Kinds whose secretlint span covers more than the secret; Quorum's own rules narrow them. */
const NARROWED = new Set(['private-key', 'url-password']);

const config: SecretLintCoreConfig = {
  rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }],
};

function kindOf(ruleId: string, messageId: string): string | undefined {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
  if (SKIPPED_RULES.has(rule)) return undefined;
  if (rule === 'aws' && /account/i.test(messageId)) return undefined;
  const known = SECRETLINT_KINDS[`${rule}:${messageId}`];
  if (known) return known;
  return rule.replace(/[^a-z0-9]+/gi, '-').toLowerCase() + '-secret';
}

/**
 * secretlint times every lint with performance marks (about 32 per call) and its profiler keeps them all, in the
 * process's performance timeline and in a list it searches from the start on every mark: in a long-lived
 * extension host, redaction grew slower with every review and its marks were never freed (60 regions cost 100 ms
 * of CPU, 10 ms without). Quorum never reads those timings, so the profiler is given nowhere to mark.
 */
// `perf` is private in secretlint's types (a plain field at run time); a unit test checks that no mark is left.
(secretLintProfiler as unknown as { perf: { mark(name: string): void; measure(name: string): void } }).perf = { mark: () => undefined, measure: () => undefined };

async function secretlintSpans(text: string): Promise<SecretSpan[]> {
  const result = await lintSource({
    source: { filePath: '/quorum/reviewed-text', content: text, contentType: 'text' },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const spans: SecretSpan[] = [];
  for (const m of result.messages) {
    const kind = kindOf(m.ruleId, m.messageId);
    const [start, end] = m.range;
    if (!kind || !(end > start)) continue;
    if (NARROWED.has(kind)) {
      const inner = findSecretSpans(text.slice(start, end)).filter((s) => s.kind === kind);
      if (inner.length > 0) {
        spans.push(...inner.map((s) => ({ ...s, start: s.start + start, end: s.end + start })));
        continue;
      }
    }
    spans.push({ start, end, kind });
  }
  return spans;
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

/** Every secret found in `text` (secretlint's and Quorum's rules), as non-overlapping spans in order. */
async function findSecrets(text: string): Promise<SecretSpan[]> {
  let fromSecretlint: SecretSpan[] = [];
  try {
    fromSecretlint = await secretlintSpans(text);
  } catch {
    // Quorum's own rules still run; they cover every kind the preset has.
  }
  return mergeSpans([...fromSecretlint, ...findSecretSpans(text)]);
}

/**
 * `text` with every secret replaced by its placeholder. `startLine` is the file's number of the text's first
 * line, so that redactions name the file's lines. Numbering starts again for each call: give one `counter`
 * to several calls (the regions of one review) to keep placeholders unique across them.
 */
export async function redactSecrets(text: string, startLine = 1, counter: Map<string, number> = new Map()): Promise<RedactedText> {
  const spans = await findSecrets(text);
  const vault = new SecretVault();
  const redactions: Redaction[] = [];
  let out = '';
  let at = 0;
  for (const span of spans) {
    const n = (counter.get(span.kind) ?? 0) + 1;
    counter.set(span.kind, n);
    const placeholder = `[REDACTED:${span.kind}${n > 1 ? `#${n}` : ''}]`;
    const secret = text.slice(span.start, span.end);
    const segments: string[] = [];
    // Line by line, so that a multi-line secret keeps its line breaks (and `\r`s) where they were.
    const replaced = secret.replace(/[^\r\n]+/g, (segment) => {
      segments.push(segment);
      return placeholder;
    });
    vault.add(placeholder, segments);
    const line = startLine + countLines(text, 0, span.start);
    redactions.push({ kind: span.kind, line, endLine: line + countLines(secret, 0, secret.length), placeholder });
    out += text.slice(at, span.start) + replaced;
    at = span.end;
  }
  out += text.slice(at);
  return { text: out, redactions, vault };
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
