import { needsKey } from '../../core/gateway/localKey';
import type { ChangeRequest } from '../../core/changes/types';
import { readDismissed } from '../../core/memory/dismissed';
import { ReviewConfigError } from '../../core/pipeline/errors';
import type { BatchesEstimate } from '../../core/pipeline/batches';
import type { ReviewOutcome, ReviewRequest } from '../../core/review/reviewRequest';
import { runReview } from '../../core/review/runReview';
import type { ReviewEvent } from '../../core/domain/events';
import type { Severity } from '../../shared/severity';
import { buildRequest } from '../request';
import { mcpOutcome } from './mcpResult';
import { readMcpWork, type McpWork } from './mcpWork';
import type { McpResult } from './schemas';
import type { McpSession } from './session';
import { ToolRefusal } from './toolRefusal';

/**
 * The MCP face's adapter to the review use case (core's `runReview`): a tool call's input becomes the work (a
 * repository's changes or a file's lines, read as `quorum review` reads them), the call's confirm stops an
 * estimate once it is planned and lets a review go on, and the outcome becomes the tool's result.
 */

export type McpTarget =
  | { kind: 'changes'; repo: string | undefined; request: ChangeRequest; agents: string[] | undefined; minSeverity: Severity }
  | { kind: 'file'; path: string; lines: { start: number; end: number } | undefined; agents: string[] | undefined };

/** What a call produced: the structured result, and what the Markdown says besides it. */
export interface McpOutcome {
  result: McpResult;
  mode: 'review' | 'estimate';
  label: string;
  host: string;
  notes: string[];
  cancelled: boolean;
}

interface McpCall {
  signal: AbortSignal;
  /** Told once the review is planned, before anything is sent. */
  onPlanned?: (estimate: BatchesEstimate) => void;
  onEvent?: (e: ReviewEvent) => void;
}

type Mode = McpOutcome['mode'];

/** Reads the work, then runs the review use case; throws `ToolRefusal` for what the caller must fix. */
export async function reviewForMcp(s: McpSession, t: McpTarget, mode: Mode, call: McpCall): Promise<McpOutcome> {
  if (mode === 'review' && !s.key && (await needsKey(s.baseUrl, { headers: s.settings.gateway.extraHeaders }))) throw new ToolRefusal('QUORUM_API_KEY is not set in the environment of the Quorum MCP server; set it in the client\'s server configuration');
  const read = await readMcpWork(s, t);
  const notes: string[] = [];
  const label = read.work.target.label;
  const host = new URL(s.baseUrl).host;
  const skipped = (read.work.target.skipped ?? []).map((k) => ({ file: k.file, reason: k.reason }));
  const outcome = await runForMcp(s, await requestFor(s, t, read, mode, call, notes));
  const { result, cancelled } = mcpOutcome(s, outcome, { notes, skipped, signal: call.signal });
  return { mode, label, host, notes, cancelled, result };
}

async function runForMcp(s: McpSession, request: ReviewRequest): Promise<ReviewOutcome> {
  try {
    return await runReview(s.pipeline, request);
  } catch (e) {
    if (e instanceof ReviewConfigError) throw new ToolRefusal(e.message);
    throw e;
  }
}

/** The review request of a call: built as `quorum review` builds it, with the call's agents, noise floor, confirm and events. */
async function requestFor(s: McpSession, t: McpTarget, read: McpWork, mode: Mode, call: McpCall, notes: string[]): Promise<ReviewRequest> {
  const base = await buildRequest(
    {
      flags: s.args, settings: s.settings, env: s.env, key: s.key, baseUrl: s.baseUrl, language: s.language, signal: call.signal,
      agents: t.agents, root: read.root, say: s.log, noContext: (message) => notes.push(`no context is sent: ${message}`),
    },
    read.work,
  );
  return {
    ...base,
    noise: {
      minConfidence: 0,
      minSeverity: t.kind === 'changes' ? t.minSeverity : 'info',
      dismissed: async () => {
        const d = await readDismissed(read.dismissedRoot);
        if (!d.ok) notes.push(`${d.problem}; no finding is treated as dismissed`);
        return d.entries;
      },
    },
    // An estimate plans without asking the gateway anything, and stops there.
    dryRun: mode === 'estimate',
    confirm: {
      planned: (plan) => {
        if (mode === 'review') call.onPlanned?.(plan.estimate);
        return 'proceed';
      },
    },
    ...(call.onEvent ? { onEvent: call.onEvent } : {}),
  };
}
