import * as z from 'zod';
import { BUILTIN_AGENT_IDS } from '../../shared/builtinAgents';
import { customAgentSchema, type CustomAgentSettings } from '../settings/schema';
import { countTokens } from '../tokens/count';
import { parseFrontMatter, type FrontMatterValue } from './frontMatter';
import type { RepoFs } from './repoFs';
import { isOneOf } from '../../shared/guards';
import { LEARNINGS_FILE, learningRule, parseLearnings, type Learning } from './learnings';

/**
 * What a repository says about its reviews: rule files for every agent, for one agent or for some paths, and
 * agents of its own. Read by core for both faces; nothing here is read in an untrusted workspace.
 */

export const INSTRUCTIONS_FILE = '.quorum/instructions.md';
export const AGENTS_DIR = '.quorum/agents';
export const RULES_DIR = '.quorum/rules';
export const AGENTS_MD = 'AGENTS.md';
export const QUORUMIGNORE = '.quorumignore';

type RuleScope = { kind: 'all' } | { kind: 'agent'; agent: string } | { kind: 'path'; globs: string[] };

export interface RuleFile {
  /** Relative to the repository root. */
  path: string;
  scope: RuleScope;
  body: string;
  tokens: number;
  /** Higher wins when the budget is short: one agent's rules, then path rules, then instructions, then AGENTS.md. */
  specificity: number;
}

interface ProjectAgent extends CustomAgentSettings {
  /** The file that defines it. */
  source: string;
}

type RepositoryIssueCode = 'invalid-agent' | 'invalid-rules' | 'duplicate-agent';

/** A repository file that could not be used: names the file and the field. */
interface RepositoryIssue {
  code: RepositoryIssueCode;
  file: string;
  /** The front-matter field at fault, when one is. */
  field?: string;
  message: string;
}

export interface RepositoryRules {
  rules: RuleFile[];
  agents: ProjectAgent[];
  issues: RepositoryIssue[];
  /** `.quorum/learnings.md`: rules learned from dismissals (each is among `rules` too). */
  learnings: Learning[];
}

export const EMPTY_REPOSITORY_RULES: RepositoryRules = { rules: [], agents: [], issues: [], learnings: [] };

const SPECIFICITY = { agentsMd: 0, instructions: 1, path: 2, agent: 3 } as const;

/** Front-matter keys that make `.quorum/agents/<id>.md` define a new agent rather than hold rules for one. */
const AGENT_KEYS = ['title', 'model', 'dependsOn', 'role', 'output', 'fallbackModel'];

function list(v: FrontMatterValue | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

function rule(path: string, scope: RuleScope, body: string, specificity: number): RuleFile | undefined {
  const text = body.trim();
  if (text === '') return undefined;
  return { path, scope, body: text, tokens: countTokens(text), specificity };
}

const applyToSchema = z.object({
  applyTo: z.array(z.string().trim().min(1).max(500)).min(1, 'applyTo needs at least one glob').max(50),
});

function agentFile(path: string, id: string, data: Record<string, FrontMatterValue>, body: string, issues: RepositoryIssue[]): ProjectAgent | undefined {
  const raw: Record<string, unknown> = { id, systemPrompt: body };
  for (const [k, v] of Object.entries(data)) raw[k] = k === 'dependsOn' ? list(v) : v;
  const parsed = customAgentSchema.strict().safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.') || undefined;
      const name = field === 'systemPrompt' ? 'the prompt (the text after the front matter)' : field === 'id' ? 'the file name (the agent id)' : field;
      issues.push({ code: 'invalid-agent', file: path, ...(field ? { field } : {}), message: `${path}: ${name ?? 'front matter'}: ${issue.message}` });
    }
    return undefined;
  }
  return { ...parsed.data, source: path };
}

interface LoadRulesOptions {
  readAgentsMd: boolean;
}

/** Reads the repository's rule files and project agents. Files that cannot be used are reported in `issues`. */
export async function loadRepositoryRules(fs: RepoFs, options: LoadRulesOptions): Promise<RepositoryRules> {
  const rules: RuleFile[] = [];
  const agents: ProjectAgent[] = [];
  const issues: RepositoryIssue[] = [];
  const push = (r: RuleFile | undefined) => {
    if (r) rules.push(r);
  };

  if (options.readAgentsMd) {
    const text = await fs.readText(AGENTS_MD);
    if (text !== undefined) push(rule(AGENTS_MD, { kind: 'all' }, text, SPECIFICITY.agentsMd));
  }
  const instructions = await fs.readText(INSTRUCTIONS_FILE);
  if (instructions !== undefined) push(rule(INSTRUCTIONS_FILE, { kind: 'all' }, parseFrontMatter(instructions).body, SPECIFICITY.instructions));

  for (const name of (await fs.list(RULES_DIR)).filter((n) => n.toLowerCase().endsWith('.md')).sort()) {
    const path = `${RULES_DIR}/${name}`;
    const text = await fs.readText(path);
    if (text === undefined) continue;
    const fm = parseFrontMatter(text);
    const parsed = applyToSchema.safeParse({ applyTo: list(fm.data?.applyTo) ?? [] });
    if (!parsed.success) {
      issues.push({ code: 'invalid-rules', file: path, field: 'applyTo', message: `${path}: applyTo: ${parsed.error.issues[0]?.message ?? 'invalid'} (e.g. applyTo: "src/**/*.ts")` });
      continue;
    }
    push(rule(path, { kind: 'path', globs: parsed.data.applyTo }, fm.body, SPECIFICITY.path));
  }

  const learnings = await readLearnings(fs, issues);
  rules.push(...learnings.map(learningRule));

  for (const name of (await fs.list(AGENTS_DIR)).filter((n) => n.toLowerCase().endsWith('.md')).sort()) {
    const path = `${AGENTS_DIR}/${name}`;
    const id = name.slice(0, -3);
    const text = await fs.readText(path);
    if (text === undefined) continue;
    const fm = parseFrontMatter(text);
    if (fm.badLine !== undefined) {
      issues.push({ code: 'invalid-agent', file: path, message: `${path}: line ${fm.badLine} of the front matter is not "key: value"` });
      continue;
    }
    const definesAgent = fm.data !== undefined && AGENT_KEYS.some((k) => fm.data?.[k] !== undefined);
    if (definesAgent && !isOneOf(BUILTIN_AGENT_IDS, id)) {
      const agent = agentFile(path, id, fm.data ?? {}, fm.body, issues);
      if (agent) agents.push(agent);
      continue;
    }
    if (definesAgent) {
      issues.push({ code: 'duplicate-agent', file: path, field: 'id', message: `${path}: "${id}" is a built-in agent; change its model in the quorum.agents.${id} settings. The file's text was used as rules for it` });
    }
    push(rule(path, { kind: 'agent', agent: id }, fm.body, SPECIFICITY.agent));
  }
  return { rules, agents, issues, learnings };
}

/** The learnings of `.quorum/learnings.md`; a section that cannot be used is reported by its title. */
async function readLearnings(fs: RepoFs, issues: RepositoryIssue[]): Promise<Learning[]> {
  const text = await fs.readText(LEARNINGS_FILE);
  if (text === undefined) return [];
  const read = parseLearnings(text);
  for (const i of read.issues) issues.push({ code: 'invalid-rules', file: LEARNINGS_FILE, message: `${LEARNINGS_FILE}: "${i.title}": ${i.message}` });
  return read.learnings;
}
