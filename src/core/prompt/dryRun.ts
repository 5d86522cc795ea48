import type { ReviewPipeline } from '../review/pipeline';
import type { ReviewOptions } from '../review/types';
import type { WhatWillBeSent } from '../../shared/whatWillBeSent';
import { rulesReport, type RulesOff, type ShapedReview } from './shape';

/**
 * Everything a review would send, computed without sending: the pipeline's plan of the review (the messages a
 * real review sends, planned by the same function) and its estimate, the rules and the redactions.
 */
export function whatWillBeSent(
  pipeline: ReviewPipeline,
  shaped: ShapedReview,
  options: ReviewOptions,
  gateway: { baseUrl: string; redactSecrets: boolean; rulesOff?: RulesOff },
): WhatWillBeSent {
  const opts: ReviewOptions = { ...options, prompt: shaped.prompt };
  const { estimate, agents } = pipeline.estimate(shaped.target, opts);
  const rules = rulesReport(shaped.prompt, estimate.order);
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
    costUsd: estimate.costUsd,
    agents: agents.map(({ spec, inputs, messages }) => {
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
    }),
  };
}
