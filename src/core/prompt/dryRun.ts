import type { ReviewPipeline } from '../review/pipeline';
import type { ReviewPlan } from '../review/plan';
import type { ReviewOptions, ReviewTarget } from '../review/types';
import type { SentAgent, WhatWillBeSent } from '../../shared/whatWillBeSent';
import { rulesReport, type RulesOff, type ShapedReview } from './shape';

/** Each agent's request of one plan: the messages as they would be sent, with its model and estimate. */
function sentAgents({ estimate, agents }: ReviewPlan): SentAgent[] {
  return agents.map(({ spec, inputs, messages }) => {
    const e = estimate.perAgent[spec.id];
    return {
      agent: spec.id,
      title: spec.title,
      model: spec.model,
      promptTokens: e?.promptTokens ?? 0,
      maxCompletionTokens: e?.maxCompletionTokens ?? 0,
      costUsd: e?.costUsd ?? 0,
      inputs,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
    };
  });
}

/**
 * Everything a review would send, computed without sending: the pipeline's plan of the review (the messages a
 * real review sends, planned by the same function) and its estimate, the rules and the redactions. A review of
 * changes gives its `batches` (the shaped target cut as the review sends it): each is one request per agent,
 * planned and shown on its own, as the review sends them.
 */
export function whatWillBeSent(
  pipeline: ReviewPipeline,
  shaped: ShapedReview,
  options: ReviewOptions,
  gateway: { baseUrl: string; redactSecrets: boolean; rulesOff?: RulesOff },
  batches?: readonly ReviewTarget[],
): WhatWillBeSent {
  const opts: ReviewOptions = { ...options, prompt: shaped.prompt };
  const plans = batches ? batches.map((b) => pipeline.estimate(b, opts)) : [pipeline.estimate(shaped.target, opts)];
  const order = plans[0]?.estimate.order ?? [];
  const rules = rulesReport(shaped.prompt, order);
  const first = shaped.target.regions[0];
  let host: string;
  try {
    host = new URL(gateway.baseUrl).host;
  } catch {
    host = gateway.baseUrl;
  }
  return {
    gatewayHost: host,
    // One region: its file and lines; a review of changes: its label and the first region's lines.
    file: shaped.target.regions.length === 1 && shaped.target.kind !== 'changes' ? (first?.file ?? shaped.target.label) : shaped.target.label,
    startLine: first?.startLine ?? 1,
    endLine: first?.endLine ?? 1,
    rulesUsed: rules.used,
    rulesDropped: rules.dropped,
    ...(gateway.rulesOff && gateway.rulesOff !== 'no-repository' ? { rulesOff: gateway.rulesOff } : {}),
    redactions: shaped.redactions.map(({ kind, line, endLine, file }) => ({ kind, line, endLine, ...(file ? { file } : {}) })),
    redactionOff: !gateway.redactSecrets,
    costUsd: plans.reduce((n, p) => n + p.estimate.costUsd, 0),
    ...(batches
      ? {
          agents: [],
          requests: plans.map((p, i) => ({
            regions: (batches[i]?.regions ?? []).map(({ file, startLine, endLine }) => ({ file, startLine, endLine })),
            costUsd: p.estimate.costUsd,
            agents: sentAgents(p),
          })),
        }
      : { agents: plans[0] ? sentAgents(plans[0]) : [] }),
  };
}
