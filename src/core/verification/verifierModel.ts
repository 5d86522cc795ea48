import { catalogEntry } from '../cost/catalog';
import type { VerifyMode } from '../settings/schema';
import { BUILTIN_AGENTS } from '../../shared/builtinAgents';
import type { AgentResult } from '../domain/result';
import type { Finding } from '../domain/finding';

/**
 * Which model checks a finding (quorum.review.verify), issue 30 item 5: a model the gateway has. When the gateway's
 * `/models` is known, `cross-model` picks among the models it lists — first those no reviewer ran on, then those
 * whose reviewers raised none of the checked findings, then any that did not raise this one — and never a model on
 * which an agent failed (and none succeeded: a model that is not there, not pulled, or has no channel). A gateway
 * that lists no model besides the ones that raised the finding (a local server with one model) leaves it unchecked,
 * with a note that says so; `same-model` checks it on the model that raised it, and says so too.
 */

type Reviewer = Pick<AgentResult, 'agent' | 'model'> & Partial<Pick<AgentResult, 'status'>>;

type VerifierChoice =
  | { model: string; sameModel: boolean }
  /** No model but the ones that raised the finding (`only` is the gateway's one model, when it lists one). */
  | { skipped: 'no-other-model'; only?: string };

/** Ids of models that serve no chat completions (embeddings, speech, images, moderation, old completions). */
const NOT_CHAT = /embed|whisper|(^|[-_/])tts|dall-e|davinci|babbage|moderation|rerank|image|audio|realtime|transcri|speech|sora|(^|[-_/])ocr/i;

const norm = (m: string) => m.trim().toLowerCase();

/** The models whose agents raised `f`, as the review's results name them. */
function modelsThatRaised(f: Pick<Finding, 'agents'>, agents: readonly Reviewer[]): string[] {
  return [...new Set(f.agents.flatMap((id) => agents.filter((a) => a.agent === id).map((a) => a.model)))];
}

/** Models on which an agent failed and none succeeded. */
function failedModels(agents: readonly Reviewer[]): Set<string> {
  const ok = new Set(agents.filter((a) => a.status === 'ok').map((a) => norm(a.model)));
  return new Set(agents.filter((a) => a.status === 'error' && !ok.has(norm(a.model))).map((a) => norm(a.model)));
}

/** The gateway's chat models in the order a verifier is picked from them: built-in defaults, catalogue-known, the rest. */
function rankedListed(listed: readonly string[]): string[] {
  const chat = listed.filter((m) => !NOT_CHAT.test(m));
  const defaults = new Set(Object.values(BUILTIN_AGENTS).map((a) => norm(a.defaultModel)));
  const rank = (m: string) => (defaults.has(norm(m)) ? 0 : catalogEntry(m)?.price ? 1 : 2);
  return chat.map((m, i) => ({ m, i, r: rank(m) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.m);
}

/**
 * The model that checks `f`, or why none does. `configured` is quorum.agents.verifier.model ('' for none);
 * `listed` the gateway's model ids, undefined when its `/models` is not known (then the reviewers' models and the
 * built-in defaults are the candidates, as before).
 */
export function verifierChoice(f: Finding, checked: readonly Finding[], agents: readonly Reviewer[], mode: Exclude<VerifyMode, 'off'>, configured: string, listed?: readonly string[]): VerifierChoice {
  const raised = modelsThatRaised(f, agents);
  const raisedThis = new Set(raised.map(norm));
  if (mode === 'same-model') {
    const model = configured || raised[0] || agents[0]?.model;
    return model ? { model, sameModel: raisedThis.has(norm(model)) } : { skipped: 'no-other-model' };
  }
  if (configured && !raisedThis.has(norm(configured))) return { model: configured, sameModel: false };
  const failed = failedModels(agents);
  const raisedAny = new Set(checked.flatMap((c) => modelsThatRaised(c, agents)).map(norm));
  const usedBy = new Set(agents.map((a) => norm(a.model)));
  const pick = (candidates: readonly string[]): string | undefined =>
    candidates.find((m) => !usedBy.has(norm(m))) ?? candidates.find((m) => !raisedAny.has(norm(m))) ?? candidates.find((m) => !raisedThis.has(norm(m)));
  if (listed !== undefined) {
    const usable = rankedListed(listed).filter((m) => !failed.has(norm(m)));
    const model = pick(usable);
    if (model) return { model, sameModel: false };
    const only = usable.length === 1 ? usable[0] : undefined;
    return only ? { skipped: 'no-other-model', only } : { skipped: 'no-other-model' };
  }
  // Without the gateway's list the models known to answer come first: the reviewers' (not the failed ones).
  const known = [...new Set([...agents.map((a) => a.model), ...Object.values(BUILTIN_AGENTS).map((a) => a.defaultModel)])].filter((m) => !failed.has(norm(m)));
  const model = known.find((m) => !raisedAny.has(norm(m))) ?? known.find((m) => !raisedThis.has(norm(m)));
  return model ? { model, sameModel: false } : { skipped: 'no-other-model' };
}
