import { createHash } from 'node:crypto';
import type { Region, ReviewTarget, SkippedFile } from '../domain/target';
import type { CustomAgentSettings, QuorumSettings } from '../settings/schema';
import { createExcluder, type ExclusionRule, type Excluder } from './exclude';
import { EMPTY_REPOSITORY_RULES, loadRepositoryRules, QUORUMIGNORE, type RepositoryRules, type RuleFile } from './repository';
import type { RepoFs } from './repoFs';
import { rulesBlock, selectRules } from './ruleSelection';
import { SecretRedactor, type Redaction, type SecretVault } from '../redaction/redactor';

/**
 * The one step between "what is reviewed" and "the messages": repository rules and project agents, files
 * that are never sent, and secret redaction. Both faces call it, and "what will be sent" shows its output.
 */

export type RulesOff = 'untrusted' | 'disabled' | 'no-repository';

/** What a workspace or repository contributes to every review in it. */
export interface PromptContext {
  repository: RepositoryRules;
  excluder: Excluder;
  redactSecrets: boolean;
  maxRuleTokens: number;
  /** Why the repository's rules and agents were not read, when they were not. */
  rulesOff?: RulesOff;
}

interface PromptContextInput {
  settings: QuorumSettings;
  /** The repository's files; undefined when the reviewed file is in no repository or workspace folder. */
  fs: RepoFs | undefined;
  /** False in an untrusted workspace: the repository's rules and agents steer prompts, so they are not read. */
  trusted: boolean;
  /** False for `--no-rules`. */
  useRules: boolean;
}

export async function loadPromptContext(input: PromptContextInput): Promise<PromptContext> {
  const { settings, fs } = input;
  // `.quorumignore` only ever keeps files back, so it is read in untrusted workspaces too.
  const quorumignore = fs ? await fs.readText(QUORUMIGNORE) : undefined;
  const excluder = createExcluder({ globs: settings.privacy.exclude, ...(quorumignore !== undefined ? { quorumignore } : {}) });
  const rulesOff: RulesOff | undefined = !fs ? 'no-repository' : !input.trusted ? 'untrusted' : !input.useRules ? 'disabled' : undefined;
  const repository = fs && rulesOff === undefined ? await loadRepositoryRules(fs, { readAgentsMd: settings.rules.readAgentsMd }) : EMPTY_REPOSITORY_RULES;
  return {
    repository,
    excluder,
    redactSecrets: settings.privacy.redactSecrets,
    maxRuleTokens: settings.rules.maxTokens,
    ...(rulesOff ? { rulesOff } : {}),
  };
}

/** What the pipeline needs to build each agent's messages; carried in `ReviewOptions.prompt`. */
export interface PromptShape {
  rules: readonly RuleFile[];
  /** The reviewed files, relative to the repository root (rules' `applyTo` globs match these). */
  files: string[];
  maxRuleTokens: number;
  /** Whether secrets were replaced by placeholders (the agents are told what they are). */
  redacted: boolean;
  projectAgents: CustomAgentSettings[];
}

/** The prompt part an agent gets from the shape: the rules block and the rule files in it and left out. */
export function agentRules(shape: PromptShape | undefined, agent: string): { block: string; used: string[]; dropped: string[]; version: string } {
  if (!shape || shape.rules.length === 0) return { block: '', used: [], dropped: [], version: '' };
  const selection = selectRules(shape.rules, agent, shape.files, shape.maxRuleTokens);
  const block = rulesBlock(selection.used);
  return {
    block,
    used: selection.used.map((r) => r.path),
    dropped: selection.dropped.map((r) => r.path),
    version: block ? 'rules-' + createHash('sha256').update(block).digest('hex').slice(0, 12) : '',
  };
}

/** The rule files used and dropped over the agents of a review, for the panel header and the CLI. */
export function rulesReport(shape: PromptShape | undefined, agents: readonly string[]): { used: string[]; dropped: string[] } {
  const used = new Set<string>();
  const dropped = new Set<string>();
  for (const a of agents) {
    const r = agentRules(shape, a);
    r.used.forEach((p) => used.add(p));
    r.dropped.forEach((p) => dropped.add(p));
  }
  return { used: [...used].sort(), dropped: [...dropped].filter((p) => !used.has(p)).sort() };
}

export interface ShapedReview {
  /** The target as it is sent: secrets replaced by placeholders. */
  target: ReviewTarget;
  prompt: PromptShape;
  redactions: Redaction[];
  /** The values behind the placeholders: for putting the user's text back when a fix is applied. Never sent. */
  vault: SecretVault;
  /** The review's redactor (`redactions` and `vault` are its own): later shaping steps (context) redact through it. */
  redactor: SecretRedactor;
}

type ShapeOutcome = { ok: true; shaped: ShapedReview } | { ok: false; reason: 'excluded'; file: string; rule: ExclusionRule };

/**
 * Shapes one review: refuses an excluded file (in a review of changes, lists it as skipped instead), redacts
 * secrets region by region (the lines and the removed lines), and attaches the rules for the reviewed files. `relativeFile` is a selection's or
 * file's path from the repository root (undefined outside a repository: only the exclusion globs' file-name
 * patterns and redaction then apply); the regions of a changes review are repository-relative already.
 */
export async function shapeReview(target: ReviewTarget, relativeFile: string | undefined, context: PromptContext): Promise<ShapeOutcome> {
  const changes = target.kind === 'changes';
  const pathOf = (file: string) => (changes ? file : (relativeFile ?? file.replace(/\\/g, '/').split('/').pop() ?? file));
  const skipped: SkippedFile[] = [...(target.skipped ?? [])];
  const regions: Region[] = [];
  const secrets = new SecretRedactor();
  for (const region of target.regions) {
    const rule = context.excluder.match(pathOf(region.file));
    if (rule && !changes) return { ok: false, reason: 'excluded', file: region.file, rule };
    if (rule) {
      if (!skipped.some((k) => k.file === region.file)) skipped.push({ file: region.file, reason: 'excluded' });
      continue;
    }
    const named = changes || target.regions.length > 1 ? region.file : undefined;
    regions.push(context.redactSecrets ? await secrets.redactRegion(region, named) : region);
  }
  const files = changes ? [...new Set(regions.map((r) => r.file))] : relativeFile !== undefined ? [relativeFile] : [];
  return {
    ok: true,
    shaped: {
      target: { ...target, regions, ...(changes || skipped.length > 0 ? { skipped } : {}) },
      prompt: {
        rules: context.repository.rules,
        files,
        maxRuleTokens: context.maxRuleTokens,
        redacted: secrets.redactions.length > 0,
        projectAgents: context.repository.agents.map(({ source: _source, ...agent }) => agent),
      },
      redactions: secrets.redactions,
      vault: secrets.vault,
      redactor: secrets,
    },
  };
}
