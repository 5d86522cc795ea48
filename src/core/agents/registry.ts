import { createHash } from 'node:crypto';
import { BUILTIN_AGENT_IDS, BUILTIN_AGENTS, BUILTIN_REVIEWERS, builtinAgent, builtinRole, ROLE_OUTPUT } from '../../shared/builtinAgents';
import { customAgentRole, type QuorumSettings } from '../settings/schema';
import { BUILTIN_PROMPTS, PROMPT_VERSION } from './prompts';
import type { AgentSpec } from './spec';

type AgentIssueCode = 'duplicate-id' | 'unknown-dependency' | 'cycle';

/** A problem with the configured agents. `fatal` issues stop a review; others were repaired (e.g. dropped). */
export interface AgentIssue {
  code: AgentIssueCode;
  agent: string;
  /** The settings path under `quorum.` that holds the problem. */
  path: string;
  /** English, for logs and the CLI; UIs localise from `code`, `agent` and `related`. */
  message: string;
  /** The unknown ids, or the agents of the cycle in order. */
  related: string[];
  fatal: boolean;
}

interface ResolvedAgents {
  agents: AgentSpec[];
  issues: AgentIssue[];
}

function promptVersionOf(prompt: string): string {
  return 'custom-' + createHash('sha256').update(prompt).digest('hex').slice(0, 16);
}

/** The enabled built-ins with the user's prompts and models. */
function builtinSpecs(settings: QuorumSettings): AgentSpec[] {
  return BUILTIN_AGENT_IDS.filter((id) => settings.agents[id].enabled).map((id): AgentSpec => {
    const s = settings.agents[id];
    const custom = s.systemPrompt.trim();
    const { title, role } = BUILTIN_AGENTS[id];
    return {
      id,
      title,
      systemPrompt: custom || BUILTIN_PROMPTS[id],
      model: s.model,
      fallbackModel: s.fallbackModel,
      // The coder reads every built-in reviewer.
      dependsOn: role === 'coder' ? [...BUILTIN_REVIEWERS] : [],
      role,
      output: ROLE_OUTPUT[role],
      builtin: true,
      promptVersion: custom ? promptVersionOf(custom) : PROMPT_VERSION,
    };
  });
}

/** The custom agents; one that reuses an id of the table (a disabled built-in's, the verifier's) or of an earlier one is dropped. */
function customSpecs(settings: QuorumSettings, issues: AgentIssue[]): AgentSpec[] {
  const agents: AgentSpec[] = [];
  settings.customAgents.forEach((c, index) => {
    if (builtinRole(c.id) !== undefined || agents.some((a) => a.id === c.id)) {
      issues.push({
        code: 'duplicate-id', agent: c.id, path: `customAgents.${index}.id`, related: [c.id], fatal: false,
        message: `custom agent "${c.id}" reuses an agent id that is already taken; it was ignored`,
      });
      return;
    }
    const role = customAgentRole(c);
    agents.push({
      id: c.id,
      title: c.title,
      systemPrompt: c.systemPrompt,
      model: c.model,
      fallbackModel: c.fallbackModel,
      dependsOn: [...new Set(c.dependsOn)],
      role,
      output: ROLE_OUTPUT[role],
      builtin: false,
      promptVersion: promptVersionOf(c.systemPrompt),
    });
  });
  return agents;
}

/** Drops dependencies on disabled built-ins; an unknown dependency is a fatal issue. */
function checkDependencies(agents: AgentSpec[], settings: QuorumSettings, issues: AgentIssue[]): void {
  const known = new Set(agents.map((a) => a.id));
  for (const agent of agents) {
    agent.dependsOn = agent.dependsOn.filter((d) => known.has(d) || builtinAgent(d) === undefined);
    const unknown = agent.dependsOn.filter((d) => !known.has(d));
    if (unknown.length > 0) {
      const index = settings.customAgents.findIndex((c) => c.id === agent.id);
      issues.push({
        code: 'unknown-dependency', agent: agent.id, path: `customAgents.${index}.dependsOn`, related: unknown, fatal: true,
        message: `agent "${agent.id}" depends on ${unknown.map((u) => `"${u}"`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not a known agent`,
      });
    }
  }
}

/**
 * The agents a review runs: the enabled built-ins with the user's overrides, then the custom agents.
 * Dependencies on disabled built-ins are dropped (the dependent agent runs with what it has); unknown
 * dependencies and cycles are fatal issues; a custom agent that reuses an id is dropped.
 */
export function resolveAgents(settings: QuorumSettings): ResolvedAgents {
  const issues: AgentIssue[] = [];
  const agents = [...builtinSpecs(settings), ...customSpecs(settings, issues)];
  checkDependencies(agents, settings, issues);
  const cycle = findCycle(agents);
  const first = cycle?.[0];
  if (cycle && first !== undefined) {
    const index = settings.customAgents.findIndex((c) => cycle.includes(c.id));
    issues.push({
      code: 'cycle', agent: first, path: index >= 0 ? `customAgents.${index}.dependsOn` : 'customAgents', related: cycle, fatal: true,
      message: `agents depend on each other in a cycle: ${[...cycle, first].join(' -> ')}`,
    });
  }
  return { agents, issues };
}

/** A dependency cycle as the list of its agents in order, or undefined. Unknown ids are ignored. */
export function findCycle(agents: readonly Pick<AgentSpec, 'id' | 'dependsOn'>[]): string[] | undefined {
  const byId = new Map(agents.map((a) => [a.id, a]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const s = state.get(id);
    if (s === 'done') return undefined;
    if (s === 'visiting') return stack.slice(stack.indexOf(id));
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (!byId.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const a of agents) {
    const found = visit(a.id);
    if (found) return found;
  }
  return undefined;
}

/** Agents ordered so that each comes after its dependencies; ties keep the configured order. */
export function topologicalOrder<T extends Pick<AgentSpec, 'id' | 'dependsOn'>>(agents: readonly T[]): T[] {
  const placed = new Set<string>();
  const ids = new Set(agents.map((a) => a.id));
  const out: T[] = [];
  let progressed = true;
  while (out.length < agents.length && progressed) {
    progressed = false;
    for (const a of agents) {
      if (placed.has(a.id)) continue;
      if (a.dependsOn.every((d) => placed.has(d) || !ids.has(d))) {
        out.push(a);
        placed.add(a.id);
        progressed = true;
      }
    }
  }
  if (out.length < agents.length) throw new Error('topologicalOrder: the agents have a dependency cycle');
  return out;
}

/**
 * Keeps only the chosen agents, in configured order; dependencies on agents that were not chosen are dropped.
 * Returns the ids that name no agent in `unknown`.
 */
export function selectAgents(agents: readonly AgentSpec[], ids: readonly string[] | undefined): { agents: AgentSpec[]; unknown: string[] } {
  if (!ids || ids.length === 0) return { agents: agents.map((a) => ({ ...a, dependsOn: [...a.dependsOn] })), unknown: [] };
  const wanted = new Set(ids);
  const unknown = [...wanted].filter((id) => !agents.some((a) => a.id === id));
  const chosen = agents.filter((a) => wanted.has(a.id));
  return { agents: chosen.map((a) => ({ ...a, dependsOn: a.dependsOn.filter((d) => wanted.has(d)) })), unknown };
}
