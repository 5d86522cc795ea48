import { BUILTIN_AGENTS, ROLE_OUTPUT, type AgentRole, type BuiltinAgentId } from '../../shared/builtinAgents';
import { SEVERITIES } from '../../shared/severity';
import { AGENT_OUTPUTS } from '../../shared/reviewCodes';
import * as z from 'zod';

/**
 * The one schema for Quorum's settings. VS Code's `quorum.*` configuration (package.json) mirrors it key for
 * key — a unit test compares the two — and the CLI builds the same object from flags and environment.
 * Every field has a default, so `{}` parses to a complete configuration.
 */

export const DEFAULT_BASE_URL = 'https://api.holysheep.ai/v1';


/** How findings are verified after the merge (quorum.review.verify, `--verify`). */
export const VERIFY_MODES = ['off', 'cross-model', 'same-model'] as const;
export type VerifyMode = (typeof VERIFY_MODES)[number];

/** Files never sent to a gateway, whatever is reviewed (globs matched against the path from the repository root). */
export const DEFAULT_PRIVACY_EXCLUDE = [
  '**/.env',
  '**/.env.*',
  '**/*.pem',
  '**/*.key',
  '**/id_rsa*',
  '**/id_dsa*',
  '**/id_ecdsa*',
  '**/id_ed25519*',
  '**/*.p12',
  '**/*.pfx',
  '**/*.keystore',
  '**/*.jks',
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/.git-credentials',
  '**/credentials',
  '**/credentials.json',
  '**/*.credentials.json',
  '**/.aws/credentials',
  '**/.docker/config.json',
  '**/secrets.yml',
  '**/secrets.yaml',
] as const;

/** Model ids: what gateways accept, no whitespace or control characters. */
export const modelIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/, 'model ids contain letters, digits and . _ : / @ + - only');

export const agentIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,39}$/, 'agent ids are lower-case letters, digits and dashes, starting with a letter');

/** The roles a custom agent may play: the verifier is built in. */
const CUSTOM_ROLES = ['reviewer', 'coder'] as const satisfies readonly AgentRole[];
type CustomRole = (typeof CUSTOM_ROLES)[number];

const optionalModel = z.union([z.literal(''), modelIdSchema]).default('');

function builtinAgentSchema(id: BuiltinAgentId) {
  return z
    .object({
      model: modelIdSchema.default(BUILTIN_AGENTS[id].defaultModel),
      fallbackModel: optionalModel,
      systemPrompt: z.string().max(20_000).default(''),
      enabled: z.boolean().default(true),
    })
    .prefault({});
}

/**
 * A custom agent plays a reviewer (findings) or a coder (code); it says which by `role`, or by the answer it gives
 * (`output`, the older key). Neither: a reviewer. Both: they agree.
 */
export const customAgentSchema = z
  .object({
    id: agentIdSchema,
    title: z.string().trim().min(1).max(80),
    systemPrompt: z.string().trim().min(1).max(20_000),
    model: modelIdSchema,
    fallbackModel: optionalModel,
    dependsOn: z.array(agentIdSchema).max(16).default([]),
    role: z.enum(CUSTOM_ROLES).optional(),
    output: z.enum(AGENT_OUTPUTS).optional(),
  })
  .refine((c) => c.role === undefined || c.output === undefined || ROLE_OUTPUT[c.role] === c.output, {
    path: ['output'],
    error: 'a reviewer answers with findings and a coder with code: output does not go with role',
  });
export type CustomAgentSettings = z.infer<typeof customAgentSchema>;

/** The role a custom agent plays: its `role`, else the one its `output` gives, else a reviewer. */
export function customAgentRole(c: Pick<CustomAgentSettings, 'role' | 'output'>): CustomRole {
  return c.role ?? (c.output === 'code' ? 'coder' : 'reviewer');
}

export const priceSchema = z.object({
  input: z.number().nonnegative().max(10_000),
  cachedInput: z.number().nonnegative().max(10_000).optional(),
  output: z.number().nonnegative().max(10_000),
});
export type PriceSettings = z.infer<typeof priceSchema>;

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid HTTP header name');

export const settingsSchema = z.object({
  gateway: z
    .object({
      baseUrl: z
        .url()
        .refine((u) => /^https?:\/\//i.test(u), 'the base URL must start with http:// or https://')
        .default(DEFAULT_BASE_URL),
      extraHeaders: z
        .record(headerName, z.string().max(4096))
        .refine((h) => !Object.keys(h).some((k) => k.toLowerCase() === 'authorization'), 'set the API key with "Quorum: Set Gateway API Key", not as a header')
        .default({}),
      useResponseFormat: z.boolean().default(true),
    })
    .prefault({}),
  limits: z
    .object({
      maxConcurrent: z.number().int().min(1).max(64).default(4),
      requestsPerMinute: z.number().int().min(0).max(100_000).default(0),
      tokensPerMinute: z.number().int().min(0).max(100_000_000).default(0),
      maxRetries: z.number().int().min(0).max(10).default(4),
      idleTimeoutSeconds: z.number().min(1).max(3600).default(60),
      deadlineSeconds: z.number().min(1).max(7200).default(180),
    })
    .prefault({}),
  agents: z
    .object({
      analyst: builtinAgentSchema('analyst'),
      architecture: builtinAgentSchema('architecture'),
      security: builtinAgentSchema('security'),
      coding: builtinAgentSchema('coding'),
      /** The verifier (quorum.review.verify): its model; empty: a model that raised none of the findings it checks. */
      verifier: z.object({ model: optionalModel }).prefault({}),
    })
    .prefault({}),
  customAgents: z.array(customAgentSchema).max(16).default([]),
  review: z
    .object({
      mode: z.enum(['parallel', 'sequential']).default('parallel'),
      language: z.string().trim().regex(/^(auto|[a-z]{2,3}(-[A-Za-z0-9]{2,8})*)$/, 'use "auto" or a language code such as "en" or "ko"').default('auto'),
      maxOutputTokens: z.number().int().min(256).max(65_536).default(4096),
      confirmWholeFileOverLines: z.number().int().min(0).max(1_000_000).default(500),
      /** Findings below this confidence (0..1) are hidden, counted, and shown on request. */
      minConfidence: z.number().min(0).max(1).default(0),
      /** Findings less severe than this are hidden, counted, and shown on request. */
      minSeverity: z.enum(SEVERITIES).default('info'),
      /** Where the editor shows a review's findings: comment threads on their lines, the Problems panel, or both. */
      showFindingsIn: z.enum(['both', 'threads', 'problems']).default('both'),
      /** After the merge, a verifier agent checks the findings: on another model than the one that raised each, on the same, or not at all. */
      verify: z.enum(VERIFY_MODES).default('cross-model'),
      /** Findings less severe than this are not sent to the verifier. */
      verifyMinSeverity: z.enum(SEVERITIES).default('low'),
    })
    .prefault({}),
  cache: z.object({ ttlMinutes: z.number().min(0).max(1440).default(10) }).prefault({}),
  budget: z
    .object({
      warnUsd: z.number().min(0).max(100_000).default(1),
      sessionUsd: z.number().min(0).max(100_000).default(0),
      monthlyUsd: z.number().min(0).max(1_000_000).default(0),
    })
    .prefault({}),
  prices: z.record(modelIdSchema, priceSchema).default({}),
  rules: z
    .object({
      readAgentsMd: z.boolean().default(true),
      maxTokens: z.number().int().min(0).max(100_000).default(4000),
    })
    .prefault({}),
  context: z
    .object({
      /** Send definitions, callers and enclosing signatures of the reviewed code, read-only, with each request. */
      enabled: z.boolean().default(true),
      /** Tokens of context per request (per batch of a changes review) at most. */
      maxTokens: z.number().int().min(0).max(50_000).default(3000),
      /** Seconds the repository index may take to choose a review's context; the requests after go without it, and the review says so. */
      timeBudgetSeconds: z.number().min(0.1).max(600).default(2.5),
    })
    .prefault({}),
  changes: z
    .object({
      /** Unchanged lines shown around each hunk. */
      contextLines: z.number().int().min(0).max(200).default(10),
      /** Drop findings that touch no changed line (false: keep them, marked `outsideChanges`). */
      onlyChangedLines: z.boolean().default(true),
      /** Small files are batched into one request per agent up to this many tokens of code. */
      batchTokens: z.number().int().min(500).max(200_000).default(12_000),
      /** Files larger than this are skipped (`too-large`). */
      maxFileKb: z.number().int().min(1).max(100_000).default(1024),
      /** Ask before reviewing changes to more files than this (`0` = never ask). */
      confirmOverFiles: z.number().int().min(0).max(100_000).default(30),
    })
    .prefault({}),
  eval: z
    .object({
      /**
       * The labelled corpus "Compare Models…" runs (the corpus format of `quorum eval --corpus`): a folder, relative
       * to the workspace folder (or absolute); empty for the shipped corpus. Ignored in an untrusted workspace.
       */
      corpus: z
        .string()
        .trim()
        .max(1024)
        // eslint-disable-next-line no-control-regex -- a path with a control character is refused; this finds them
        .refine((p) => !/[\u0000-\u001f\u007f]/.test(p), 'the corpus path has a control character')
        .default(''),
    })
    .prefault({}),
  privacy: z
    .object({
      exclude: z.array(z.string().trim().min(1).max(500)).max(200).default([...DEFAULT_PRIVACY_EXCLUDE]),
      redactSecrets: z.boolean().default(true),
    })
    .prefault({}),
});

export type QuorumSettings = z.infer<typeof settingsSchema>;
