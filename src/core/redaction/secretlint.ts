import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { findSecretSpans, type SecretSpan } from './secretRules';

/**
 * secretlint's recommended preset as a detector of secret spans, for the redactor (`redactor.ts`) only. It is the
 * heaviest part of redaction to load, so the redactor loads this module when a review first redacts, never at start-up.
 */

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

/** The secrets secretlint's preset finds in `text`, narrowed where its span covers more than the secret. */
export async function secretlintSpans(text: string): Promise<SecretSpan[]> {
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
