/**
 * The secret detectors Quorum adds to secretlint's recommended preset: kinds the preset leaves out (AWS key
 * ids, JWTs, Google API keys, GitLab tokens, Anthropic keys, passwords in connection strings, plain
 * assignments to secret-looking names) and wider forms of kinds it has. Each yields spans of the text that
 * are the secret itself, so that what surrounds it (the variable name, the URL's host) stays readable.
 */

export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

interface PatternRule {
  kind: string;
  /** Global regex; the secret is group `secret` when present, else the whole match. */
  pattern: RegExp;
  /** Extra check on the secret's text. */
  accept?: (secret: string) => boolean;
}

/** Bits of entropy per character. */
function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const hasDigit = (s: string) => /\d/.test(s);
const hasUpper = (s: string) => /[A-Z]/.test(s);
const hasLower = (s: string) => /[a-z]/.test(s);
/** Mixed letters and digits, as generated tokens are; identifiers in kebab or snake case are not. */
const looksGenerated = (s: string) => hasDigit(s) && hasUpper(s) && hasLower(s);

const PATTERN_RULES: PatternRule[] = [
  { kind: 'aws-access-key-id', pattern: /\b(?<secret>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16})\b/g },
  {
    kind: 'aws-secret-access-key',
    pattern: /(?:aws|amazon)[\w.-]{0,24}?(?:secret|sk)[\w.-]{0,24}?["'`]?\s*(?:[:=]|=>|:=)\s*["'`]?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
  },
  { kind: 'github-token', pattern: /\b(?<secret>gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: 'gitlab-token', pattern: /\b(?<secret>gl(?:pat|dt|rt|ptt|ft|cbt|imt|oas|soat)-[A-Za-z0-9_-]{20,})/g },
  { kind: 'slack-token', pattern: /\b(?<secret>xox[abposre]-[A-Za-z0-9-]{10,})/g },
  { kind: 'slack-webhook', pattern: /(?<secret>https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9/_-]{20,})/g },
  { kind: 'npm-token', pattern: /\b(?<secret>npm_[A-Za-z0-9]{36})\b/g },
  { kind: 'npm-token', pattern: /:_auth(?:Token)?\s*=\s*(?<secret>[^\s"'`]{8,})/g },
  { kind: 'anthropic-api-key', pattern: /\b(?<secret>sk-ant-(?:api|admin|oat|sid)\d{2}-[A-Za-z0-9_-]{20,})/g },
  {
    kind: 'openai-api-key',
    pattern: /\b(?<secret>sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,})/g,
    accept: (s) => looksGenerated(s.replace(/^sk-(?:proj-|svcacct-|admin-|None-)?/, '')),
  },
  { kind: 'google-api-key', pattern: /\b(?<secret>AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/g },
  { kind: 'stripe-key', pattern: /\b(?<secret>(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,})/g },
  { kind: 'jwt', pattern: /\b(?<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)/g },
  {
    // `Authorization: Bearer <token>` / `"Authorization": "token …"` and a bare `Bearer …`: only a value that is a
    // token (long and mixed enough), never a placeholder, a mask or a variable (`Authorization: *`, `Bearer <token>`).
    kind: 'authorization-token',
    pattern: /\b(?:authorization["'`]?\s*[:=]\s*["'`]?(?:(?:bearer|basic|token|bot)\s+)?|bearer\s+)(?<secret>[A-Za-z0-9._~+/=-]{8,})(?![A-Za-z0-9._~+/=-])/gi,
    accept: (s) => strongValue(s),
  },
  {
    // scheme://user:password@host — database URLs and basic-auth URLs alike; only the password goes.
    kind: 'url-password',
    pattern: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/@"'`<>]{1,100}:(?<secret>[^\s@"'`<>/]{1,200})@[^\s"'`<>]/gi,
    accept: (s) => !/^\$\{?[A-Za-z_]/.test(s) && !/^<.*>$/.test(s) && s !== '*' && !/^\*+$/.test(s),
  },
  {
    // ADO.NET / JDBC-style `Password=…;` inside a connection string.
    kind: 'connection-string-password',
    pattern: /(?:^|[;"'])[ \t]*(?:password|pwd)=(?<secret>[^;"'`\s]{4,})(?=;|["'`]|$)/gim,
    accept: (s) => !isReference(s) && !/^\{.*\}$/.test(s),
  },
];

/** Names that hold secrets: `password`, `DB_PASSWORD`, `clientSecret`, `api_key`, `authToken`, … */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*?(?:passw(?:or)?d|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?|client[_-]?secret)[A-Za-z0-9_]*`;

/** `name = "value"`, `name: 'value'`, `"name": "value"`, `name := "value"`, `name => "value"`. */
const QUOTED_ASSIGNMENT = new RegExp(
  String.raw`(?<![A-Za-z0-9_])["'\`]?${SECRET_NAME}["'\`]?\s*(?::=|=>|[:=])\s*(?<q>["'\`])(?<secret>[^"'\`\s\\]{8,300})\k<q>`,
  'gi',
);
/** Whole-line `NAME=value` / `name: value` as in .env, YAML, INI and properties files. */
const BARE_ASSIGNMENT = new RegExp(String.raw`^[ \t]*(?:export[ \t]+)?${SECRET_NAME}[ \t]*[:=][ \t]*(?<secret>[^\s"'\`;,(){}\[\]]{8,300})(?:[ \t]+#.*)?[ \t]*$`, 'gim');

/** A value that names, references or describes a secret rather than being one. */
function isReference(v: string): boolean {
  return (
    /^\$\{?[A-Za-z_]/.test(v) || // ${VAR}, $VAR
    /^%[A-Za-z_]+%$/.test(v) || // %VAR%
    /^\{\{.*\}\}$/.test(v) || // {{ template }}
    /^<[^>]*>$/.test(v) ||
    /^(?:process\.env|os\.environ|env\.|System\.getenv|config\.|settings\.)/i.test(v) ||
    /^[xX*•.]+$/.test(v) ||
    /^\[REDACTED/.test(v) ||
    /^(?:true|false|null|none|undefined|nil)$/i.test(v) ||
    /^https?:\/\//i.test(v) ||
    /^[a-z]+(?:[._-][a-z]+)+$/.test(v) || // dotted/kebab/snake words: `auth.token.header`, `access-token`
    /^[A-Za-z]+(?:[A-Z][a-z]+)+$/.test(v) // camelCase words: `accessTokenName`
  );
}

/** High enough entropy and mixed enough to be a generated or chosen secret, not a word or an identifier. */
function strongValue(v: string): boolean {
  if (isReference(v)) return false;
  if (/^\d+$/.test(v)) return false;
  const classes = [hasDigit(v), hasUpper(v), hasLower(v), /[^A-Za-z0-9]/.test(v)].filter(Boolean).length;
  return classes >= 2 && shannonEntropy(v) >= 3;
}

/** Where group `secret` (or the whole match) is in the text: the pattern runs with the `d` flag for exact indices. */
function secretMatches(pattern: RegExp, text: string): { secret: string; start: number }[] {
  const withIndices = new RegExp(pattern.source, pattern.flags.includes('d') ? pattern.flags : pattern.flags + 'd');
  const out: { secret: string; start: number }[] = [];
  for (const m of text.matchAll(withIndices)) {
    const range = m.indices?.groups?.secret ?? m.indices?.[0];
    if (!range) continue;
    out.push({ secret: text.slice(range[0], range[1]), start: range[0] });
  }
  return out;
}

function spansOf(rule: PatternRule, text: string): SecretSpan[] {
  return secretMatches(rule.pattern, text)
    .filter(({ secret }) => !rule.accept || rule.accept(secret))
    .map(({ secret, start }) => ({ start, end: start + secret.length, kind: rule.kind }));
}

function assignmentSpans(pattern: RegExp, text: string): SecretSpan[] {
  return secretMatches(pattern, text)
    .filter(({ secret }) => strongValue(secret))
    .map(({ secret, start }) => ({ start, end: start + secret.length, kind: 'secret-assignment' }));
}

/** PEM private keys: the body between the BEGIN and END lines (the markers stay, so reviewers see a key is there). */
const PRIVATE_KEY = /-----BEGIN (?<label>[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----(?<body>[\s\S]*?)-----END \k<label>-----/g;

function privateKeySpans(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const m of text.matchAll(PRIVATE_KEY)) {
    const body = m.groups?.body ?? '';
    const bodyStart = m.index + m[0].indexOf('-----', 5) + 5;
    const trimmedStart = body.length - body.trimStart().length;
    const inner = body.trim();
    if (inner === '') continue;
    out.push({ start: bodyStart + trimmedStart, end: bodyStart + trimmedStart + inner.length, kind: 'private-key' });
  }
  return out;
}

/** Every span Quorum's own rules find, overlapping ones included (the caller merges). */
export function findSecretSpans(text: string): SecretSpan[] {
  return [
    ...privateKeySpans(text),
    ...PATTERN_RULES.flatMap((r) => spansOf(r, text)),
    ...assignmentSpans(QUOTED_ASSIGNMENT, text),
    ...assignmentSpans(BARE_ASSIGNMENT, text),
  ];
}
