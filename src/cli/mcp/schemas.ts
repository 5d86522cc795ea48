import * as z from 'zod';
import * as zm from 'zod/mini';
import { findingSchema } from '../../shared/finding';
import { SKIP_REASONS } from '../../shared/reviewCodes';
import { SEVERITIES } from '../../shared/severity';

/**
 * What the MCP tools take and give, as zod schemas: the SDK validates every call's arguments with the input
 * schemas (a bad one is a tool result with `isError`) and lists both schemas in `tools/list`.
 */

const agentId = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'agent ids are lower-case letters, digits and dashes');
const agents = z.array(agentId).min(1, 'agents needs at least one agent id').max(20).optional().describe('Run only these agents (analyst, architecture, security, coding, or a custom agent id). Default: every enabled agent.');
const severity = z.enum(SEVERITIES, { error: `minSeverity is one of ${SEVERITIES.join(', ')}` });

const CHANGE_SCOPES = ['uncommitted', 'staged', 'base', 'last-commit'] as const;

/** `review_changes` and `estimate`: the changes of a git repository. */
export const changesInput = {
  repo: z.string().trim().min(1, 'repo needs a folder').max(4096).optional().describe('A folder of the git repository (default: the folder the server runs in). Paths in the result are relative to its root.'),
  scope: z.enum(CHANGE_SCOPES, { error: `scope is one of ${CHANGE_SCOPES.join(', ')}` }).optional().describe('uncommitted (default: staged, unstaged and untracked changes against HEAD), staged, base (from the merge base of `base` and HEAD to the working tree, like a pull request) or last-commit.'),
  base: z.string().trim().min(1, 'base needs a branch, tag or commit').max(256).regex(/^[^-\s]/, 'base needs a branch, tag or commit').optional().describe('The branch, tag or commit for scope "base" (giving it implies that scope).'),
  agents,
  minSeverity: severity.optional().describe('Leave out findings less severe than this (critical, high, medium, low, info; default info).'),
};

/** `review_file`: a file, or some of its lines. */
export const fileInput = {
  path: z.string().trim().min(1, 'path needs a file').max(4096).describe('The file to review (absolute, or relative to the folder the server runs in).'),
  startLine: z.number().int().min(1, 'startLine is at least 1').optional().describe('First line to review (1-based; default 1).'),
  endLine: z.number().int().min(1, 'endLine is at least 1').optional().describe('Last line to review (inclusive; default the last line).'),
  agents,
};

export type ChangesInput = z.infer<z.ZodObject<typeof changesInput>>;

/** A finding as a tool's result gives it: picked from the one Finding (`src/shared/finding.ts`). */
const finding = z.object({
  ...zm.pick(findingSchema, { file: true, startLine: true, endLine: true, severity: true, title: true, explanation: true, agents: true, cwe: true }).shape,
  /** The code that replaces lines startLine..endLine (the finding's `suggestion`). */
  replacement: findingSchema.shape.suggestion,
});
export type McpFinding = z.infer<typeof finding>;

const agentLine = z.object({
  id: z.string(),
  model: z.string(),
  status: z.enum(['ok', 'error', 'cancelled', 'planned']),
  error: z.string().optional(),
});

/** Every tool's `structuredContent`: the same shape for a review and for an estimate (which finds nothing). */
export const resultOutput = {
  findings: z.array(finding).describe('The findings merged across agents, most severe first.'),
  skipped: z.array(z.object({ file: z.string(), reason: z.enum(SKIP_REASONS) })).describe('Changed files that were not sent, and why.'),
  costUsd: z.number().nonnegative().describe('What this call spent, US dollars (0 for estimate).'),
  estimatedUsd: z.number().nonnegative().describe('The likely cost estimated before sending, US dollars.'),
  maxUsd: z.number().nonnegative().describe('The ceiling of the estimate: every agent writing its longest answer.'),
  regions: z.array(z.object({ file: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive() })).describe('The code sent (or that would be sent).'),
  requests: z.number().int().nonnegative().describe('Gateway requests sent (or that would be sent).'),
  agents: z.array(agentLine).describe('Each agent, its model and how it ended.'),
  hiddenFindings: z.number().int().nonnegative().describe('Findings left out: below minSeverity, or dismissed in the project (.quorum/dismissed.json).'),
};
export type McpResult = z.infer<z.ZodObject<typeof resultOutput>>;
