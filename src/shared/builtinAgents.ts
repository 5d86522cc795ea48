import { isOneOf } from './guards';
import type { AgentOutputKind } from './reviewCodes';

/**
 * The built-in agents: the one table of what each is (core's registry, the settings' defaults, the eval, the
 * panel's icons read it). Prompts are core's (core/agents/prompts.ts); the editor localises the titles.
 */

export const BUILTIN_AGENT_IDS = ['analyst', 'architecture', 'security', 'coding'] as const;
export type BuiltinAgentId = (typeof BUILTIN_AGENT_IDS)[number];

interface BuiltinAgent {
  /** The English title (the CLI, logs, the panel before a localised one). */
  title: string;
  /** The model it runs on unless the settings say otherwise. */
  defaultModel: string;
  /** `findings` for a reviewer; `code` for the agent that writes improved code after the reviewers. */
  output: AgentOutputKind;
  /** The codicon of its card. */
  icon: string;
  /** The kinds of expected finding an eval scores it on. */
  scoredOn: readonly ('bug' | 'design' | 'security')[];
}

export const BUILTIN_AGENTS: Readonly<Record<BuiltinAgentId, BuiltinAgent>> = {
  analyst: { title: 'Analyst', defaultModel: 'gpt-4.1', output: 'findings', icon: 'graph', scoredOn: ['bug'] },
  architecture: { title: 'Architecture', defaultModel: 'claude-sonnet-4.5', output: 'findings', icon: 'symbol-structure', scoredOn: ['design'] },
  security: { title: 'Security', defaultModel: 'gemini-2.5-flash', output: 'findings', icon: 'shield', scoredOn: ['security'] },
  coding: { title: 'Coding', defaultModel: 'deepseek-v3.2', output: 'code', icon: 'code', scoredOn: ['security', 'bug', 'design'] },
};

/** The built-in reviewers (agents that report findings), in run order: what the code-writing agent reads. */
export const BUILTIN_REVIEWERS: readonly BuiltinAgentId[] = BUILTIN_AGENT_IDS.filter((id) => BUILTIN_AGENTS[id].output === 'findings');

/** The built-in agent `id` names, if it names one. */
export function builtinAgent(id: string): BuiltinAgent | undefined {
  return isOneOf(BUILTIN_AGENT_IDS, id) ? BUILTIN_AGENTS[id] : undefined;
}
