import { keepsOutsideChanges } from '../core/pipeline/options';
import { urlSecrets } from '../core/pipeline/diskCache';
import { nodeRepoFs } from '../core/prompt/repoFs';
import { loadPromptContext } from '../core/prompt/shape';
import type { CodeContextSource, ReviewRequest, ReviewWork } from '../core/review/reviewRequest';
import type { QuorumSettings } from '../core/settings/schema';
import { defaultCacheDir } from '../core/util/cacheDir';
import type { ReviewArgs } from './args';
import { cliOutcomes } from './outcomes';

/**
 * The one request builder of the command line's faces: `quorum review` and the MCP server's review tools build
 * the `ReviewRequest` of core's `runReview` here, from the same flags and the same repository. What differs is
 * the face's own and is added by it: the confirm, the noise controls, events, and (the CLI's) tool results and
 * region memory.
 */

/** What the flags of `quorum review` and `quorum mcp` say of every review. */
type RequestFlags = Pick<ReviewArgs, 'models' | 'noCache' | 'noRules' | 'context' | 'contextTokens' | 'cacheDir'> & Partial<Pick<ReviewArgs, 'contextSeconds' | 'allFindings'>>;

interface RequestSetup {
  flags: RequestFlags;
  settings: QuorumSettings;
  env: Readonly<Record<string, string | undefined>>;
  key: string;
  baseUrl: string;
  language: string;
  signal: AbortSignal;
  /** Run only these agents (`--agents`, a tool call's `agents`); all enabled agents when absent. */
  agents?: string[] | undefined;
  /** The repository root: its rules, the index of its code, what became of the findings shown in it. */
  root: string | undefined;
  /** A line for the reader (a rule file that cannot be used, the outcome store's problem). */
  say: (line: string) => void;
  /** Why no context is sent, when choosing it failed (the review goes on without). */
  noContext: (message: string) => void;
}

/** What every review of these faces asks for: the work, the repository's part of the prompts, the options, the code's context, the outcomes kept. */
type RequestBase = Pick<ReviewRequest, 'work' | 'context' | 'options' | 'codeContext' | 'outcomes'>;

/** Definitions, callers and enclosing signatures from the repository's tree-sitter index (kept in the cache folder). */
function codeContextOf(s: RequestSetup): CodeContextSource | undefined {
  const { root, settings, flags } = s;
  if (!root || !settings.context.enabled || !flags.context) return undefined;
  return {
    root,
    cacheDir: flags.cacheDir ?? defaultCacheDir(s.env),
    maxTokens: flags.contextTokens ?? settings.context.maxTokens,
    maxFileBytes: settings.changes.maxFileKb * 1024,
    timeBudgetMs: (flags.contextSeconds ?? settings.context.timeBudgetSeconds) * 1000,
    onError: s.noContext,
  };
}

/** The request of `work` as the flags and the repository make it; the face adds its confirm and noise controls. */
export async function buildRequest(s: RequestSetup, work: ReviewWork): Promise<RequestBase> {
  const { settings, flags, root } = s;
  // What the repository contributes to the prompts: its rules and agents, files never sent, redaction.
  const context = await loadPromptContext({ settings, fs: root ? nodeRepoFs(root) : undefined, trusted: true, useRules: !flags.noRules });
  for (const issue of context.repository.issues) s.say(`warning: ${issue.message}`);
  const codeContext = codeContextOf(s);
  return {
    work,
    context,
    options: {
      language: s.language,
      noCache: flags.noCache,
      signal: s.signal,
      ...(s.agents ? { agents: s.agents } : {}),
      ...(Object.keys(flags.models).length > 0 ? { modelOverrides: flags.models } : {}),
      ...(keepsOutsideChanges(settings, flags.allFindings) ? { keepOutsideChanges: true } : {}),
    },
    ...(codeContext ? { codeContext } : {}),
    // What became of each finding shown before in this repository, kept in the cache folder (core/outcomes).
    ...(root ? { outcomes: cliOutcomes(root, flags.cacheDir ?? defaultCacheDir(s.env), [s.key, ...urlSecrets(s.baseUrl)], s.say) } : {}),
  };
}
