import { BUILTIN_REVIEWERS } from '../../shared/builtinAgents';
import { resolveAgents } from '../agents/registry';
import { ReviewConfigError } from '../pipeline/errors';
import { modelIdSchema, type QuorumSettings } from '../settings/schema';

/** Which agent × model runs an eval makes. */

export const MAX_COMPARED_MODELS = 5;

export interface EvalRunSpec {
  agent: string;
  model: string;
}

interface EvalSelection {
  /** Agents on their configured models (default analyst, architecture, security); ignored with `compare`. */
  agents?: readonly string[];
  /** agent → model, for `agents` (the `--model` flags). */
  models?: Readonly<Record<string, string>>;
  /** agent → models to compare (up to 5 each); when given, only these agents run. */
  compare?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The runs of an eval, in order: reviewers only. Throws `ReviewConfigError` for an unknown agent, a coder (it
 * proposes code and is not scored), an invalid model id, or more than 5 models for one agent.
 */
export function planRuns(settings: QuorumSettings, selection: EvalSelection): EvalRunSpec[] {
  const { agents } = resolveAgents(settings);
  const specOf = (id: string) => {
    const spec = agents.find((a) => a.id === id);
    if (!spec) throw new ReviewConfigError('unknown-agent', `unknown agent "${id}" (known: ${agents.filter((a) => a.role === 'reviewer').map((a) => a.id).join(', ')})`, { related: [id] });
    if (spec.role !== 'reviewer') throw new ReviewConfigError('unknown-agent', `agent "${id}" proposes code and is not scored; choose an agent that reports findings`, { related: [id] });
    return spec;
  };
  const model = (agent: string, id: string) => {
    const parsed = modelIdSchema.safeParse(id);
    if (!parsed.success) throw new ReviewConfigError('invalid-model', `"${id}" is not a valid model id for agent "${agent}"`, { related: [agent] });
    return parsed.data;
  };
  const runs: EvalRunSpec[] = [];
  if (selection.compare && Object.keys(selection.compare).length > 0) {
    for (const [agent, models] of Object.entries(selection.compare)) {
      specOf(agent);
      const unique = [...new Set(models.map((m) => model(agent, m)))];
      if (unique.length === 0) throw new ReviewConfigError('invalid-model', `no model to compare for agent "${agent}"`, { related: [agent] });
      if (unique.length > MAX_COMPARED_MODELS) throw new ReviewConfigError('invalid-model', `at most ${MAX_COMPARED_MODELS} models per agent (got ${unique.length} for "${agent}")`, { related: [agent] });
      for (const m of unique) runs.push({ agent, model: m });
    }
    return runs;
  }
  const chosen = selection.agents && selection.agents.length > 0 ? [...new Set(selection.agents)] : [...BUILTIN_REVIEWERS];
  for (const agent of Object.keys(selection.models ?? {})) {
    if (!chosen.includes(agent)) throw new ReviewConfigError('unknown-agent', `a model was given for agent "${agent}", which this eval does not run`, { related: [agent] });
  }
  for (const agent of chosen) {
    const spec = specOf(agent);
    const override = selection.models?.[agent];
    runs.push({ agent, model: override !== undefined ? model(agent, override) : spec.model });
  }
  return runs;
}
