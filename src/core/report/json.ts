import * as z from 'zod';
import * as zm from 'zod/mini';
import { CWE_ID, findingSchema, reportedBySchema, verificationSchema } from '../../shared/finding';
import { CONTEXT_KINDS } from '../../shared/codeContext';
import type { AgentResult, ReviewSummary } from '../domain/result';
import type { Finding } from '../domain/finding';
import { toolResultSchema } from '../domain/toolResult';
import { repeatsCount } from '../toolResults/repeats';
import { reportStatus } from './agentStatus';
import type { ContextStatus } from '../domain/context';
import { AGENT_ERROR_CODES, COST_SOURCES, HIDDEN_REASONS, SKIP_REASONS, VERIFIER_NOTICES, type HiddenReason } from '../../shared/reviewCodes';

/**
 * The one JSON document `quorum review --format json` prints. The schema is the contract (tests check the
 * output against it); `toJsonOutput` builds it from a review summary.
 */

/** The JSON says a mark as `true` or not at all. */
const mark = z.literal(true).optional();

/**
 * The fields both finding lists share — where, how severe, who found it, and its marks (hidden and why, the
 * verifier's verdict, carried over) — picked from the one Finding (`src/shared/finding.ts`). The JSON allows no
 * other key, a CWE only as `CWE-<n>`, and a mark as `true`.
 */
const findingFields = {
  ...zm.pick(findingSchema, { file: true, startLine: true, endLine: true, severity: true, title: true, agents: true, confidence: true }).shape,
  cwe: z.string().regex(CWE_ID).optional(),
  outsideChanges: mark,
  /** Listed with --show-hidden: below --min-confidence / --min-severity, dismissed in the project, or refuted. */
  hidden: mark,
  /** Why it is hidden (with `hidden`): `refuted` by the verifier (its reason is in `verification`), `dismissed`, …. */
  hiddenReason: z.enum(HIDDEN_REASONS).optional(),
  /** The verifier's verdict (--verify): the model that gave it and why (model text). */
  verification: z.strictObject(verificationSchema.shape).optional(),
  /** The verifier was asked and gave no verdict (it failed): the finding is as the reviewers reported it. */
  unverified: mark,
  /** Carried over at $0 from an earlier review of the same region content. */
  carried: mark,
  /** The project's tool already reports it (hidden as `reported-by-tool`): that tool and its rule. */
  reportedBy: z.strictObject(reportedBySchema.shape).optional(),
  /** The learning (`.quorum/learnings.md`) that hid it or lowered its severity, by its title. */
  learning: findingSchema.shape.learning,
};

/** One agent's finding, as it reported it: `suggestion` is the replacement code, `advice` how to fix it in words (never pasted as code). */
const jsonFindingSchema = z.strictObject({
  ...zm.pick(findingSchema, { id: true, explanation: true, suggestion: true, advice: true }).shape,
  ...findingFields,
  clamped: mark,
});

/** What the panel lists: the findings merged across agents, most severe first. */
const jsonMergedFindingSchema = z.strictObject(findingFields);

const jsonAgentSchema = z.strictObject({
  id: z.string(),
  model: z.string(),
  status: z.enum(['ok', 'error', 'cancelled']),
  findings: z.array(jsonFindingSchema),
  text: z.string(),
  improvedCode: z.string().optional(),
  replacements: z.array(z.strictObject({ file: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive(), code: z.string() })).optional(),
  usage: z.strictObject({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    cachedTokens: z.number().int().nonnegative(),
    /** Part of completionTokens (priced as output): the tokens a reasoning model thought in; absent when none were reported. */
    reasoningTokens: z.number().int().positive().optional(),
  }),
  costUsd: z.number().nonnegative(),
  costSource: z.enum(COST_SOURCES),
  latencyMs: z.number().nonnegative(),
  attempts: z.number().int().nonnegative(),
  error: z.strictObject({ code: z.enum(AGENT_ERROR_CODES), message: z.string() }).optional(),
  /** The verifier's note: `same-model` (checked on the model that raised the findings), `no-other-model` (not checked: the gateway has no other). */
  notice: z.strictObject({ code: z.enum(VERIFIER_NOTICES), model: z.string().optional() }).optional(),
});

const rangeSchema = z.strictObject({ file: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive() });

export const jsonOutputSchema = z.strictObject({
  /** The reviewed file and lines of a selection or file review; null for a review of changes. */
  target: rangeSchema.nullable(),
  /** Each region reviewed; `reused`: not sent, its findings carried over from an earlier review of the same content. */
  targets: z.array(rangeSchema.extend({ reused: z.literal(true).optional() })),
  skipped: z.array(z.strictObject({ file: z.string(), reason: z.enum(SKIP_REASONS) })),
  /** The read-only context sent beside the regions (never reviewed): what, from where, for which reviewed file. */
  context: z.array(z.strictObject({ file: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive(), symbol: z.string(), kind: z.enum(CONTEXT_KINDS), forFile: z.string() })),
  /** What the project's tools already reported on the reviewed regions (--tool-results), sent read-only: messages redacted. */
  toolResults: z.array(toolResultSchema),
  /**
   * How the context was chosen: `chosen` of `regions` had theirs (`stopped: "time-budget"` when the time budget cut
   * the rest), and the repository index's work in this run (files it may hold, files read, files parsed).
   */
  contextStatus: z
    .strictObject({
      regions: z.number().int().nonnegative(),
      chosen: z.number().int().nonnegative(),
      stopped: z.literal('time-budget').optional(),
      index: z.strictObject({ files: z.number().int().nonnegative(), read: z.number().int().nonnegative(), parsed: z.number().int().nonnegative() }),
    })
    .optional(),
  findings: z.array(jsonMergedFindingSchema),
  agents: z.array(jsonAgentSchema),
  totals: z.strictObject({
    costUsd: z.number().nonnegative(),
    /** The part of costUsd priced from tokens counted locally (the gateway reported no usage, e.g. a cancelled stream). */
    estimatedUsd: z.number().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    requests: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
    /** Tokens of the context, part of promptTokens (counted once per request: every agent of a request gets it). */
    contextTokens: z.number().int().nonnegative(),
    /** Findings hidden because they repeat a tool result (`hiddenReason: reported-by-tool`). */
    toolResultsHidden: z.number().int().nonnegative(),
  }),
  /** Findings hidden by the noise controls (left out of the findings unless --show-hidden). */
  hiddenFindings: z.number().int().nonnegative(),
  /** A re-review of changes: the last review's findings in the files reviewed afresh that were not raised again. */
  resolved: z.array(jsonMergedFindingSchema).optional(),
});
export type JsonOutput = z.infer<typeof jsonOutputSchema>;

/** The fields both finding lists share: hidden and why, the verifier's verdict, carried over. */
function marks(f: Finding, hidden: ReadonlyMap<string, HiddenReason>) {
  const reason = hidden.get(f.id);
  return {
    ...(reason ? { hidden: true as const, hiddenReason: reason } : {}),
    ...(f.verification ? { verification: { verdict: f.verification.verdict, by: f.verification.by, reason: f.verification.reason } } : {}),
    ...(f.unverified ? { unverified: true as const } : {}),
    ...(f.carried ? { carried: true as const } : {}),
    ...(f.reportedBy ? { reportedBy: { tool: f.reportedBy.tool, rule: f.reportedBy.rule } } : {}),
    ...(f.learning !== undefined ? { learning: f.learning } : {}),
  };
}

/** Where a finding is, how severe, what it is called and who found it: what every report's finding starts with. */
export function findingHead(f: Finding) {
  return { file: f.file, startLine: f.startLine, endLine: f.endLine, severity: f.severity, title: f.title, agents: [...f.agents], ...(f.cwe ? { cwe: f.cwe } : {}) };
}

function jsonFinding(f: Finding, hidden: ReadonlyMap<string, HiddenReason>): z.infer<typeof jsonFindingSchema> {
  return {
    id: f.id,
    ...findingHead(f),
    explanation: f.explanation,
    confidence: f.confidence,
    ...(f.suggestion !== undefined ? { suggestion: f.suggestion } : {}),
    ...(f.advice !== undefined ? { advice: f.advice } : {}),
    ...(f.clamped ? { clamped: true as const } : {}),
    ...(f.outsideChanges ? { outsideChanges: true as const } : {}),
    ...marks(f, hidden),
  };
}

function jsonMergedFinding(f: Finding, hidden: ReadonlyMap<string, HiddenReason>): z.infer<typeof jsonMergedFindingSchema> {
  return { ...findingHead(f), confidence: f.confidence, ...(f.outsideChanges ? { outsideChanges: true as const } : {}), ...marks(f, hidden) };
}

/** Numbers from a gateway are not trusted to be finite and non-negative. */
export const nonNegative = (n: number): number => (Number.isFinite(n) && n > 0 ? n : 0);

const count = (n: number) => Math.floor(nonNegative(n));

function jsonAgent(r: AgentResult, findings: Finding[], hidden: ReadonlyMap<string, HiddenReason>): z.infer<typeof jsonAgentSchema> {
  const status = reportStatus(r);
  return {
    id: r.agent,
    model: r.model,
    status,
    findings: findings.map((f) => jsonFinding(f, hidden)),
    text: r.text,
    ...(r.improvedCode !== undefined ? { improvedCode: r.improvedCode } : {}),
    ...(r.replacements !== undefined && r.replacements.length > 0 ? { replacements: r.replacements.map((x) => ({ file: x.file, startLine: x.startLine, endLine: x.endLine, code: x.code })) } : {}),
    usage: { promptTokens: count(r.usage.promptTokens), completionTokens: count(r.usage.completionTokens), cachedTokens: count(r.usage.cachedTokens), ...(r.usage.reasoningTokens > 0 ? { reasoningTokens: count(r.usage.reasoningTokens) } : {}) },
    costUsd: nonNegative(r.costUsd),
    costSource: r.costSource,
    latencyMs: Math.round(nonNegative(r.latencyMs)),
    attempts: count(r.attempts),
    ...(status !== 'ok' ? { error: { code: r.error?.code || (status === 'cancelled' ? 'cancelled' : 'internal'), message: r.error?.message ?? '' } } : {}),
    ...(r.notice ? { notice: { code: r.notice.code, ...(r.notice.model ? { model: r.notice.model } : {}) } } : {}),
  };
}

/**
 * The JSON document for a summary. Findings are merged across agents: each is listed once, under the first
 * agent (in run order) that reported it, and names every agent that did.
 */
function contextStatusOf({ regions, chosen, stopped, index }: ContextStatus): NonNullable<JsonOutput['contextStatus']> {
  return { regions, chosen, ...(stopped ? { stopped } : {}), index: { files: index.files, read: index.read, parsed: index.parsed } };
}

export function toJsonOutput(summary: ReviewSummary, noise: { hiddenCount: number; hidden?: ReadonlyMap<string, HiddenReason>; toolResultsHidden?: number } = { hiddenCount: 0 }): JsonOutput {
  const hidden = noise.hidden ?? new Map<string, HiddenReason>();
  const byAgent = new Map<string, Finding[]>(summary.agents.map((a) => [a.agent, []]));
  for (const f of summary.findings) {
    const owner = summary.agents.find((a) => f.agents.includes(a.agent))?.agent;
    if (owner) byAgent.get(owner)?.push(f);
  }
  const t = summary.totals;
  const only = summary.target.regions.length === 1 ? summary.target.regions[0] : undefined;
  return {
    target: summary.target.kind !== 'changes' && only ? { file: only.file, startLine: only.startLine, endLine: only.endLine } : null,
    targets: summary.target.regions.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine, ...(r.reused ? { reused: true as const } : {}) })),
    skipped: (summary.target.skipped ?? []).map((k) => ({ file: k.file, reason: k.reason })),
    context: (summary.target.context ?? []).map(({ file, startLine, endLine, symbol, kind, forFile }) => ({ file, startLine, endLine, symbol, kind, forFile })),
    toolResults: (summary.target.toolResults ?? []).map((r) => ({ ...r, ...(r.cwe ? { cwe: [...r.cwe] } : {}) })),
    ...(summary.target.contextStatus ? { contextStatus: contextStatusOf(summary.target.contextStatus) } : {}),
    findings: summary.findings.map((f) => jsonMergedFinding(f, hidden)),
    agents: summary.agents.map((r) => jsonAgent(r, byAgent.get(r.agent) ?? [], hidden)),
    totals: { costUsd: nonNegative(t.costUsd), estimatedUsd: nonNegative(t.estimatedUsd), promptTokens: count(t.promptTokens), completionTokens: count(t.completionTokens), requests: count(t.requests), retries: count(t.retries), contextTokens: count(summary.target.contextTokens ?? 0), toolResultsHidden: noise.toolResultsHidden ?? repeatsCount(summary.findings) },
    hiddenFindings: noise.hiddenCount,
    ...(summary.resolved ? { resolved: summary.resolved.map((f) => jsonMergedFinding(f, new Map())) } : {}),
  };
}
