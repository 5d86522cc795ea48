import { dirname, resolve } from 'node:path';
import { ChangesError, type ChangeRequest } from '../../core/changes/types';
import { nodeRepoFs } from '../../core/prompt/repoFs';
import { loadPromptContext } from '../../core/prompt/shape';
import { readDismissed } from '../../core/review/dismissed';
import { ReviewConfigError } from '../../core/review/errors';
import type { BatchesEstimate } from '../../core/review/batches';
import type { CodeContextSource, PlannedReview, ReviewWork } from '../../core/review/reviewRequest';
import { runReview } from '../../core/review/runReview';
import { nonNegative, reportStatus } from '../../core/report/json';
import type { AgentResult, ReviewEvent, ReviewSummary, ReviewTarget, Severity } from '../../core/review/types';
import { UsageError } from '../args';
import { findRepositoryRoot, relativeToRoot } from '../repository';
import { defaultCacheDir } from '../cacheDir';
import { readChanges } from '../reviewSetup';
import { readTarget } from '../target';
import type { McpFinding, McpResult } from './schemas';
import type { McpSession } from './session';

/**
 * The MCP face's adapter to the review use case (core's `runReview`): a tool call's input becomes the work (a
 * repository's changes or a file's lines, read as `quorum review` reads them), the call's confirm stops an
 * estimate once it is planned and lets a review go on, and the outcome becomes the tool's result.
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
  onPlanned?: (estimate: BatchesEstimate) => void;
  onEvent?: (e: ReviewEvent) => void;
}

interface Read {
  work: ReviewWork;
  root: string | undefined;
  /** Where `.quorum/dismissed.json` is read: the repository root, else the reviewed file's folder. */
  dismissedRoot: string;
}

async function readChangesWork(s: McpSession, t: Extract<McpTarget, { kind: 'changes' }>): Promise<Read> {
  const { changes, root } = await readChanges(resolve(s.cwd, t.repo ?? '.'), t.request, s.settings, s.log);
  return { work: { target: changes.target, changes }, root, dismissedRoot: root };
}

async function readFile(s: McpSession, t: Extract<McpTarget, { kind: 'file' }>): Promise<Read> {
  const path = resolve(s.cwd, t.path);
  const root = findRepositoryRoot(path);
  const relativeFile = root ? relativeToRoot(root, path) : undefined;
  const read = await readTarget(path, t.lines);
  // Findings name the file as the repository knows it.
  const shown = relativeFile ?? path;
  const target: ReviewTarget = { ...read, label: read.label.replace(path, shown), regions: read.regions.map((r) => ({ ...r, file: shown })) };
  return { work: { target, ...(relativeFile !== undefined ? { relativeFile } : {}) }, root, dismissedRoot: root ?? dirname(path) };
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
  const status = reportStatus(r);
  return { id: r.agent, model: r.model, status, ...(status === 'error' ? { error: `${r.error?.code ?? 'error'}${r.error?.message ? `: ${r.error.message}` : ''}` } : {}) };
}

const money = nonNegative;

/** What the plan says: the code sent, the estimate, the rules, the redactions, what does not fit. */
function planned(plan: PlannedReview, notes: string[]): Pick<McpResult, 'regions' | 'estimatedUsd' | 'maxUsd' | 'requests'> {
  const { estimate, shaped, rules } = plan;
  if (shaped.redactions.length > 0) notes.push(`${shaped.redactions.length} secret${shaped.redactions.length === 1 ? '' : 's'} redacted before sending`);
  if (rules.used.length > 0) notes.push(`repository rules: ${rules.used.join(', ')}`);
  for (const [agent, e] of Object.entries(estimate.perAgent)) {
    if (e.tooLarge) notes.push(`${agent}: a request (${e.tooLarge.size} tokens with the answer) exceeds ${e.model}'s ${e.tooLarge.limit}-token context window`);
  }
  return {
    regions: shaped.target.regions.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine })),
    estimatedUsd: money(estimate.likelyUsd),
    maxUsd: money(estimate.costUsd),
    requests: estimate.requests,
  };
}

/** Reads the work, then runs the review use case; throws `ToolRefusal` for what the caller must fix. */
export async function reviewForMcp(s: McpSession, t: McpTarget, mode: 'review' | 'estimate', call: McpCall): Promise<McpOutcome> {
  if (mode === 'review' && !s.key) throw new ToolRefusal('QUORUM_API_KEY is not set in the environment of the Quorum MCP server; set it in the client\'s server configuration');
  let read: Read;
  try {
    read = t.kind === 'changes' ? await readChangesWork(s, t) : await readFile(s, t);
  } catch (e) {
    // The file reader speaks of the command line's --lines; a tool call gives startLine and endLine.
    if (e instanceof UsageError) throw new ToolRefusal(e.message.replace(`-${Number.MAX_SAFE_INTEGER}`, '').replace(/^--lines (\d+)(-\d+)?/, 'lines $1$2').replace('(use --lines)', '(give startLine and endLine)'));
    if (e instanceof ChangesError) throw new ToolRefusal(e.message);
    throw e;
  }
  const context = await loadPromptContext({ settings: s.settings, fs: read.root ? nodeRepoFs(read.root) : undefined, trusted: true, useRules: !s.args.noRules });
  for (const issue of context.repository.issues) s.log(`warning: ${issue.message}`);
  const notes: string[] = [];
  const label = read.work.target.label;
  const host = new URL(s.baseUrl).host;
  const skipped = (read.work.target.skipped ?? []).map((k) => ({ file: k.file, reason: k.reason }));
  // Definitions, callers and enclosing signatures from the repository's tree-sitter index, as quorum review sends them.
  const codeContext: CodeContextSource | undefined = read.root && s.settings.context.enabled && s.args.context
    ? {
        root: read.root,
        cacheDir: s.args.cacheDir ?? defaultCacheDir(s.env),
        maxTokens: s.args.contextTokens ?? s.settings.context.maxTokens,
        maxFileBytes: s.settings.changes.maxFileKb * 1024,
        onError: (message) => notes.push(`no context is sent: ${message}`),
      }
    : undefined;
  let outcome;
  try {
    outcome = await runReview(s.pipeline, {
      work: read.work,
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
      ...(codeContext ? { codeContext } : {}),
    });
  } catch (e) {
    if (e instanceof ReviewConfigError) throw new ToolRefusal(e.message);
    throw e;
  }
  const base = { skipped, findings: [], costUsd: 0, hiddenFindings: 0, regions: [], estimatedUsd: 0, maxUsd: 0, requests: 0, agents: [] };
  switch (outcome.status) {
    case 'excluded':
      throw new ToolRefusal(`${outcome.file} is never sent to a gateway: it matches "${outcome.rule.pattern}" in ${outcome.rule.source}`);
    case 'nothing':
      return { mode, label, host, notes: ['nothing to review', ...notes], cancelled: false, result: base };
    case 'declined': {
      const plan = outcome.plan;
      if (!plan) return { mode, label, host, notes, cancelled: false, result: base };
      const agents = plan.estimate.order.map((id) => ({ id, model: plan.estimate.perAgent[id]?.model ?? '', status: 'planned' as const }));
      return { mode, label, host, notes, cancelled: false, result: { ...base, ...planned(plan, notes), agents } };
    }
    case 'reviewed': {
      if (s.cache && s.cache.stats.writeErrors > 0) s.log(`could not write ${s.cache.stats.writeErrors} answer(s) to the cache in ${s.cache.folder}`);
      const { summary, noise } = outcome;
      return {
        mode,
        label,
        host,
        notes,
        cancelled: call.signal.aborted,
        result: {
          ...base,
          ...planned(outcome.plan, notes),
          findings: noise.shown.map(finding),
          hiddenFindings: noise.hidden.length,
          costUsd: money(summary.totals.costUsd),
          requests: summary.totals.requests,
          agents: summary.agents.map(agentLine),
        },
      };
    }
  }
}
