import { dirname, resolve } from 'node:path';
import { collectChanges } from '../../core/changes/collect';
import { GitCliSource } from '../../core/changes/gitCli';
import { planChanges, type ChangesPlan } from '../../core/changes/plan';
import { ChangesError, type ChangeRequest } from '../../core/changes/types';
import { nodeRepoFs } from '../../core/prompt/repoFs';
import { loadPromptContext } from '../../core/prompt/shape';
import { readDismissed } from '../../core/review/dismissed';
import { ReviewConfigError } from '../../core/review/errors';
import type { PlannedReview, ReviewDecision, ReviewOutcome, ReviewRequest } from '../../core/review/reviewRequest';
import { runReview } from '../../core/review/runReview';
import type { AgentResult, ReviewEstimate, ReviewEvent, ReviewSummary, ReviewTarget, Severity } from '../../core/review/types';
import { loadTokenizer } from '../../core/tokens/count';
import { UsageError } from '../args';
import { findRepositoryRoot, relativeToRoot } from '../repository';
import { readTarget } from '../target';
import type { McpFinding, McpResult } from './schemas';
import type { McpSession } from './session';

/**
 * The bridge from a tool call to the review: read the target (a repository's changes or a file's lines), shape
 * the prompt (rules, privacy exclusions, secret redaction), plan and price, then either stop there (`estimate`) or
 * run, and leave out what the noise controls hide. It composes the same core steps as `quorum review`, in the
 * same order, with the same settings: core's one review use case (runReview), adapted to a tool call.
 */

export type McpTarget =
  | { kind: 'changes'; repo: string | undefined; request: ChangeRequest; agents: string[] | undefined; minSeverity: Severity }
  | { kind: 'file'; path: string; lines: { start: number; end: number } | undefined; agents: string[] | undefined };

/** A call that cannot run: bad input, a missing key. The message is one line, safe to show. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

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
  onPlanned?: (estimate: ReviewEstimate) => void;
  onEvent?: (e: ReviewEvent) => void;
}

interface Read {
  target: ReviewTarget;
  changes?: ChangesPlan;
  root: string | undefined;
  relative: string | undefined;
  /** The reviewed file, absolute (a file review). */
  path?: string;
}

async function readChanges(s: McpSession, t: Extract<McpTarget, { kind: 'changes' }>): Promise<Read> {
  void loadTokenizer();
  const source = await GitCliSource.open(resolve(s.cwd, t.repo ?? '.'));
  const set = await collectChanges(source, t.request, { maxFileBytes: s.settings.changes.maxFileKb * 1024 });
  if (source.untrackedLeftOut) s.log('untracked files are left out: status.showUntrackedFiles is "no" in the git config');
  const changes = planChanges(set, { contextLines: s.settings.changes.contextLines, batchTokens: s.settings.changes.batchTokens });
  return { target: changes.target, changes, root: source.root, relative: undefined };
}

async function readFile(s: McpSession, t: Extract<McpTarget, { kind: 'file' }>): Promise<Read> {
  const path = resolve(s.cwd, t.path);
  const root = findRepositoryRoot(path);
  const relative = root ? relativeToRoot(root, path) : undefined;
  const read = await readTarget(path, t.lines);
  // Findings name the file as the repository knows it.
  const shown = relative ?? path;
  const target: ReviewTarget = { ...read, label: read.label.replace(path, shown), regions: read.regions.map((r) => ({ ...r, file: shown })) };
  return { target, root, relative, path };
}

function finding(f: ReviewSummary['findings'][number]): McpFinding {
  return {
    file: f.file,
    startLine: f.startLine,
    endLine: f.endLine,
    severity: f.severity,
    title: f.title,
    explanation: f.explanation,
    agents: [...f.agents],
    ...(f.cwe ? { cwe: f.cwe } : {}),
    ...(f.suggestion !== undefined ? { replacement: f.suggestion } : {}),
  };
}

function agentLine(r: AgentResult): McpResult['agents'][number] {
  const status = r.status === 'ok' ? 'ok' : r.status === 'cancelled' ? 'cancelled' : 'error';
  return { id: r.agent, model: r.model, status, ...(status === 'error' ? { error: `${r.error?.code ?? 'error'}${r.error?.message ? `: ${r.error.message}` : ''}` } : {}) };
}

const money = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);

/** Reads, shapes, plans; then estimates or runs. Throws `ToolRefusal` for what the caller must fix. */
export async function reviewForMcp(s: McpSession, t: McpTarget, mode: 'review' | 'estimate', call: McpCall): Promise<McpOutcome> {
  if (mode === 'review' && !s.key) throw new ToolRefusal('QUORUM_API_KEY is not set in the environment of the Quorum MCP server; set it in the client\'s server configuration');
  let read: Read;
  try {
    read = t.kind === 'changes' ? await readChanges(s, t) : await readFile(s, t);
  } catch (e) {
    // The file reader speaks of the command line's --lines; a tool call gives startLine and endLine.
    if (e instanceof UsageError) throw new ToolRefusal(e.message.replace(`-${Number.MAX_SAFE_INTEGER}`, '').replace(/^--lines (\d+)(-\d+)?/, 'lines $1$2').replace('(use --lines)', '(give startLine and endLine)'));
    if (e instanceof ChangesError) throw new ToolRefusal(e.message);
    throw e;
  }
  const context = await loadPromptContext({ settings: s.settings, fs: read.root ? nodeRepoFs(read.root) : undefined, trusted: true, useRules: !s.args.noRules });
  for (const issue of context.repository.issues) s.log(`warning: ${issue.message}`);
  const host = new URL(s.baseUrl).host;
  const skipped = (read.target.skipped ?? []).map((k) => ({ file: k.file, reason: k.reason }));
  const notes: string[] = [];
  let figures = { estimatedUsd: 0, maxUsd: 0, requests: 0 };
  let regions: McpResult['regions'] = [];
  const planned = (plan: PlannedReview): ReviewDecision => {
    const { estimate, shaped } = plan;
    regions = shaped.target.regions.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine }));
    if (shaped.redactions.length > 0) notes.push(`${shaped.redactions.length} secret${shaped.redactions.length === 1 ? '' : 's'} redacted before sending`);
    if (plan.rules.used.length > 0) notes.push(`repository rules: ${plan.rules.used.join(', ')}`);
    for (const [agent, e] of Object.entries(estimate.perAgent)) {
      if (e.tooLarge) notes.push(`${agent}: a request (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window`);
    }
    figures = { estimatedUsd: money(estimate.likelyUsd), maxUsd: money(estimate.costUsd), requests: estimate.requests };
    if (mode === 'estimate') return 'cancel';
    call.onPlanned?.(estimate);
    return 'proceed';
  };
  const minSeverity = t.kind === 'changes' ? t.minSeverity : 'info';
  const request: ReviewRequest = {
    work: { target: read.target, ...(read.changes ? { changes: read.changes } : {}), ...(read.changes || !read.relative ? {} : { relativeFile: read.relative }) },
    context,
    options: {
      language: s.language,
      noCache: s.args.noCache,
      signal: call.signal,
      ...(t.agents ? { agents: t.agents } : {}),
      ...(Object.keys(s.args.models).length > 0 ? { modelOverrides: s.args.models } : {}),
      ...(!s.settings.changes.onlyChangedLines ? { keepOutsideChanges: true } : {}),
    },
    noise: {
      minConfidence: 0,
      minSeverity,
      dismissed: async () => {
        const dismissed = await readDismissed(read.root ?? dirname(read.path ?? s.cwd));
        if (!dismissed.ok) notes.push(`${dismissed.problem}; no finding is treated as dismissed`);
        return dismissed.entries;
      },
    },
    // An estimate asks the gateway nothing (not even its listed prices).
    dryRun: mode === 'estimate',
    confirm: { planned },
    ...(call.onEvent ? { onEvent: call.onEvent } : {}),
  };
  let outcome: ReviewOutcome;
  try {
    outcome = await runReview(s.pipeline, request);
  } catch (e) {
    if (e instanceof ReviewConfigError) throw new ToolRefusal(e.message);
    throw e;
  }
  if (outcome.status === 'excluded') throw new ToolRefusal(`${outcome.file} is never sent to a gateway: it matches "${outcome.rule.pattern}" in ${outcome.rule.source}`);
  const base = { skipped, regions, findings: [], costUsd: 0, hiddenFindings: 0 };
  const label = read.target.label;
  if (outcome.status === 'nothing') {
    return { mode, label, host, notes: ['nothing to review', ...notes], cancelled: false, result: { ...base, estimatedUsd: 0, maxUsd: 0, requests: 0, agents: [] } };
  }
  if (outcome.status === 'declined') {
    const estimate = outcome.plan?.estimate;
    const agents = (estimate?.order ?? []).map((id) => ({ id, model: estimate?.perAgent[id]?.model ?? '', status: 'planned' as const }));
    return { mode, label, host, notes, cancelled: false, result: { ...base, ...figures, agents } };
  }
  const { summary, noise } = outcome;
  if (s.cache && s.cache.stats.writeErrors > 0) s.log(`could not write ${s.cache.stats.writeErrors} answer(s) to the cache in ${s.cache.folder}`);
  return {
    mode,
    label,
    host,
    notes,
    cancelled: call.signal.aborted,
    result: {
      ...base,
      ...figures,
      findings: noise.shown.map(finding),
      hiddenFindings: noise.hidden.length,
      costUsd: money(summary.totals.costUsd),
      requests: summary.totals.requests,
      agents: summary.agents.map(agentLine),
    },
  };
}
