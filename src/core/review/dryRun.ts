import type { PlannedBatches } from '../pipeline/batches';
import type { ReviewPlan } from '../pipeline/plan';
import type { SentAgent, WhatWillBeSent } from '../../shared/whatWillBeSent';
import { rulesReport, type RulesOff, type ShapedReview } from '../prompt/shape';

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
 * Everything a review would send, computed without sending: the review's plan (the messages the review sends,
 * planned by the same function) and its estimate, the rules and the redactions. A review of changes is shown
 * `batched`: each batch is one request per agent, planned and shown on its own, as the review sends them.
 */
export function whatWillBeSent(shaped: ShapedReview, planned: PlannedBatches, how: { batched: boolean; rulesOff?: RulesOff | undefined }): WhatWillBeSent {
  const plans = planned.batches;
  const settings = plans[0]?.settings;
  const gateway = { baseUrl: settings?.gateway.baseUrl ?? '', redactSecrets: settings?.privacy.redactSecrets ?? true, rulesOff: how.rulesOff };
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
    ...(how.batched
      ? {
          agents: [],
          requests: plans.map((p) => ({
            regions: p.target.regions.map(({ file, startLine, endLine }) => ({ file, startLine, endLine })),
            costUsd: p.estimate.costUsd,
            agents: sentAgents(p),
          })),
        }
      : { agents: plans[0] ? sentAgents(plans[0]) : [] }),
  };
}
