import type { ReviewPipeline } from '../review/pipeline';
import type { ReviewOptions } from '../review/types';
import type { WhatWillBeSent } from '../../shared/whatWillBeSent';
import { rulesReport, type RulesOff, type ShapedReview } from './shape';

/**
 * Everything a review would send, computed without sending: the pipeline's own messages for each agent (the
 * same function builds them for a real review), its estimate, the rules and the redactions.
 */
export function whatWillBeSent(
  pipeline: ReviewPipeline,
  shaped: ShapedReview,
  options: ReviewOptions,
  gateway: { baseUrl: string; redactSecrets: boolean; rulesOff?: RulesOff },
): WhatWillBeSent {
  const opts: ReviewOptions = { ...options, prompt: shaped.prompt };
  const estimate = pipeline.estimate(shaped.target, opts);
  const preview = pipeline.preview(shaped.target, opts);
  const rules = rulesReport(shaped.prompt, preview.map((p) => p.agent));
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
    agents: preview.map((p) => {
      const e = estimate.perAgent[p.agent];
      return {
        agent: p.agent,
        title: p.title,
        model: p.model,
        promptTokens: e?.promptTokens ?? 0,
        maxCompletionTokens: e?.maxCompletionTokens ?? 0,
        costUsd: e?.costUsd ?? 0,
        inputs: p.inputs,
        messages: p.messages.map((m) => ({ role: m.role, content: m.content })),
      };
    }),
  };
}
