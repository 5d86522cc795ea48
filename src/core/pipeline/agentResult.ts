import { parseCodeAnswer } from '../agents/codeAnswer';
import { parseFindings } from '../agents/findings';
import type { AgentInput } from '../agents/messages';
import type { AgentSpec } from '../agents/spec';
import type { CachedAnswer } from './cache';
import type { CostSource } from '../../shared/reviewCodes';
import { GatewayError } from '../gateway/types';
import { zeroUsage } from '../domain/usage';
import { scrubSecrets } from '../redaction/redactor';
import { type ReviewTarget, touchesChange } from '../domain/target';
import type { AgentError, AgentResult } from '../domain/result';
import type { Finding } from '../domain/finding';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from './options';

/** Pieces of an agent's result: its answer parsed, the model that answered, its error, what a cache keeps of it. */

/** A result before the agent has run: nothing spent, nothing found. */
export function emptyResult(spec: Pick<AgentSpec, 'id' | 'title' | 'model' | 'role'>): AgentResult {
  return {
    agent: spec.id,
    title: spec.title,
    role: spec.role,
    model: spec.model,
    status: 'queued',
    text: '',
    findings: [],
    usage: zeroUsage(),
    costUsd: 0,
    costSource: 'none',
    latencyMs: 0,
    attempts: 0,
    cached: false,
  };
}

type ParsedAnswer = Pick<AgentResult, 'findings' | 'unparsed' | 'improvedCode' | 'replacements' | 'rationale'>;

/** Findings from a findings agent, improved code from a code agent; `unparsed` when the answer is neither. */
export function parseAnswer(spec: AgentSpec, text: string, target: ReviewTarget): ParsedAnswer {
  if (spec.output === 'code') {
    const code = parseCodeAnswer(text, target);
    if (!code.parsed) return { findings: [], unparsed: true };
    return {
      findings: [],
      ...(code.improvedCode !== undefined ? { improvedCode: code.improvedCode } : {}),
      ...(code.replacements !== undefined ? { replacements: code.replacements } : {}),
      ...(code.rationale !== undefined ? { rationale: code.rationale } : {}),
    };
  }
  const parsed = parseFindings(text, spec.id, target);
  return parsed.parsed ? { findings: parsed.findings } : { findings: [], unparsed: true };
}

/** What the cache keeps of a result: every finding (`findings`), as parsed, before a review of changes filters them. */
export function cachedAnswer(result: AgentResult, findings: Finding[]): CachedAnswer {
  return {
    model: result.model,
    text: result.text,
    findings,
    ...(result.unparsed ? { unparsed: true } : {}),
    ...(result.improvedCode !== undefined ? { improvedCode: result.improvedCode } : {}),
    ...(result.replacements !== undefined ? { replacements: result.replacements } : {}),
    ...(result.rationale !== undefined ? { rationale: result.rationale } : {}),
  };
}

/**
 * The configured model that answered: the fallback when the gateway's model name says so, else the primary.
 * Gateways name snapshots (`gpt-4.1-2025-04-14`) or anything at all; results name the model the user chose.
 */
export function answeredBy(spec: AgentSpec, reported: string): string {
  const r = reported.toLowerCase();
  const fallback = spec.fallbackModel.toLowerCase();
  if (fallback && r.startsWith(fallback) && !r.startsWith(spec.model.toLowerCase())) return spec.fallbackModel;
  return spec.model;
}

/** What a dependent agent reads of another agent's result. */
export function toInput(r: AgentResult): AgentInput {
  return { agent: r.agent, title: r.title, status: r.status, findings: r.findings, text: r.text, unparsed: r.unparsed, improvedCode: r.improvedCode, replacements: r.replacements, rationale: r.rationale };
}

/**
 * In a review of changes, a finding that touches no changed line is dropped, or kept and marked
 * `outsideChanges` when the caller asked for every finding. Other reviews keep every finding.
 */
export function onlyChanges(findings: Finding[], target: ReviewTarget, options: ReviewOptions): Finding[] {
  if (target.kind !== 'changes') return findings;
  const out: Finding[] = [];
  for (const f of findings) {
    if (touchesChange(target.regions, f)) out.push(f);
    else if (options.keepOutsideChanges) out.push({ ...f, outsideChanges: true });
  }
  return out;
}

/** The error of a failed agent: the gateway's data without the partial text (that is the result's text). */
export function errorOf(err: unknown): AgentError {
  if (!(err instanceof GatewayError)) return { code: 'internal', message: scrubSecrets(err instanceof Error ? err.message : String(err)) };
  const { code, status, model, retryAfterMs, waitedMs, suggestions, requestId, attempts, detail } = err.toJSON();
  return {
    code,
    message: scrubSecrets(err.message),
    ...(status !== undefined ? { status } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(waitedMs !== undefined ? { waitedMs } : {}),
    ...(suggestions !== undefined ? { suggestions } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
    // The gateway's own words, for the notification that shows them (escaped where shown).
    ...(detail !== undefined ? { detail: scrubSecrets(detail) } : {}),
  };
}

/** One label for several attempts: the least certain source among those that cost something; `none` when none did. */
export function combinedSource(sources: readonly CostSource[]): CostSource {
  const billed = sources.filter((s) => s !== 'none' && s !== 'cached');
  if (billed.length === 0) return 'none';
  if (billed.includes('estimated')) return 'estimated';
  if (billed.includes('usage')) return 'usage';
  return 'reported';
}

/** The event that tells an agent's end: `done`, `cancelled` or `failed` (a result still queued or running ended cancelled). */
export function endEvent(reviewId: string, result: AgentResult): Extract<ReviewEvent, { type: 'done' | 'failed' | 'cancelled' }> {
  const type = result.status === 'ok' ? 'done' : result.status === 'error' ? 'failed' : 'cancelled';
  return { type, reviewId, agent: result.agent, result };
}
