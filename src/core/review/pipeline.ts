import { randomUUID } from 'node:crypto';
import { parseCodeAnswer } from '../agents/codeAnswer';
import { contextWindowFor } from '../agents/contextWindows';
import { parseFindings } from '../agents/findings';
import { normalizeLanguage } from '../agents/language';
import { buildMessages, type AgentInput } from '../agents/messages';
import { resolveAgents, selectAgents, topologicalOrder } from '../agents/registry';
import type { AgentSpec } from '../agents/spec';
import type { CostLedger } from '../cost/ledger';
import { agentRules } from '../prompt/shape';
import { redactSecrets } from '../prompt/secrets';
import { estimateCost } from '../cost/prices';
import { redact } from '../util/redact';
import { GatewayError, type ChatMessage, type CostSource, type Gateway, type StreamResult } from '../gateway/types';
import { modelIdSchema, type QuorumSettings } from '../settings/schema';
import { countChatTokens, countTokens } from '../tokens/count';
import { cacheKey, type AnswerStore, type CachedAnswer } from './cache';
import { ReviewConfigError } from './errors';
import { likelyOutputTokens } from './likelyOutput';
import { mergeFindings } from './merge';
import { targetInfo, touchesChange } from './target';
import { totalsOf } from './totals';
import { sumUsage, zeroUsage } from '../cost/usage';
import { untilAborted } from '../util/abort';
import type { AgentError, AgentEstimate, AgentResult, Finding, ReviewEstimate, ReviewEvent, ReviewOptions, ReviewSummary, ReviewTarget } from './types';

export interface ReviewPipelineDeps {
  /** The one shared gateway client. */
  gateway: Gateway;
  /** Read at the start of every review and estimate, so that changed settings apply to the next one. */
  settings: () => QuorumSettings;
  /** Shared across reviews (memory, or disk across runs); without it nothing is cached. */
  cache?: AnswerStore;
  /** How long cached answers are served; `quorum.cache.ttlMinutes` when absent (the CLI's disk cache has its own). */
  cacheTtlMs?: () => number;
  /** When given, cache hits are recorded (at $0) and the cost of failed agents is read from it. */
  ledger?: CostLedger;
  now?: () => number;
}

/** Tokens allowed, in an estimate, for each input a dependent agent will receive. */
const INPUT_ALLOWANCE_TOKENS = 1500;

interface PlannedAgent {
  spec: AgentSpec;
  /** Agents whose results this one waits for and reads: its dependencies, or in sequential mode all before it. */
  inputs: string[];
}

interface Plan {
  settings: QuorumSettings;
  agents: PlannedAgent[];
  language: string;
}

/**
 * Runs a review: the agents as a DAG over the shared gateway. Independent agents start together (the gateway
 * limits concurrency); a dependent agent starts once all its inputs have settled, and runs with whatever
 * succeeded. Agent failures become `failed` events and results; `run` rejects only with a `ReviewConfigError`.
 */
export class ReviewPipeline {
  private readonly now: () => number;

  constructor(private readonly deps: ReviewPipelineDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Prompt sizes, context-window checks and the review's likely and ceiling cost, before anything is sent. */
  estimate(target: ReviewTarget, options: ReviewOptions): ReviewEstimate {
    const plan = this.plan(target, options);
    const perAgent: Record<string, AgentEstimate> = {};
    let costUsd = 0;
    let likelyUsd = 0;
    const reviewedTokens = target.regions.reduce((n, r) => n + countTokens(r.text), 0);
    for (const { spec, inputs } of plan.agents) {
      const messages = this.messagesFor(spec, target, plan, options);
      const promptTokens = countChatTokens(messages) + inputs.length * INPUT_ALLOWANCE_TOKENS;
      const maxCompletionTokens = plan.settings.review.maxOutputTokens;
      const contextWindow = contextWindowFor(spec.model);
      const key = inputs.length === 0 ? this.keyFor(spec, target, plan, messages, options) : undefined;
      const cached = key !== undefined && !options.noCache && this.cached(key, plan.settings) !== undefined;
      const likelyCompletionTokens = likelyOutputTokens(spec.output, reviewedTokens, maxCompletionTokens);
      const cost = cached ? 0 : estimateCost(spec.model, { promptTokens, completionTokens: maxCompletionTokens }, plan.settings.prices).costUsd;
      const likely = cached ? 0 : estimateCost(spec.model, { promptTokens, completionTokens: likelyCompletionTokens }, plan.settings.prices).costUsd;
      const size = promptTokens + maxCompletionTokens;
      perAgent[spec.id] = {
        model: spec.model,
        promptTokens,
        maxCompletionTokens,
        costUsd: cost,
        likelyCompletionTokens,
        likelyUsd: likely,
        contextWindow,
        ...(size > contextWindow ? { tooLarge: { limit: contextWindow, size } } : {}),
      };
      costUsd += cost;
      likelyUsd += likely;
    }
    return { perAgent, costUsd, likelyUsd, order: plan.agents.map((a) => a.spec.id) };
  }

  /**
   * The messages each agent will be sent, before anything is sent ("what will be sent"): a dependent agent's
   * messages gain the other agents' results once they answer; `inputs` names them.
   */
  preview(target: ReviewTarget, options: ReviewOptions): { agent: string; title: string; model: string; messages: ChatMessage[]; inputs: string[] }[] {
    const plan = this.plan(target, options);
    return plan.agents.map(({ spec, inputs }) => ({ agent: spec.id, title: spec.title, model: spec.model, messages: this.messagesFor(spec, target, plan, options), inputs }));
  }

  async run(unshapedTarget: ReviewTarget, options: ReviewOptions, onEvent: (e: ReviewEvent) => void): Promise<ReviewSummary> {
    let target = unshapedTarget;
    let plan = this.plan(target, options);
    if (!options.prompt && plan.settings.privacy.redactSecrets) {
      // A caller that did not shape the review (core/prompt) still never sends a secret.
      const counter = new Map<string, number>();
      const redacted = await Promise.all(target.regions.map((r) => redactSecrets(r.text, r.startLine, counter)));
      if (redacted.some((r) => r.redactions.length > 0)) {
        target = { ...target, regions: target.regions.map((r, i) => ({ ...r, text: redacted[i]?.text ?? r.text })) };
        options = { ...options, prompt: { rules: [], files: [], maxRuleTokens: 0, redacted: true, projectAgents: [] } };
        plan = this.plan(target, options);
      }
    }
    const reviewId = options.reviewId ?? randomUUID();
    const startedAt = this.now();
    const emit = (e: ReviewEvent) => {
      try {
        onEvent(e);
      } catch {
        // A listener's failure must not break the review.
      }
    };
    for (const { spec } of plan.agents) emit({ type: 'queued', reviewId, agent: spec.id, title: spec.title, model: spec.model, output: spec.output });

    const settled = new Map<string, Promise<AgentResult>>();
    for (const planned of plan.agents) {
      const waitFor = planned.inputs.map((id) => settled.get(id) as Promise<AgentResult>);
      settled.set(
        planned.spec.id,
        Promise.all(waitFor).then((inputs) => this.runAgent(planned.spec, inputs, target, plan, reviewId, options, emit)),
      );
    }
    const results = await Promise.all(plan.agents.map((a) => settled.get(a.spec.id) as Promise<AgentResult>));
    const summary: ReviewSummary = {
      reviewId,
      target: targetInfo(target),
      agents: results,
      findings: mergeFindings(results.flatMap((r) => r.findings)),
      totals: totalsOf(results),
      cancelled: options.signal?.aborted === true || results.some((r) => r.status === 'cancelled'),
      elapsedMs: Math.max(0, this.now() - startedAt),
    };
    emit({ type: 'review-done', reviewId, summary });
    return summary;
  }

  private plan(target: ReviewTarget, options: ReviewOptions): Plan {
    const bad = target.regions.find((r) => !(r.startLine >= 1) || !(r.endLine >= r.startLine));
    if (target.regions.length === 0 || bad || target.regions.every((r) => r.text.trim() === '')) {
      const where = bad ?? target.regions[0];
      throw new ReviewConfigError('empty-target', where ? `nothing to review in ${where.file} lines ${where.startLine}-${where.endLine}` : `nothing to review in ${target.label}`);
    }
    const configured = this.deps.settings();
    const projectAgents = options.prompt?.projectAgents ?? [];
    // The repository's own agents join the configured custom agents (and are checked the same way).
    const settings = projectAgents.length > 0 ? { ...configured, customAgents: [...configured.customAgents, ...projectAgents] } : configured;
    const resolved = resolveAgents(settings);
    const fatal = resolved.issues.filter((i) => i.fatal);
    if (fatal.length > 0) throw new ReviewConfigError('invalid-agents', fatal.map((i) => i.message).join('; '), { issues: fatal });
    const { agents, unknown } = selectAgents(resolved.agents, options.agents);
    if (unknown.length > 0) {
      const known = resolved.agents.map((a) => a.id).join(', ');
      throw new ReviewConfigError('unknown-agent', `unknown agent ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${known})`, { related: unknown });
    }
    for (const [agent, model] of Object.entries(options.modelOverrides ?? {})) {
      const spec = agents.find((a) => a.id === agent);
      if (!spec) {
        if (resolved.agents.some((a) => a.id === agent)) continue;
        throw new ReviewConfigError('unknown-agent', `a model was given for unknown agent "${agent}"`, { related: [agent] });
      }
      const parsed = modelIdSchema.safeParse(model);
      if (!parsed.success) throw new ReviewConfigError('invalid-model', `"${model}" is not a valid model id for agent "${agent}"`, { related: [agent] });
      spec.model = parsed.data;
    }
    if (agents.length === 0) throw new ReviewConfigError('no-agents', 'no agent is enabled');
    const ordered = topologicalOrder(agents);
    const sequential = settings.review.mode === 'sequential';
    return {
      settings,
      language: normalizeLanguage(options.language) ?? 'en',
      agents: ordered.map((spec, i) => ({ spec, inputs: sequential ? ordered.slice(0, i).map((a) => a.id) : [...spec.dependsOn] })),
    };
  }

  private messagesFor(spec: AgentSpec, target: ReviewTarget, plan: Plan, options: ReviewOptions, inputs: readonly AgentInput[] = []): ChatMessage[] {
    const rules = agentRules(options.prompt, spec.id).block;
    return buildMessages({ agent: spec, target, language: plan.language, inputs, rules, redacted: options.prompt?.redacted === true });
  }

  private keyFor(spec: AgentSpec, target: ReviewTarget, plan: Plan, messages: readonly ChatMessage[], options: ReviewOptions): string {
    const rules = agentRules(options.prompt, spec.id).version;
    return cacheKey({
      agent: spec.id,
      model: spec.model,
      fallbackModel: spec.fallbackModel,
      // Repository rules change the prompt, so they version it.
      promptVersion: rules ? `${spec.promptVersion}+${rules}` : spec.promptVersion,
      language: plan.language,
      regions: target.regions.map((r) => ({ file: r.file, startLine: r.startLine, endLine: r.endLine })),
      messages,
      maxTokens: plan.settings.review.maxOutputTokens,
      responseFormat: plan.settings.gateway.useResponseFormat,
    });
  }

  private cacheTtlMs(settings: QuorumSettings): number {
    return this.deps.cacheTtlMs ? this.deps.cacheTtlMs() : settings.cache.ttlMinutes * 60_000;
  }

  private cached(key: string, settings: QuorumSettings): CachedAnswer | undefined {
    const ttlMs = this.cacheTtlMs(settings);
    return ttlMs > 0 ? this.deps.cache?.get(key, ttlMs) : undefined;
  }

  private async runAgent(
    spec: AgentSpec,
    inputs: readonly AgentResult[],
    target: ReviewTarget,
    plan: Plan,
    reviewId: string,
    options: ReviewOptions,
    emit: (e: ReviewEvent) => void,
  ): Promise<AgentResult> {
    const base: AgentResult = {
      agent: spec.id,
      title: spec.title,
      model: spec.model,
      status: 'queued',
      text: '',
      findings: [],
      usage: zeroUsage(),
      costUsd: 0,
      costSource: 'none',
      latencyMs: 0,
      attempts: 0,
      cached: false,
    };
    const signal = options.signal;
    if (signal?.aborted) return this.finish({ ...base, status: 'cancelled', error: { code: 'cancelled', message: 'the review was cancelled' } }, reviewId, emit);
    // A dependent agent runs with what it has, but not with nothing: when every review it reads failed, asking
    // it costs money and time (twice the gateway's deadline on a dead gateway) for an answer without its inputs.
    const dependencies = inputs.filter((r) => spec.dependsOn.includes(r.agent));
    if (dependencies.length > 0 && dependencies.every((r) => r.status === 'error')) {
      const message = `not run: every agent it depends on failed (${dependencies.map((r) => `${r.agent}: ${r.error?.code ?? 'error'}`).join(', ')})`;
      return this.finish({ ...base, status: 'error', error: { code: 'inputs-failed', message } }, reviewId, emit);
    }

    const messages = this.messagesFor(spec, target, plan, options, inputs.map(toInput));
    const maxTokens = plan.settings.review.maxOutputTokens;
    const promptTokens = countChatTokens(messages);
    const window = contextWindowFor(spec.model);
    if (promptTokens + maxTokens > window) {
      const message = `the prompt is ${promptTokens} tokens and ${maxTokens} are reserved for the answer (${promptTokens + maxTokens} in all), over the ${window}-token context window of ${spec.model}`;
      return this.finish({ ...base, status: 'error', error: { code: 'too-large', message, model: spec.model } }, reviewId, emit);
    }

    const key = this.keyFor(spec, target, plan, messages, options);
    const started = this.now();
    const hit = options.noCache ? undefined : this.cached(key, plan.settings);
    if (hit) {
      emit({ type: 'started', reviewId, agent: spec.id, model: hit.model });
      if (hit.text) emit({ type: 'delta', reviewId, agent: spec.id, text: hit.text });
      this.deps.ledger?.record({ model: hit.model, tag: { agent: spec.id, reviewId }, attempt: 1, cached: true, outcome: 'ok', key: `${reviewId}:${spec.id}:cache` });
      const result: AgentResult = {
        ...base,
        ...hit,
        findings: onlyChanges(hit.findings, target, options),
        status: 'ok',
        costSource: 'cached',
        cached: true,
        latencyMs: Math.max(0, this.now() - started),
      };
      return this.finish(result, reviewId, emit);
    }

    emit({ type: 'started', reviewId, agent: spec.id, model: spec.model });
    let text = '';
    try {
      const stream = this.deps.gateway.stream(
        {
          model: spec.model,
          messages,
          maxTokens,
          ...(plan.settings.gateway.useResponseFormat ? { responseFormat: 'json_object' as const } : {}),
          ...(spec.fallbackModel ? { fallbackModel: spec.fallbackModel } : {}),
          tag: { agent: spec.id, reviewId },
        },
        {
          ...(signal ? { signal } : {}),
          onRetry: (info) => emit({ type: 'retrying', reviewId, agent: spec.id, attempt: info.attempt, model: info.model, code: info.code, reason: info.reason, ...(info.waitMs !== undefined ? { waitMs: info.waitMs } : {}) }),
        },
      );
      let step = await nextOrAbort(stream, signal);
      while (!step.done) {
        if (step.value) {
          text += step.value;
          emit({ type: 'delta', reviewId, agent: spec.id, text: step.value });
        }
        step = await nextOrAbort(stream, signal);
      }
      const answer: StreamResult = step.value;
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
        return this.finish({ ...base, ...spentOnAnswer, status: 'error', error: { code: 'empty-answer', message } }, reviewId, emit);
      }
      const parsed = this.parseAnswer(spec, answer.text, target);
      // The cache keeps every finding; what a review of changes shows of them depends on its options.
      const result: AgentResult = { ...base, ...parsed, findings: onlyChanges(parsed.findings, target, options), ...spentOnAnswer, status: 'ok' };
      if (this.deps.cache && this.cacheTtlMs(plan.settings) > 0) {
        this.deps.cache.set(key, {
          model: result.model,
          text: result.text,
          findings: parsed.findings,
          ...(result.unparsed ? { unparsed: true } : {}),
          ...(result.improvedCode !== undefined ? { improvedCode: result.improvedCode } : {}),
          ...(result.replacements !== undefined ? { replacements: result.replacements } : {}),
          ...(result.rationale !== undefined ? { rationale: result.rationale } : {}),
        });
      }
      return this.finish(result, reviewId, emit);
    } catch (err) {
      const cancelled = signal?.aborted === true || (err instanceof GatewayError && err.code === 'cancelled');
      const partial = err instanceof GatewayError && err.partialText !== undefined && err.partialText.length > text.length ? err.partialText : text;
      const spent = this.spentOn(spec.id, reviewId);
      const error: AgentError = cancelled
        ? { code: 'cancelled', message: 'the review was cancelled' }
        : err instanceof GatewayError
          ? errorData(err)
          : { code: 'internal', message: redact(err instanceof Error ? err.message : String(err), undefined) };
      return this.finish(
        {
          ...base,
          ...spent,
          status: cancelled ? 'cancelled' : 'error',
          text: partial,
          latencyMs: Math.max(0, this.now() - started),
          attempts: err instanceof GatewayError && err.attempts !== undefined ? err.attempts : Math.max(1, spent.attempts),
          error,
        },
        reviewId,
        emit,
      );
    }
  }

  private parseAnswer(spec: AgentSpec, text: string, target: ReviewTarget): Pick<AgentResult, 'findings' | 'unparsed' | 'improvedCode' | 'replacements' | 'rationale'> {
    if (spec.output === 'code') {
      const code = parseCodeAnswer(text, target);
      if (!code.parsed) return { findings: [], unparsed: true };
      return {
        findings: [],
        ...(code.improvedCode !== undefined ? { improvedCode: code.improvedCode } : {}),
        ...(code.replacements !== undefined ? { replacements: code.replacements } : {}),
        ...(code.rationale !== undefined ? { rationale: code.rationale } : {}),
      };
    }
    const parsed = parseFindings(text, spec.id, target);
    return parsed.parsed ? { findings: parsed.findings } : { findings: [], unparsed: true };
  }

  /** What the ledger says the failed attempts of an agent cost (nothing known without a ledger). */
  private spentOn(agent: string, reviewId: string): Pick<AgentResult, 'usage' | 'costUsd' | 'costSource' | 'attempts'> {
    const entries = this.deps.ledger?.entries({ reviewId, agent }) ?? [];
    const usage = sumUsage(entries.map((e) => e.usage));
    const costUsd = entries.reduce((sum, e) => sum + e.costUsd, 0);
    return { usage, costUsd, costSource: combinedSource(entries.map((e) => e.costSource)), attempts: entries.length };
  }

  private finish(result: AgentResult, reviewId: string, emit: (e: ReviewEvent) => void): AgentResult {
    if (result.status === 'ok') {
      for (const finding of result.findings) emit({ type: 'finding', reviewId, agent: result.agent, finding });
      emit({ type: 'done', reviewId, agent: result.agent, result });
    } else if (result.status === 'cancelled') {
      emit({ type: 'cancelled', reviewId, agent: result.agent, result });
    } else {
      emit({ type: 'failed', reviewId, agent: result.agent, result });
    }
    return result;
  }
}

/**
 * The configured model that answered: the fallback when the gateway's model name says so, else the primary.
 * Gateways name snapshots (`gpt-4.1-2025-04-14`) or anything at all; results name the model the user chose.
 */
function answeredBy(spec: AgentSpec, reported: string): string {
  const r = reported.toLowerCase();
  const fallback = spec.fallbackModel.toLowerCase();
  if (fallback && r.startsWith(fallback) && !r.startsWith(spec.model.toLowerCase())) return spec.fallbackModel;
  return spec.model;
}

function toInput(r: AgentResult): AgentInput {
  return { agent: r.agent, title: r.title, status: r.status, findings: r.findings, text: r.text, unparsed: r.unparsed, improvedCode: r.improvedCode, replacements: r.replacements, rationale: r.rationale };
}

/**
 * In a review of changes, a finding that touches no changed line is dropped, or kept and marked
 * `outsideChanges` when the caller asked for every finding. Other reviews keep every finding.
 */
function onlyChanges(findings: Finding[], target: ReviewTarget, options: ReviewOptions): Finding[] {
  if (target.kind !== 'changes') return findings;
  const out: Finding[] = [];
  for (const f of findings) {
    if (touchesChange(target.regions, f)) out.push(f);
    else if (options.keepOutsideChanges) out.push({ ...f, outsideChanges: true });
  }
  return out;
}

/** The error of a failed agent: the gateway's data without the partial text (that is the result's text). */
function errorData(err: GatewayError): AgentError {
  const { code, status, model, retryAfterMs, waitedMs, suggestions, requestId, attempts } = err.toJSON();
  return {
    code,
    message: redact(err.message, undefined),
    ...(status !== undefined ? { status } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(waitedMs !== undefined ? { waitedMs } : {}),
    ...(suggestions !== undefined ? { suggestions } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
  };
}

/** The stream's next step, or a `cancelled` GatewayError as soon as the signal aborts, even if the stream stalls. */
function nextOrAbort<T, R>(it: AsyncGenerator<T, R, void>, signal: AbortSignal | undefined): Promise<IteratorResult<T, R>> {
  if (!signal) return it.next();
  return untilAborted(it.next(), signal, () => {
    void it.return(undefined as R).catch(() => undefined);
    return new GatewayError({ code: 'cancelled', message: 'cancelled' });
  });
}

/** One label for several attempts: the least certain source among those that cost something; `none` when none did. */
function combinedSource(sources: readonly CostSource[]): CostSource {
  const billed = sources.filter((s) => s !== 'none' && s !== 'cached');
  if (billed.length === 0) return 'none';
  if (billed.includes('estimated')) return 'estimated';
  if (billed.includes('usage')) return 'usage';
  return 'reported';
}
