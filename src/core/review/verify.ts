import { parseVerdicts, reviewerResults, VERIFIER_ID, VERIFIER_PROMPT_VERSION, VERIFIER_TITLE, verifierMessages, type VerifierItem } from '../agents/verifier';
import type { ContextSnippet } from '../context/types';
import { sumUsage } from '../cost/usage';
import type { StreamResult } from '../gateway/types';
import { countChatTokens } from '../tokens/count';
import { combinedSource, emptyResult, endEvent, errorOf } from './agentResult';
import { spentOn, type AgentRunDeps } from './agentRun';
import { cacheKey } from './cache';
import type { ReviewPlan } from './plan';
import { addTotals, estimatedPart } from './totals';
import type { AgentError, AgentResult, Finding, Region, ReviewEvent, ReviewSummary, ReviewTotals } from './types';
import { applyVerdict, needsVerification, verifierModelFor } from './verdicts';
import { describeToolResult } from '../toolResults/prompt';
import type { ToolResult } from '../toolResults/types';

/**
 * The verification step of a review: after the merge, the findings at or above quorum.review.verifyMinSeverity are
 * sent to the verifier agent, several per request, each request on the model `verifierModelFor` chose. Its cost
 * and time are its own agent result (`verifier`); its verdicts mark the findings. A verifier that fails (or answers
 * nonsense) leaves the findings as they were, marked unverified: the review still succeeds.
 */

/** Findings per verifier request. */
const FINDINGS_PER_REQUEST = 8;

/** What verification needs of the review: its plan (settings, language, target as sent) and where its events go. */
interface VerifyRun {
  plan: Pick<ReviewPlan, 'settings' | 'language' | 'target' | 'options'>;
  reviewId: string;
  signal?: AbortSignal;
  emit: (e: ReviewEvent) => void;
}

interface Request {
  model: string;
  items: VerifierItem[];
}

interface Answered {
  request: Request;
  verdicts: ReturnType<typeof parseVerdicts>;
  answer?: Pick<StreamResult, 'text' | 'usage' | 'costUsd' | 'costSource' | 'latencyMs' | 'attempts'>;
  cached: boolean;
  error?: AgentError;
}

/** The region of the target that holds `f`'s lines (the one it starts in when none holds them all). */
function regionOf(f: Finding, regions: readonly Region[]): Region | undefined {
  const inFile = regions.filter((r) => r.file === f.file);
  return inFile.find((r) => f.startLine >= r.startLine && f.endLine <= r.endLine) ?? inFile.find((r) => f.startLine >= r.startLine && f.startLine <= r.endLine) ?? inFile[0];
}

/** Context snippets shown with a finding: those the context step chose for its file, up to a few. */
const MAX_CONTEXT_SNIPPETS = 3;

function contextFor(f: Finding, snippets: readonly ContextSnippet[]): string | undefined {
  const chosen = snippets.filter((s) => s.forFile === f.file).slice(0, MAX_CONTEXT_SNIPPETS);
  return chosen.length > 0 ? chosen.map((s) => `// ${s.file}:${s.startLine}-${s.endLine} (${s.kind}: ${s.symbol})\n${s.text}`).join('\n\n') : undefined;
}

/** The tool results on a finding's lines, as the agents were shown them. */
function toolsFor(f: Finding, results: readonly ToolResult[]): string | undefined {
  const on = results.filter((r) => r.file === f.file && r.startLine <= f.endLine && f.startLine <= r.endLine);
  return on.length > 0 ? on.map(describeToolResult).join('\n') : undefined;
}

/** The requests: findings grouped by the model that checks them, FINDINGS_PER_REQUEST at a time. */
function requestsFor(checked: readonly Finding[], summary: ReviewSummary, run: VerifyRun): Request[] {
  const { settings, target } = run.plan;
  const mode = settings.review.verify;
  if (mode === 'off') return [];
  const reviewers = reviewerResults(summary.agents);
  const byModel = new Map<string, VerifierItem[]>();
  for (const f of checked) {
    const model = verifierModelFor(f, checked, reviewers, mode, settings.agents.verifier.model);
    if (!model) continue;
    const items = byModel.get(model) ?? [];
    const context = contextFor(f, target.context ?? []);
    const tools = toolsFor(f, target.toolResults ?? []);
    items.push({ id: '', finding: f, region: regionOf(f, target.regions), ...(context ? { context } : {}), ...(tools ? { tools } : {}) });
    byModel.set(model, items);
  }
  const requests: Request[] = [];
  for (const [model, items] of byModel) {
    for (let i = 0; i < items.length; i += FINDINGS_PER_REQUEST) {
      requests.push({ model, items: items.slice(i, i + FINDINGS_PER_REQUEST).map((item, j) => ({ ...item, id: `F${j + 1}` })) });
    }
  }
  return requests;
}

async function ask(deps: AgentRunDeps, run: VerifyRun, request: Request): Promise<Answered> {
  const { settings, language } = run.plan;
  const messages = verifierMessages(request.items, language);
  const ids = request.items.map((i) => i.id);
  const key = cacheKey({
    agent: VERIFIER_ID,
    model: request.model,
    fallbackModel: '',
    promptVersion: VERIFIER_PROMPT_VERSION,
    language,
    regions: [],
    messages,
    maxTokens: settings.review.maxOutputTokens,
    responseFormat: settings.gateway.useResponseFormat,
  });
  const hit = run.plan.options.noCache ? undefined : deps.cached(key);
  if (hit) {
    const verdicts = parseVerdicts(hit.text, ids);
    if (verdicts) return { request, verdicts, cached: true, answer: { text: hit.text, usage: sumUsage([]), costUsd: 0, costSource: 'cached', latencyMs: 0, attempts: 0 } };
  }
  try {
    const stream = deps.gateway.stream(
      {
        model: request.model,
        messages,
        promptTokens: countChatTokens(messages),
        maxTokens: settings.review.maxOutputTokens,
        ...(settings.gateway.useResponseFormat ? { responseFormat: 'json_object' as const } : {}),
        tag: { agent: VERIFIER_ID, reviewId: run.reviewId },
      },
      run.signal ? { signal: run.signal } : {},
    );
    let step = await stream.next();
    while (!step.done) {
      if (step.value) run.emit({ type: 'delta', reviewId: run.reviewId, agent: VERIFIER_ID, text: step.value });
      step = await stream.next();
    }
    const answer = step.value;
    const verdicts = parseVerdicts(answer.text, ids);
    if (verdicts && deps.cache && deps.storesAnswers) deps.cache.set(key, { model: request.model, text: answer.text, findings: [] });
    // An answer that is not a list of verdicts is the model's doing, like any agent's unreadable answer.
    const error: AgentError | undefined = verdicts ? undefined : answer.text.trim() === ''
      ? { code: 'empty-answer', model: request.model, message: 'the verifier returned an empty answer' }
      : { code: 'bad-response', model: request.model, message: 'the verifier\'s answer is not a list of verdicts' };
    return { request, verdicts, answer, cached: false, ...(error ? { error } : {}) };
  } catch (err) {
    return { request, verdicts: undefined, cached: false, error: errorOf(err) };
  }
}

/** The verifier's result over every request: its spending, time and the first failure. */
function resultOf(deps: AgentRunDeps, run: VerifyRun, answered: readonly Answered[], started: number): AgentResult {
  const models = [...new Set(answered.map((a) => a.request.model))];
  const base = emptyResult({ id: VERIFIER_ID, title: VERIFIER_TITLE, model: models.join(', ') });
  const failed = answered.find((a) => a.error);
  const withAnswer = answered.flatMap((a) => (a.answer ? [a.answer] : []));
  // What failed requests spent is in the ledger only (the gateway client prices every attempt there).
  const spent = failed ? spentOn(deps.ledger, VERIFIER_ID, run.reviewId) : undefined;
  const cancelled = run.signal?.aborted === true;
  return {
    ...base,
    status: cancelled ? 'cancelled' : failed ? 'error' : 'ok',
    text: withAnswer.map((a) => a.text).join('\n\n'),
    usage: spent?.usage ?? sumUsage(withAnswer.map((a) => a.usage)),
    costUsd: spent?.costUsd ?? withAnswer.reduce((n, a) => n + a.costUsd, 0),
    costSource: answered.every((a) => a.cached) ? 'cached' : (spent?.costSource ?? combinedSource(withAnswer.map((a) => a.costSource))),
    latencyMs: Math.max(0, deps.now() - started),
    attempts: spent?.attempts ?? withAnswer.reduce((n, a) => n + a.attempts, 0),
    ...(answered.length > 1 ? { requests: answered.length } : {}),
    cached: answered.every((a) => a.cached),
    ...(failed?.error ? { error: cancelled ? { code: 'cancelled', message: 'the review was cancelled' } : failed.error } : {}),
  };
}

/** What the verifier adds to the review's totals: each request it sent (cache hits send none) and its retries. */
function totalsOfVerifier(result: AgentResult, answered: readonly Answered[]): ReviewTotals {
  const requests = answered.filter((a) => !a.cached && (a.answer === undefined || a.answer.attempts > 0)).length;
  return {
    costUsd: result.costUsd,
    estimatedUsd: estimatedPart(result),
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
    cachedTokens: result.usage.cachedTokens,
    requests,
    retries: Math.max(0, result.attempts - requests),
  };
}

/**
 * Verifies the merged findings of `summary` (settings `quorum.review.verify`, `verifyMinSeverity`,
 * `agents.verifier.model`): the summary with each checked finding's verdict or `unverified` mark, and with the
 * verifier's result among its agents (its cost in the totals). Unchanged when there is nothing to check.
 */
export async function verifySummary(deps: AgentRunDeps, run: VerifyRun, summary: ReviewSummary): Promise<ReviewSummary> {
  if (run.plan.settings.review.verify === 'off' || summary.cancelled) return summary;
  // A finding that repeats a tool result is hidden: nothing to verify.
  const checked = summary.findings.filter((f) => !f.reportedBy && needsVerification(f, run.plan.settings));
  const requests = requestsFor(checked, summary, run);
  if (requests.length === 0) return summary;
  const started = deps.now();
  const model = [...new Set(requests.map((r) => r.model))].join(', ');
  run.emit({ type: 'queued', reviewId: run.reviewId, agent: VERIFIER_ID, title: VERIFIER_TITLE, model, output: 'findings' });
  run.emit({ type: 'started', reviewId: run.reviewId, agent: VERIFIER_ID, model });
  const answered = await Promise.all(requests.map((r) => ask(deps, run, r)));
  const verdictOf = new Map<Finding, Finding>();
  for (const a of answered) {
    for (const item of a.request.items) verdictOf.set(item.finding, applyVerdict(item.finding, a.verdicts?.get(item.id), a.request.model));
  }
  const result = resultOf(deps, run, answered, started);
  run.emit(endEvent(run.reviewId, result));
  const agents = [...reviewerResults(summary.agents), result];
  return { ...summary, agents, findings: summary.findings.map((f) => verdictOf.get(f) ?? f), totals: addTotals(summary.totals, totalsOfVerifier(result, answered)) };
}
