import { parseVerdicts, VERIFIER_PROMPT_VERSION, verifierMessages, type VerifierItem } from './verifier';
import { ROLE_OUTPUT, VERIFIER } from '../../shared/builtinAgents';
import type { ContextSnippet } from '../domain/context';
import { sumUsage } from '../domain/usage';
import type { StreamResult } from '../gateway/types';
import { countChatTokens } from '../tokens/count';
import { combinedSource, emptyResult, endEvent, errorOf } from '../pipeline/agentResult';
import { spentOn, type AgentRunDeps } from '../pipeline/agentRun';
import { cacheKey } from '../pipeline/cache';
import type { ReviewPlan } from '../pipeline/plan';
import { addTotals, estimatedPart } from '../domain/totals';
import { graphResults, type AgentError, type AgentResult, type ReviewSummary, type ReviewTotals, type VerifierNotice } from '../domain/result';
import type { Finding } from '../domain/finding';
import type { Region } from '../domain/target';
import type { ReviewEvent } from '../domain/events';
import { applyVerdict, needsVerification } from './verdicts';
import { verifierChoice } from './verifierModel';
import { describeToolResult } from '../toolResults/prompt';
import type { ToolResult } from '../domain/toolResult';
import { sameFileOverlap } from '../domain/lines';

/**
 * The verification step of a review: after the merge, the findings at or above quorum.review.verifyMinSeverity are
 * sent to the verifier agent, several per request, each request on the model `verifierChoice` chose among the
 * models the gateway lists (core/verification/verifierModel.ts). Its cost and time are its own agent result
 * (`verifier`); its verdicts mark the findings, each credited to the model the gateway says answered (the answer's
 * `model`, not the one asked for). A verifier that fails (or answers nonsense) leaves the findings as they were,
 * marked unverified: the review still succeeds. Its result notes when the findings were checked on the model that
 * raised them, or not checked because the gateway has no other model.
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
  /** The models whose agents raised the request's findings. */
  raisedBy: Set<string>;
}

interface Answered {
  request: Request;
  /** The model that answered, as the gateway reported it (the one asked for when it did not say). */
  model: string;
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
  const on = results.filter((r) => sameFileOverlap(r, f));
  return on.length > 0 ? on.map(describeToolResult).join('\n') : undefined;
}

interface Planned {
  requests: Request[];
  /** The findings no model could check, and the gateway's one model when it lists one. */
  skipped: { findings: Finding[]; only?: string };
  /** Checked on the model that raised them (same-model). */
  sameModel: boolean;
}

/** The requests: findings grouped by the model that checks them, FINDINGS_PER_REQUEST at a time. */
function requestsFor(checked: readonly Finding[], summary: ReviewSummary, run: VerifyRun, listed: readonly string[] | undefined): Planned {
  const { settings, target } = run.plan;
  const mode = settings.review.verify;
  const planned: Planned = { requests: [], skipped: { findings: [] }, sameModel: false };
  if (mode === 'off') return planned;
  const reviewers = graphResults(summary.agents);
  const byModel = new Map<string, VerifierItem[]>();
  for (const f of checked) {
    const choice = verifierChoice(f, checked, reviewers, mode, settings.agents.verifier.model, listed);
    if (!('model' in choice)) {
      planned.skipped.findings.push(f);
      if (choice.only) planned.skipped.only = choice.only;
      continue;
    }
    if (choice.sameModel) planned.sameModel = true;
    const items = byModel.get(choice.model) ?? [];
    const context = contextFor(f, target.context ?? []);
    const tools = toolsFor(f, target.toolResults ?? []);
    items.push({ id: '', finding: f, region: regionOf(f, target.regions), ...(context ? { context } : {}), ...(tools ? { tools } : {}) });
    byModel.set(choice.model, items);
  }
  const modelsOf = (items: readonly VerifierItem[]) => new Set(items.flatMap((i) => i.finding.agents.flatMap((id) => reviewers.filter((r) => r.agent === id).map((r) => r.model.toLowerCase()))));
  for (const [model, items] of byModel) {
    for (let i = 0; i < items.length; i += FINDINGS_PER_REQUEST) {
      const part = items.slice(i, i + FINDINGS_PER_REQUEST).map((item, j) => ({ ...item, id: `F${j + 1}` }));
      planned.requests.push({ model, items: part, raisedBy: modelsOf(part) });
    }
  }
  return planned;
}

async function ask(deps: AgentRunDeps, run: VerifyRun, request: Request): Promise<Answered> {
  const { settings, language } = run.plan;
  const messages = verifierMessages(request.items, language);
  const ids = request.items.map((i) => i.id);
  const key = cacheKey({
    agent: VERIFIER.id,
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
    if (verdicts) return { request, model: hit.model || request.model, verdicts, cached: true, answer: { text: hit.text, usage: sumUsage([]), costUsd: 0, costSource: 'cached', latencyMs: 0, attempts: 0 } };
  }
  try {
    const stream = deps.gateway.stream(
      {
        model: request.model,
        messages,
        promptTokens: countChatTokens(messages),
        maxTokens: settings.review.maxOutputTokens,
        ...(settings.gateway.useResponseFormat ? { responseFormat: 'json_object' as const } : {}),
        tag: { agent: VERIFIER.id, reviewId: run.reviewId },
      },
      run.signal ? { signal: run.signal } : {},
    );
    let step = await stream.next();
    while (!step.done) {
      if (step.value) run.emit({ type: 'delta', reviewId: run.reviewId, agent: VERIFIER.id, text: step.value });
      step = await stream.next();
    }
    const answer = step.value;
    // Credited to the model the gateway says answered (LM Studio answers any id with the model it has loaded).
    const model = answer.model.trim() || request.model;
    const verdicts = parseVerdicts(answer.text, ids);
    if (verdicts && deps.cache && deps.storesAnswers) deps.cache.set(key, { model, text: answer.text, findings: [] });
    // An answer that is not a list of verdicts is the model's doing, like any agent's unreadable answer.
    const error: AgentError | undefined = verdicts ? undefined : answer.text.trim() === ''
      ? { code: 'empty-answer', model: request.model, message: 'the verifier returned an empty answer' }
      : { code: 'bad-response', model: request.model, message: 'the verifier\'s answer is not a list of verdicts' };
    return { request, model, verdicts, answer, cached: false, ...(error ? { error } : {}) };
  } catch (err) {
    return { request, model: request.model, verdicts: undefined, cached: false, error: errorOf(err) };
  }
}

/**
 * The verifier's note: `no-other-model` when some findings had no model to check them (with the gateway's one
 * model, or the models that raised them); `same-model` when a request was answered by a model that raised its
 * findings (same-model asked for it; or the gateway answered a cross-model request with that model).
 */
function noticeOf(planned: Planned, answered: readonly Answered[], reviewers: readonly AgentResult[]): VerifierNotice | undefined {
  if (planned.skipped.findings.length > 0) {
    const raisers = [...new Set(planned.skipped.findings.flatMap((f) => f.agents.flatMap((id) => reviewers.filter((r) => r.agent === id).map((r) => r.model))))];
    return { code: 'no-other-model', model: planned.skipped.only ?? raisers.join(', ') };
  }
  const same = answered.find((a) => a.request.raisedBy.has(a.model.toLowerCase()) || (planned.sameModel && a.request.raisedBy.has(a.request.model.toLowerCase())));
  return same ? { code: 'same-model', model: same.model } : undefined;
}

/** The verifier's result over every request: its spending, time and the first failure. */
function resultOf(deps: AgentRunDeps, run: VerifyRun, answered: readonly Answered[], started: number, notice: VerifierNotice | undefined): AgentResult {
  const models = [...new Set(answered.map((a) => a.model))];
  const base = emptyResult({ ...VERIFIER, model: models.join(', ') || (notice?.model ?? '') });
  const failed = answered.find((a) => a.error);
  const withAnswer = answered.flatMap((a) => (a.answer ? [a.answer] : []));
  // What failed requests spent is in the ledger only (the gateway client prices every attempt there).
  const spent = failed ? spentOn(deps.ledger, VERIFIER.id, run.reviewId) : undefined;
  const cancelled = run.signal?.aborted === true;
  return {
    ...base,
    status: cancelled ? 'cancelled' : failed ? 'error' : 'ok',
    text: withAnswer.map((a) => a.text).join('\n\n'),
    usage: spent?.usage ?? sumUsage(withAnswer.map((a) => a.usage)),
    costUsd: spent?.costUsd ?? withAnswer.reduce((n, a) => n + a.costUsd, 0),
    costSource: answered.length > 0 && answered.every((a) => a.cached) ? 'cached' : (spent?.costSource ?? combinedSource(withAnswer.map((a) => a.costSource))),
    latencyMs: Math.max(0, deps.now() - started),
    attempts: spent?.attempts ?? withAnswer.reduce((n, a) => n + a.attempts, 0),
    ...(answered.length > 1 ? { requests: answered.length } : {}),
    cached: answered.length > 0 && answered.every((a) => a.cached),
    ...(failed?.error ? { error: cancelled ? { code: 'cancelled', message: 'the review was cancelled' } : failed.error } : {}),
    ...(notice ? { notice } : {}),
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
  const settings = run.plan.settings;
  if (settings.review.verify === 'off' || summary.cancelled) return summary;
  // A finding that repeats a tool result is hidden: nothing to verify.
  const checked = summary.findings.filter((f) => !f.reportedBy && needsVerification(f, settings));
  if (checked.length === 0) return summary;
  // cross-model picks among the gateway's models (same-model, and a configured model, need no list).
  const needsList = settings.review.verify === 'cross-model' && deps.listedModels !== undefined;
  const listed = needsList ? await deps.listedModels?.(run.signal) : undefined;
  const planned = requestsFor(checked, summary, run, listed);
  const { requests } = planned;
  if (requests.length === 0 && planned.skipped.findings.length === 0) return summary;
  const started = deps.now();
  const model = [...new Set(requests.map((r) => r.model))].join(', ');
  run.emit({ type: 'queued', reviewId: run.reviewId, agent: VERIFIER.id, title: VERIFIER.title, model, output: ROLE_OUTPUT.verifier });
  run.emit({ type: 'started', reviewId: run.reviewId, agent: VERIFIER.id, model });
  const answered = await Promise.all(requests.map((r) => ask(deps, run, r)));
  const verdictOf = new Map<Finding, Finding>();
  for (const a of answered) {
    for (const item of a.request.items) verdictOf.set(item.finding, applyVerdict(item.finding, a.verdicts?.get(item.id), a.model));
  }
  // A verifier's result from before (a re-verified summary) gives way to this one; a failed verifier leaves the findings as raised.
  const reviewers = graphResults(summary.agents);
  const result = resultOf(deps, run, answered, started, noticeOf(planned, answered, reviewers));
  run.emit(endEvent(run.reviewId, result));
  return { ...summary, agents: [...reviewers, result], findings: summary.findings.map((f) => verdictOf.get(f) ?? f), totals: addTotals(summary.totals, totalsOfVerifier(result, answered)) };
}
