import { randomUUID } from 'node:crypto';
import { sumUsage } from '../domain/usage';
import { combinedSource } from './agentResult';
import { BatchEvents } from './batchEvents';
import type { AgentsRun, ReviewPipeline, RunOptions } from './pipeline';
import type { ReviewPlan } from './plan';
import { type ReviewTarget, targetInfo } from '../domain/target';
import { addTotals, estimatedPart, zeroTotals } from '../domain/totals';
import type { AgentEstimate, ReviewEstimate } from '../domain/estimate';
import type { AgentResult } from '../domain/result';
import type { Finding } from '../domain/finding';
import type { ReviewEvent } from '../domain/events';
import type { ReviewOptions } from './options';

/**
 * A review's target in batches: each batch is one run of the pipeline (one request per agent); the batches
 * run at once and the shared gateway client paces them. A selection or a file is the one batch of itself; a
 * review of changes has its regions cut into batches (core/changes/plan). The agents' results come back as ONE
 * run of the whole target: per agent, the batches' findings, code and spending together (merging the findings
 * across agents and files is the use case's step after the run).
 */

/** Finding ids are `agent-n` within a batch; the batches after the first are told apart by a suffix. */
function renamed(f: Finding, batch: number): Finding {
  return batch === 0 ? f : { ...f, id: `${f.id}@${batch + 1}` };
}

function rewrite(e: ReviewEvent, batch: number, reviewId: string): ReviewEvent {
  if (e.type === 'finding') return { ...e, reviewId, finding: renamed(e.finding, batch) };
  if (e.type === 'done' || e.type === 'failed' || e.type === 'cancelled') return { ...e, reviewId, result: { ...e.result, findings: e.result.findings.map((f) => renamed(f, batch)) } };
  return { ...e, reviewId };
}

const STATUS_RANK: Record<AgentResult['status'], number> = { queued: 0, running: 0, ok: 1, cancelled: 2, error: 3 };

/** One agent's result over every batch (none when no batch ran it). */
function combineAgent(results: readonly AgentResult[]): AgentResult[] {
  const first = results[0];
  if (!first) return [];
  const worst = results.reduce((a, b) => (STATUS_RANK[b.status] > STATUS_RANK[a.status] ? b : a), first);
  const replacements = results.flatMap((r) => r.replacements ?? []);
  const rationale = results.map((r) => r.rationale).filter((r): r is string => r !== undefined && r !== '').join('\n\n');
  const combined: AgentResult = {
    ...first,
    status: worst.status,
    text: results.map((r) => r.text).filter((t) => t !== '').join('\n\n'),
    findings: results.flatMap((r) => r.findings),
    usage: sumUsage(results.map((r) => r.usage)),
    costUsd: results.reduce((n, r) => n + r.costUsd, 0),
    estimatedUsd: results.reduce((n, r) => n + estimatedPart(r), 0),
    // The same label as one review's attempts: "reported" only when the gateway sent every cost.
    costSource: results.every((r) => r.costSource === 'cached') ? 'cached' : combinedSource(results.map((r) => r.costSource)),
    latencyMs: Math.max(...results.map((r) => r.latencyMs)),
    attempts: results.reduce((n, r) => n + r.attempts, 0),
    ...(results.length > 1 ? { requests: results.length } : {}),
    cached: results.every((r) => r.cached),
  };
  delete combined.improvedCode;
  if (replacements.length > 0) combined.replacements = replacements;
  else delete combined.replacements;
  if (rationale) combined.rationale = rationale;
  if (results.some((r) => r.unparsed)) combined.unparsed = true;
  if (worst.error) combined.error = worst.error;
  return [combined];
}

/** The estimate of every batch of a review together, with the requests they make (one per agent and batch). */
export type BatchesEstimate = ReviewEstimate & { requests: number };

/** A review planned once: the whole target, each batch's review plan, and the estimate of every batch together. */
export interface PlannedBatches {
  target: ReviewTarget;
  batches: ReviewPlan[];
  estimate: BatchesEstimate;
}

/** Plans every batch of `target`: prompts and costs add up; a batch too large for a model is reported. */
export function planBatches(pipeline: ReviewPipeline, target: ReviewTarget, parts: readonly ReviewTarget[], options: ReviewOptions): PlannedBatches {
  const batches = parts.map((b) => pipeline.estimate(b, options));
  const estimates = batches.map((b) => b.estimate);
  const order = estimates[0]?.order ?? [];
  const perAgent: Record<string, AgentEstimate> = {};
  for (const e of estimates) {
    for (const [id, a] of Object.entries(e.perAgent)) {
      const prev = perAgent[id];
      if (!prev) {
        perAgent[id] = { ...a };
        continue;
      }
      prev.promptTokens += a.promptTokens;
      prev.maxCompletionTokens += a.maxCompletionTokens;
      prev.costUsd += a.costUsd;
      prev.likelyCompletionTokens += a.likelyCompletionTokens;
      prev.likelyUsd += a.likelyUsd;
      if (a.tooLarge && (!prev.tooLarge || a.tooLarge.size > prev.tooLarge.size)) prev.tooLarge = a.tooLarge;
    }
  }
  const estimate = {
    perAgent,
    order,
    costUsd: estimates.reduce((n, e) => n + e.costUsd, 0),
    likelyUsd: estimates.reduce((n, e) => n + e.likelyUsd, 0),
    requests: estimates.reduce((n, e) => n + e.order.length, 0),
  };
  return { target, batches, estimate };
}

/**
 * Sends every planned batch at once; one run of the whole target. `at` gives the run its id and signal.
 * A target that is its own one batch (a selection, a file) is the pipeline's run as it is. With several batches,
 * each agent is told as one (BatchEvents): queued and started once, its text one batch at a time, never
 * interleaved, and its end once, when its last batch ends: its result over every batch (the same as in the run),
 * so that the panel's card and the command line's progress show the whole review's findings, tokens, cost and its
 * label, not the last batch's.
 */
export async function runBatches(pipeline: ReviewPipeline, planned: PlannedBatches, onEvent: (e: ReviewEvent) => void, at: RunOptions = {}): Promise<AgentsRun> {
  const { batches, target } = planned;
  const [only] = batches;
  if (only && batches.length === 1 && only.target === target) return pipeline.run(only, onEvent, at);
  const reviewId = at.reviewId ?? batches[0]?.options.reviewId ?? randomUUID();
  const started = Date.now();
  const events = new BatchEvents(batches.length, reviewId, onEvent, (results) => combineAgent(results)[0]);
  const runs = await Promise.all(
    batches.map((batch, i) =>
      pipeline.run(batch, (e) => events.take(rewrite(e, i, reviewId), i), { ...at, reviewId: batches.length > 1 ? `${reviewId}#${i + 1}` : reviewId }),
    ),
  );
  const agentIds = runs[0]?.agents.map((a) => a.agent) ?? [];
  const agents = agentIds.flatMap((id) => combineAgent(runs.flatMap((s, i) => s.agents.filter((a) => a.agent === id).map((a) => ({ ...a, findings: a.findings.map((f) => renamed(f, i)) })))));
  events.endUntold(agents);
  return {
    reviewId,
    target: targetInfo(target),
    agents,
    totals: runs.reduce((t, s) => addTotals(t, s.totals), zeroTotals()),
    cancelled: runs.some((s) => s.cancelled),
    elapsedMs: Date.now() - started,
  };
}
