import { contextWindowFor } from '../cost/contextWindows';
import type { CostLedger } from '../cost/ledger';
import { sumUsage } from '../domain/usage';
import { GatewayError, type Gateway, type StreamResult } from '../gateway/types';
import { type ChatMessage } from '../domain/chat';
import { countChatTokens } from '../tokens/count';
import { untilAborted } from '../util/abort';
import { answeredBy, cachedAnswer, combinedSource, emptyResult, endEvent, errorOf, onlyChanges, parseAnswer, toInput } from './agentResult';
import type { AnswerStore, CachedAnswer } from './cache';
import { keyFor, messagesFor, type PlannedAgent, type ReviewPlan } from './plan';
import type { AgentResult } from '../domain/result';
import type { ReviewEvent } from '../domain/events';

/** Running one planned agent: from the cache, or through the gateway; every outcome is a result and an event. */

export interface AgentRunDeps {
  gateway: Gateway;
  cache?: AnswerStore;
  ledger?: CostLedger;
  now: () => number;
  /** The answer cached under `key` and still fresh, if any. */
  cached: (key: string) => CachedAnswer | undefined;
  /** Whether answers are stored at all. */
  storesAnswers: boolean;
  /** The model ids the gateway lists in `/models` (read at most every half hour), undefined when it gives none. */
  listedModels?: (signal?: AbortSignal) => Promise<readonly string[] | undefined>;
}

/** One review as it runs: its plan, id, signal and event sink. */
export interface ReviewRun {
  plan: ReviewPlan;
  reviewId: string;
  signal?: AbortSignal;
  emit: (e: ReviewEvent) => void;
}

/** Runs `agent` once `inputs` (the results it reads) have settled. */
export async function runAgent(deps: AgentRunDeps, run: ReviewRun, agent: PlannedAgent, inputs: readonly AgentResult[]): Promise<AgentResult> {
  const { spec } = agent;
  const base = emptyResult(spec);
  if (run.signal?.aborted) return finish(run, { ...base, status: 'cancelled', error: { code: 'cancelled', message: 'the review was cancelled' } });
  // A dependent agent runs with what it has, but not with nothing: when every review it reads failed, asking
  // it costs money and time (twice the gateway's deadline on a dead gateway) for an answer without its inputs.
  const dependencies = inputs.filter((r) => spec.dependsOn.includes(r.agent));
  if (dependencies.length > 0 && dependencies.every((r) => r.status === 'error')) {
    const message = `not run: every agent it depends on failed (${dependencies.map((r) => `${r.agent}: ${r.error?.code ?? 'error'}`).join(', ')})`;
    return finish(run, { ...base, status: 'error', error: { code: 'inputs-failed', message } });
  }
  // The plan's messages are final for an agent without inputs; a dependent agent's gain the results it reads.
  const messages = agent.inputs.length === 0 ? agent.messages : messagesFor(agent, run.plan, inputs.map(toInput));
  const promptTokens = agent.inputs.length === 0 ? agent.promptTokens : countChatTokens(messages);
  const maxTokens = run.plan.settings.review.maxOutputTokens;
  const window = contextWindowFor(spec.model, run.plan.contextWindows);
  if (promptTokens + maxTokens > window) {
    const message = `the prompt is ${promptTokens} tokens and ${maxTokens} are reserved for the answer (${promptTokens + maxTokens} in all), over the ${window}-token context window of ${spec.model}`;
    return finish(run, { ...base, status: 'error', error: { code: 'too-large', message, model: spec.model } });
  }
  const key = agent.cacheKey ?? keyFor(agent, run.plan, messages);
  const started = deps.now();
  const hit = run.plan.options.noCache ? undefined : deps.cached(key);
  if (hit) return fromCache(deps, run, base, hit, started);
  return ask(deps, run, { agent, messages, promptTokens, key, base, started });
}

function fromCache(deps: AgentRunDeps, run: ReviewRun, base: AgentResult, hit: CachedAnswer, started: number): AgentResult {
  const { reviewId, emit } = run;
  emit({ type: 'started', reviewId, agent: base.agent, model: hit.model });
  if (hit.text) emit({ type: 'delta', reviewId, agent: base.agent, text: hit.text });
  deps.ledger?.record({ model: hit.model, tag: { agent: base.agent, reviewId }, attempt: 1, cached: true, outcome: 'ok', key: `${reviewId}:${base.agent}:cache` });
  const result: AgentResult = {
    ...base,
    ...hit,
    findings: onlyChanges(hit.findings, run.plan.target, run.plan.options),
    status: 'ok',
    costSource: 'cached',
    cached: true,
    latencyMs: Math.max(0, deps.now() - started),
  };
  return finish(run, result);
}

interface Request {
  agent: PlannedAgent;
  messages: ChatMessage[];
  /** The tokens of `messages`, counted once (by the plan, or here for a dependent agent). */
  promptTokens: number;
  key: string;
  base: AgentResult;
  started: number;
}

/** Streams the agent's answer from the gateway, parses it and caches it; a failure is the result's error. */
async function ask(deps: AgentRunDeps, run: ReviewRun, request: Request): Promise<AgentResult> {
  const { agent, base } = request;
  const { spec } = agent;
  const { plan, reviewId, emit } = run;
  emit({ type: 'started', reviewId, agent: spec.id, model: spec.model });
  const streamed: Streamed = { text: '' };
  try {
    const answer = await streamAnswer(deps.gateway, run, request, streamed);
    const spentOnAnswer = {
      model: answeredBy(spec, answer.model),
      text: answer.text,
      usage: { ...answer.usage },
      costUsd: answer.costUsd,
      costSource: answer.costSource,
      latencyMs: answer.latencyMs,
      attempts: answer.attempts,
    };
    if (answer.text.trim() === '') {
      // Nothing to show or parse: an error, so that a CI run does not pass on a review that did not happen.
      const message = `the model returned an empty answer (finish reason: ${answer.finishReason})`;
      return finish(run, { ...base, ...spentOnAnswer, status: 'error', error: { code: 'empty-answer', message, model: spec.model } });
    }
    const parsed = parseAnswer(spec, answer.text, plan.target);
    // The cache keeps every finding; what a review of changes shows of them depends on its options.
    const result: AgentResult = { ...base, ...parsed, findings: onlyChanges(parsed.findings, plan.target, plan.options), ...spentOnAnswer, status: 'ok' };
    if (deps.cache && deps.storesAnswers) deps.cache.set(request.key, cachedAnswer(result, parsed.findings));
    return finish(run, result);
  } catch (err) {
    // A cancelled stream is priced by the gateway client once its attempt has closed; wait for that, so this
    // result, the review's totals and the ledger (status bar, Show Cost) hold the same figure. The client
    // forwards the abort to the request at once, so this is the time it takes the connection to close.
    await closeStream(streamed.stream);
    return finish(run, failed(deps, run, request, err, streamed.text));
  }
}

/** What has been asked and streamed so far. */
interface Streamed {
  stream?: AsyncGenerator<string, StreamResult, void>;
  text: string;
}

/** Sends the request and emits its text as it arrives; the gateway's final result. */
async function streamAnswer(gateway: Gateway, run: ReviewRun, { agent: { spec }, messages, promptTokens }: Request, streamed: Streamed): Promise<StreamResult> {
  const { plan, reviewId, emit, signal } = run;
  const stream = gateway.stream(
    {
      model: spec.model,
      messages,
      promptTokens,
      maxTokens: plan.settings.review.maxOutputTokens,
      ...(plan.settings.gateway.useResponseFormat ? { responseFormat: 'json_object' as const } : {}),
      ...(spec.fallbackModel ? { fallbackModel: spec.fallbackModel } : {}),
      tag: { agent: spec.id, reviewId },
    },
    {
      ...(signal ? { signal } : {}),
      onRetry: (info) => emit({ type: 'retrying', reviewId, agent: spec.id, attempt: info.attempt, model: info.model, code: info.code, reason: info.reason, ...(info.waitMs !== undefined ? { waitMs: info.waitMs } : {}) }),
    },
  );
  streamed.stream = stream;
  let step = await nextOrAbort(stream, signal);
  while (!step.done) {
    if (step.value) {
      streamed.text += step.value;
      emit({ type: 'delta', reviewId, agent: spec.id, text: step.value });
    }
    step = await nextOrAbort(stream, signal);
  }
  return step.value;
}

/** The result of an agent whose request failed or was cancelled: what it streamed, what the ledger says it spent. */
function failed(deps: AgentRunDeps, run: ReviewRun, { base, started }: Request, err: unknown, text: string): AgentResult {
  const cancelled = run.signal?.aborted === true || (err instanceof GatewayError && err.code === 'cancelled');
  const partial = err instanceof GatewayError && err.partialText !== undefined && err.partialText.length > text.length ? err.partialText : text;
  const spent = spentOn(deps.ledger, base.agent, run.reviewId);
  return {
    ...base,
    ...spent,
    status: cancelled ? 'cancelled' : 'error',
    text: partial,
    latencyMs: Math.max(0, deps.now() - started),
    attempts: err instanceof GatewayError && err.attempts !== undefined ? err.attempts : Math.max(1, spent.attempts),
    error: cancelled ? { code: 'cancelled', message: 'the review was cancelled' } : errorOf(err),
  };
}

/** What the ledger says the failed attempts of an agent cost (nothing known without a ledger). */
export function spentOn(ledger: CostLedger | undefined, agent: string, reviewId: string): Pick<AgentResult, 'usage' | 'costUsd' | 'costSource' | 'attempts' | 'estimatedUsd'> {
  const entries = ledger?.entries({ reviewId, agent }) ?? [];
  const usage = sumUsage(entries.map((e) => e.usage));
  const costUsd = entries.reduce((sum, e) => sum + e.costUsd, 0);
  const estimatedUsd = entries.reduce((sum, e) => sum + (e.costSource === 'estimated' ? e.costUsd : 0), 0);
  return { usage, costUsd, costSource: combinedSource(entries.map((e) => e.costSource)), attempts: entries.length, estimatedUsd };
}

/** Emits the events of a settled agent: its findings and `done`, or `cancelled`, or `failed`. */
function finish({ reviewId, emit }: ReviewRun, result: AgentResult): AgentResult {
  if (result.status === 'ok') for (const finding of result.findings) emit({ type: 'finding', reviewId, agent: result.agent, finding });
  emit(endEvent(reviewId, result));
  return result;
}

/** The stream's next step, or a `cancelled` GatewayError as soon as the signal aborts, even if the stream stalls. */
function nextOrAbort<T, R>(it: AsyncGenerator<T, R, void>, signal: AbortSignal | undefined): Promise<IteratorResult<T, R>> {
  if (!signal) return it.next();
  return untilAborted(it.next(), signal, () => {
    void closeStream(it);
    return new GatewayError({ code: 'cancelled', message: 'cancelled' });
  });
}

/** Ends a stream early (its value is of no interest), whatever it ends with; a failure to close is no news. */
async function closeStream(it: AsyncIterator<unknown, unknown, void> | undefined): Promise<void> {
  await it?.return?.().catch(() => undefined);
}
