import { isOneOf } from './guards';
import type { AgentOutputKind } from './reviewCodes';

/**
 * The built-in agents: the one table of what each is and which role it plays (core's registry, the settings'
 * defaults, the eval, the panel's icons and the command line read it). Prompts are core's (core/agents/prompts.ts);
 * the editor localises the titles.
 */

/**
 * What an agent does in a review: a `reviewer` reports findings; a `coder` writes improved code after the
 * reviewers; the `verifier` checks the merged findings after every other agent, and a failed verifier leaves them
 * as raised (the review itself succeeded).
 */
export type AgentRole = 'reviewer' | 'coder' | 'verifier';

/** The kind of answer each role gives: the verifier's verdicts are read as its own findings list. */
export const ROLE_OUTPUT: Readonly<Record<AgentRole, AgentOutputKind>> = { reviewer: 'findings', coder: 'code', verifier: 'findings' };

/** The agents of the review's graph, in run order. */
export const BUILTIN_AGENT_IDS = ['analyst', 'architecture', 'security', 'coding'] as const;
export type BuiltinAgentId = (typeof BUILTIN_AGENT_IDS)[number];

interface BuiltinAgent {
  /** The English title (the CLI, logs, the panel before a localised one). */
  title: string;
  role: Exclude<AgentRole, 'verifier'>;
  /** The model it runs on unless the settings say otherwise. */
  defaultModel: string;
  /** The codicon of its card. */
  icon: string;
  /** The kinds of expected finding an eval scores it on. */
  scoredOn: readonly ('bug' | 'design' | 'security')[];
}

export const BUILTIN_AGENTS: Readonly<Record<BuiltinAgentId, BuiltinAgent>> = {
  analyst: { title: 'Analyst', role: 'reviewer', defaultModel: 'gpt-4.1', icon: 'graph', scoredOn: ['bug'] },
  architecture: { title: 'Architecture', role: 'reviewer', defaultModel: 'claude-sonnet-4.5', icon: 'symbol-structure', scoredOn: ['design'] },
  security: { title: 'Security', role: 'reviewer', defaultModel: 'gemini-2.5-flash', icon: 'shield', scoredOn: ['security'] },
  coding: { title: 'Coding', role: 'coder', defaultModel: 'deepseek-v3.2', icon: 'code', scoredOn: ['security', 'bug', 'design'] },
};

/**
 * The built-in verifier (quorum.review.verify): not an agent of the graph but a step after the merge, on the model
 * quorum.agents.verifier.model names, else one it chooses per finding. Its id names its result, its costs and its
 * `--model verifier=…`.
 */
export const VERIFIER = { id: 'verifier', title: 'Verifier', role: 'verifier' } as const;

/** The built-in reviewers, in run order: what the coder reads. */
export const BUILTIN_REVIEWERS: readonly BuiltinAgentId[] = BUILTIN_AGENT_IDS.filter((id) => BUILTIN_AGENTS[id].role === 'reviewer');

/** The built-in agent `id` names, if it names one of the graph. */
export function builtinAgent(id: string): BuiltinAgent | undefined {
  return isOneOf(BUILTIN_AGENT_IDS, id) ? BUILTIN_AGENTS[id] : undefined;
}

/** The role of the built-in agent `id` names (the verifier's too); undefined for any other id. */
export function builtinRole(id: string): AgentRole | undefined {
  return id === VERIFIER.id ? VERIFIER.role : builtinAgent(id)?.role;
}
