import type { AgentRole } from '../../shared/builtinAgents';
import type { AgentOutputKind } from '../../shared/reviewCodes';

/**
 * An agent is data: who it is, what it is told, which model answers, which agents' results it reads, the role it
 * plays and the kind of answer that role gives. Built-ins and custom agents have the same shape.
 */
export interface AgentSpec {
  id: string;
  title: string;
  systemPrompt: string;
  model: string;
  /** Tried once after the primary model's retries are spent; empty for none. */
  fallbackModel: string;
  /** Agents whose results this one reads; it starts when they have all finished (in any state). */
  dependsOn: string[];
  role: AgentRole;
  /** The role's answer (`ROLE_OUTPUT`): findings, or code. */
  output: AgentOutputKind;
  builtin: boolean;
  /** Identifies the prompt text: the built-in prompt's version, or a hash of a user's prompt. */
  promptVersion: string;
}
