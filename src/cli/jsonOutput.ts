import * as z from 'zod';
import { SEVERITIES, type AgentResult, type Finding, type ReviewSummary } from '../core/review/types';

/**
 * The one JSON document `quorum review --format json` prints. The schema is the contract (tests check the
 * output against it); `toJsonOutput` builds it from a review summary.
 */

export const jsonFindingSchema = z.strictObject({
  id: z.string(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  explanation: z.string(),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  agents: z.array(z.string()).min(1),
  confidence: z.number().min(0).max(1),
  suggestion: z.string().optional(),
  cwe: z.string().regex(/^CWE-\d+$/).optional(),
  clamped: z.literal(true).optional(),
});

export const jsonAgentSchema = z.strictObject({
  id: z.string(),
  model: z.string(),
  status: z.enum(['ok', 'error', 'cancelled']),
  findings: z.array(jsonFindingSchema),
  text: z.string(),
  improvedCode: z.string().optional(),
  usage: z.strictObject({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative(), cachedTokens: z.number().int().nonnegative() }),
  costUsd: z.number().nonnegative(),
  costSource: z.enum(['reported', 'estimated', 'cached']),
  latencyMs: z.number().nonnegative(),
  attempts: z.number().int().nonnegative(),
  error: z.strictObject({ code: z.string().min(1), message: z.string() }).optional(),
});

export const jsonOutputSchema = z.strictObject({
  target: z.strictObject({ file: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive() }),
  agents: z.array(jsonAgentSchema),
  totals: z.strictObject({
    costUsd: z.number().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    requests: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
  }),
});
export type JsonOutput = z.infer<typeof jsonOutputSchema>;

function jsonFinding(f: Finding): z.infer<typeof jsonFindingSchema> {
  return {
    id: f.id,
    severity: f.severity,
    title: f.title,
    explanation: f.explanation,
    startLine: f.startLine,
    endLine: f.endLine,
    agents: [...f.agents],
    confidence: f.confidence,
    ...(f.suggestion !== undefined ? { suggestion: f.suggestion } : {}),
    ...(f.cwe ? { cwe: f.cwe } : {}),
    ...(f.clamped ? { clamped: true as const } : {}),
  };
}

/** Numbers from a gateway are not trusted to be finite and non-negative. */
const nonNegative = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
const count = (n: number) => Math.floor(nonNegative(n));

function jsonAgent(r: AgentResult, findings: Finding[]): z.infer<typeof jsonAgentSchema> {
  const status = r.status === 'ok' ? 'ok' : r.status === 'cancelled' ? 'cancelled' : 'error';
  return {
    id: r.agent,
    model: r.model,
    status,
    findings: findings.map(jsonFinding),
    text: r.text,
    ...(r.improvedCode !== undefined ? { improvedCode: r.improvedCode } : {}),
    usage: { promptTokens: count(r.usage.promptTokens), completionTokens: count(r.usage.completionTokens), cachedTokens: count(r.usage.cachedTokens) },
    costUsd: nonNegative(r.costUsd),
    costSource: r.costSource,
    latencyMs: Math.round(nonNegative(r.latencyMs)),
    attempts: count(r.attempts),
    ...(status !== 'ok' ? { error: { code: r.error?.code || (status === 'cancelled' ? 'cancelled' : 'internal'), message: r.error?.message ?? '' } } : {}),
  };
}

/**
 * The JSON document for a summary. Findings are merged across agents: each is listed once, under the first
 * agent (in run order) that reported it, and names every agent that did.
 */
export function toJsonOutput(summary: ReviewSummary): JsonOutput {
  const byAgent = new Map<string, Finding[]>(summary.agents.map((a) => [a.agent, []]));
  for (const f of summary.findings) {
    const owner = summary.agents.find((a) => f.agents.includes(a.agent))?.agent;
    if (owner) byAgent.get(owner)?.push(f);
  }
  const t = summary.totals;
  return {
    target: { file: summary.target.file, startLine: summary.target.startLine, endLine: summary.target.endLine },
    agents: summary.agents.map((r) => jsonAgent(r, byAgent.get(r.agent) ?? [])),
    totals: { costUsd: nonNegative(t.costUsd), promptTokens: count(t.promptTokens), completionTokens: count(t.completionTokens), requests: count(t.requests), retries: count(t.retries) },
  };
}
