import { formatCount, formatUsd } from './format';
import { lineLabel } from './lineLabel';
import { formatString } from './panelStrings';
import { codeSpan, escapeInline, fence } from './untrustedText';

/**
 * "What will be sent": the exact messages of each agent after rules and redaction, with the model, the
 * estimated tokens and cost and the gateway host, as Markdown. The CLI's `--dry-run` prints it; the editor
 * shows it in a read-only document. Strings come from the caller so that the editor can translate them.
 */

interface SentMessage {
  role: string;
  content: string;
}

/** One agent's request: its model, estimate and messages. */
export interface SentAgent {
  agent: string;
  title: string;
  model: string;
  promptTokens: number;
  maxCompletionTokens: number;
  costUsd: number;
  /** Agents whose results are added to this agent's messages when they have answered. */
  inputs: string[];
  messages: SentMessage[];
}

export interface WhatWillBeSent {
  gatewayHost: string;
  file: string;
  startLine: number;
  endLine: number;
  rulesUsed: string[];
  rulesDropped: string[];
  rulesOff?: string;
  redactions: { kind: string; line: number; endLine: number; file?: string }[];
  redactionOff: boolean;
  costUsd: number;
  /** The requests of a review of one target (a selection, a file); empty when `requests` holds them. */
  agents: SentAgent[];
  /** A review of changes: each batch, one request per agent, with the regions it holds, in the order sent. */
  requests?: { regions: { file: string; startLine: number; endLine: number }[]; costUsd: number; agents: SentAgent[] }[];
}

export const WHAT_WILL_BE_SENT_EN = {
  title: 'What Quorum will send',
  intro: 'Nothing has been sent. This is every request the review would make, exactly as it would leave this machine.',
  gateway: 'Gateway host',
  target: 'Reviewed',
  estimate: 'Estimated cost (at most)',
  rules: 'Repository rules in the prompts',
  rulesNone: 'none',
  rulesDropped: 'Left out (over quorum.rules.maxTokens)',
  rulesOff: 'Repository rules and agents not read',
  redacted: 'Secrets replaced by placeholders',
  redactedNone: 'none found',
  redactionOff: 'off (quorum.privacy.redactSecrets is false)',
  line: 'line',
  lines: 'lines',
  model: 'Model',
  tokens: 'Estimated prompt tokens',
  answer: 'Answer reserved',
  cost: 'Estimated cost',
  inputs: "After they answer, this agent's message also gets the results of",
  message: 'Message',
  changesScope: 'regions: {0} · files: {1} · requests per agent: {2}',
  request: 'Request {0} of {1}',
  requestHolds: 'Holds',
} as const;

export type WhatWillBeSentStrings = Record<keyof typeof WHAT_WILL_BE_SENT_EN, string>;

function lineRange(s: WhatWillBeSentStrings, a: number, b: number): string {
  return lineLabel(a, b, { one: `${s.line} {0}`, many: `${s.lines} {0}` });
}

function renderAgents(out: string[], agents: readonly SentAgent[], s: WhatWillBeSentStrings, depth: string): void {
  for (const a of agents) {
    out.push(`${depth} ${escapeInline(a.title)} (${escapeInline(a.agent)})`, '');
    out.push(`- **${escapeInline(s.model)}:** ${escapeInline(a.model)}`);
    out.push(`- **${escapeInline(s.tokens)}:** ${formatCount(a.promptTokens)}; **${escapeInline(s.answer)}:** ${formatCount(a.maxCompletionTokens)}`);
    out.push(`- **${escapeInline(s.cost)}:** ${formatUsd(a.costUsd)}`);
    if (a.inputs.length > 0) out.push(`- ${escapeInline(s.inputs)}: ${a.inputs.map(escapeInline).join(', ')}`);
    out.push('');
    a.messages.forEach((m, i) => {
      out.push(`${depth}# ${escapeInline(s.message)} ${i + 1}: ${escapeInline(m.role)}`, '', fence(m.content, 'text'), '');
    });
  }
}

export function renderWhatWillBeSent(data: WhatWillBeSent, s: WhatWillBeSentStrings = WHAT_WILL_BE_SENT_EN): string {
  const out: string[] = [`# ${escapeInline(s.title)}`, '', escapeInline(s.intro), ''];
  out.push(`- **${escapeInline(s.gateway)}:** ${codeSpan(data.gatewayHost)}`);
  const requests = data.requests;
  if (requests) {
    const regions = requests.flatMap((r) => r.regions);
    const scope = formatString(s.changesScope, [regions.length, new Set(regions.map((r) => r.file)).size, requests.length]);
    out.push(`- **${escapeInline(s.target)}:** ${escapeInline(data.file)} (${escapeInline(scope)})`);
  } else out.push(`- **${escapeInline(s.target)}:** ${escapeInline(data.file)} (${lineRange(s, data.startLine, data.endLine)})`);
  out.push(`- **${escapeInline(s.estimate)}:** ${formatUsd(data.costUsd)}`);
  const rules = data.rulesOff ? `${escapeInline(s.rulesOff)} (${escapeInline(data.rulesOff)})` : data.rulesUsed.length > 0 ? data.rulesUsed.map(escapeInline).join(', ') : escapeInline(s.rulesNone);
  out.push(`- **${escapeInline(s.rules)}:** ${rules}`);
  if (data.rulesDropped.length > 0) out.push(`- **${escapeInline(s.rulesDropped)}:** ${data.rulesDropped.map(escapeInline).join(', ')}`);
  const redacted = data.redactionOff
    ? escapeInline(s.redactionOff)
    : data.redactions.length === 0
      ? escapeInline(s.redactedNone)
      : data.redactions.map((r) => `${r.file ? `${escapeInline(r.file)}: ` : ''}${escapeInline(r.kind)} (${lineRange(s, r.line, r.endLine)})`).join(', ');
  out.push(`- **${escapeInline(s.redacted)}:** ${redacted}`, '');
  if (!requests) {
    renderAgents(out, data.agents, s, '##');
    return out.join('\n');
  }
  // A review of changes: each request (batch) as it is sent, with the regions it holds.
  requests.forEach((r, i) => {
    out.push(`## ${escapeInline(formatString(s.request, [i + 1, requests.length]))}`, '');
    out.push(`- **${escapeInline(s.requestHolds)}:** ${r.regions.map((g) => `${escapeInline(g.file)} (${lineRange(s, g.startLine, g.endLine)})`).join(', ')}`);
    out.push(`- **${escapeInline(s.estimate)}:** ${formatUsd(r.costUsd)}`, '');
    renderAgents(out, r.agents, s, '###');
  });
  return out.join('\n');
}
