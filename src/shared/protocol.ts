import { CONTEXT_KINDS } from './codeContext';
import { findingViewSchema } from './finding';
import { AGENT_ERROR_CODES, AGENT_OUTPUTS, COST_SOURCES, GATEWAY_ERROR_CODES, HIDDEN_REASONS, RETRY_KINDS, SKIP_REASONS, TARGET_KINDS, VERIFIER_NOTICES } from './reviewCodes';
import * as z from 'zod/mini';

/**
 * Messages between the extension host and the review webview. Both sides validate what arrives with these
 * schemas and drop (and log) what does not parse.
 *
 * The host keeps a `ReviewView` per panel, built by the same reducer the webview runs (`reviewReducer.ts`).
 * It sends a full `snapshot` when the page says `ready` (and when the panel becomes visible again, which
 * reloads the page), then `events` messages whose `seq` grows by one each time; a page that sees a gap asks
 * for a `resync` and the host answers with a snapshot.
 *
 * `zod/mini` (not classic zod): the same validation at a third of the size in the webview bundle.
 */

const str = (max: number) => z.string().check(z.maxLength(max));
const text = str(2_000_000);
const shortText = str(2_000);
const count = z.int().check(z.nonnegative());
const int = z.int();
/** zod 4 numbers are finite: NaN and Infinity are rejected. */
const money = z.number().check(z.nonnegative());
const nonNegative = money;
const list = <T extends z.core.SomeType>(item: T, max: number) => z.array(item).check(z.maxLength(max));

export type { FindingView } from './finding';

const AGENT_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
const agentStateSchema = z.enum(AGENT_STATES);
export type AgentState = z.infer<typeof agentStateSchema>;

const costSourceSchema = z.enum(COST_SOURCES);
/** A retry says which failure it follows (a gateway error code) and how it tries again. */
const retrySchema = { attempt: count, model: shortText, code: z.enum(GATEWAY_ERROR_CODES), reason: z.enum(RETRY_KINDS) };

/** What the panel shows of an agent's error: a code it localises, plus the data a code needs. */
const agentErrorViewSchema = z.object({
  code: z.enum(AGENT_ERROR_CODES),
  /** English, key-free detail (shown under "Details"). */
  message: z.optional(str(20_000)),
  status: z.optional(int),
  model: z.optional(shortText),
  retryAfterMs: z.optional(nonNegative),
  suggestions: z.optional(list(shortText, 20)),
});
export type AgentErrorView = z.infer<typeof agentErrorViewSchema>;

const usageViewSchema = z.object({
  promptTokens: count,
  completionTokens: count,
  cachedTokens: count,
  reasoningTokens: count,
});

/** The end of one agent's run (done, failed or cancelled). */
const agentOutcomeSchema = z.object({
  state: z.enum(['done', 'failed', 'cancelled']),
  model: shortText,
  text,
  cached: z.boolean(),
  usage: usageViewSchema,
  costUsd: money,
  costSource: costSourceSchema,
  latencyMs: nonNegative,
  attempts: count,
  /** A review of changes: the agent's requests, one per batch (absent: one). */
  requests: z.optional(count),
  unparsed: z.optional(z.boolean()),
  improvedCode: z.optional(str(1_000_000)),
  /** The improved code per region (a review of changes, or a selection's one region). */
  replacements: z.optional(list(z.object({ file: str(8_000), startLine: int, endLine: int, code: str(1_000_000) }), 1_000)),
  rationale: z.optional(str(200_000)),
  error: z.optional(agentErrorViewSchema),
  /** The verifier's note on its run (same model, or no other model to check on). */
  notice: z.optional(z.object({ code: z.enum(VERIFIER_NOTICES), model: z.optional(shortText) })),
  findingCount: count,
});
export type AgentOutcome = z.infer<typeof agentOutcomeSchema>;

const agentOutputSchema = z.enum(AGENT_OUTPUTS);

const agentViewSchema = z.object({
  agent: shortText,
  title: shortText,
  model: shortText,
  state: agentStateSchema,
  /** The answer so far (streamed) or in full (ended). */
  text,
  /** Streamed chunks so far: the live token count while running. */
  chunks: count,
  /** The estimate before the run, when the host had one: its ceiling (every token of maxOutputTokens)… */
  estimateUsd: z.optional(money),
  /** …and its likely figure (a typical answer). */
  likelyUsd: z.optional(money),
  /** What the agent answers with: findings (JSON read into findings) or improved code. */
  output: z.optional(agentOutputSchema),
  outcome: z.optional(agentOutcomeSchema),
  /** The gateway client is trying again after a failed attempt (cleared by the first streamed text). */
  retry: z.optional(z.object(retrySchema)),
});
export type AgentView = z.infer<typeof agentViewSchema>;

const reviewTotalsViewSchema = z.object({
  costUsd: money,
  /** The part of costUsd that is an estimate (absent in reviews stored before it was counted). */
  estimatedUsd: z.optional(money),
  promptTokens: count,
  completionTokens: count,
  cachedTokens: count,
  requests: count,
  retries: count,
});

const privacyViewSchema = z.object({
  rules: list(shortText, 200),
  rulesDropped: list(shortText, 200),
  redactions: list(z.object({ kind: shortText, line: int, endLine: int, file: z.optional(shortText) }), 2_000),
});
export type PrivacyView = z.infer<typeof privacyViewSchema>;

const hiddenFindingSchema = z.object({ id: shortText, reason: z.enum(HIDDEN_REASONS) });

/**
 * The code sent read-only beside the reviewed code (definitions, callers, enclosing signatures): each snippet's
 * file (relative to `root`, a URI), lines, symbol and kind — untrusted text, from the repository — its tokens,
 * and what the token budget left out. `enabled: false`: `quorum.context.enabled` was off, nothing was looked for.
 */
const contextViewSchema = z.object({
  enabled: z.boolean(),
  root: z.optional(str(8_000)),
  items: list(z.object({ file: str(8_000), startLine: int, endLine: int, symbol: shortText, kind: z.enum(CONTEXT_KINDS), forFile: str(8_000) }), 5_000),
  tokens: count,
  cut: list(z.object({ file: str(8_000), symbol: shortText, kind: z.enum(CONTEXT_KINDS) }), 5_000),
  /** Set when the time budget stopped the context: `chosen` of `regions` had theirs ("31 of 545 regions, time budget"). */
  stopped: z.optional(z.object({ chosen: count, regions: count })),
});
export type ContextView = z.infer<typeof contextViewSchema>;

/** The project's tool results sent with a review: how many, and the tools (repository text) they came from. */
const toolsViewSchema = z.object({ results: count, tools: list(shortText, 100) });
export type ToolsView = z.infer<typeof toolsViewSchema>;

const REVIEW_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
const reviewStateSchema = z.enum(REVIEW_STATES);
export type ReviewState = z.infer<typeof reviewStateSchema>;

export const reviewViewSchema = z.object({
  sessionId: shortText,
  targetKey: shortText,
  /** The reviewed document's URI, for revealing lines of a restored review. */
  uri: z.optional(str(8_000)),
  /** The reviewed file and lines; for changes, the first region (the `changes` field says what was reviewed). */
  target: z.object({
    file: shortText,
    language: shortText,
    startLine: int,
    endLine: int,
  }),
  /** A review of several regions across files (changes): what the header says, and each file reviewed or skipped. */
  changes: z.optional(z.object({
    kind: z.enum(TARGET_KINDS),
    label: shortText,
    files: list(str(8_000), 10_000),
    added: count,
    removed: count,
    skipped: list(z.object({ file: str(8_000), reason: z.enum(SKIP_REASONS) }), 10_000),
  })),
  status: reviewStateSchema,
  /** Epoch milliseconds. */
  startedAt: nonNegative,
  elapsedMs: z.optional(nonNegative),
  /** The review's estimated cost at most (the ceiling)… */
  estimateUsd: z.optional(money),
  /** …and likely. */
  likelyUsd: z.optional(money),
  totals: z.optional(reviewTotalsViewSchema),
  agents: list(agentViewSchema, 64),
  /** Streamed findings while running; the merged list once the review is done. */
  findings: list(findingViewSchema, 5_000),
  dismissed: list(shortText, 5_000),
  /** Findings whose fix was applied (from the panel or a quick fix); optional so that stored reviews still load. */
  applied: z.optional(list(shortText, 5_000)),
  /** False for a review restored from an earlier window: nothing can be applied, only re-run or exported. */
  live: z.boolean(),
  /** What shaped the prompts: repository rule files used and left out, and the secrets redacted (kinds and lines). */
  privacy: z.optional(privacyViewSchema),
  /** Findings the noise controls hide (counted, listed on request); optional so that stored reviews still load. */
  hidden: z.optional(list(hiddenFindingSchema, 5_000)),
  /** "Dismiss in this project" is offered (a live review of a file in a trusted workspace folder). */
  projectDismiss: z.optional(z.boolean()),
  /** A re-review of changes: the last review's findings not raised again ("3 resolved" in the header). */
  resolved: z.optional(count),
  /** The context sent with the review ("context: 6 definitions, 3 callers from 5 files · 1,900 tokens" in the header). */
  context: z.optional(contextViewSchema),
  /** The project's tool results sent with the review ("tools: 3 results from eslint, ts" in the header): how many, from which tools. */
  tools: z.optional(toolsViewSchema),
});
export type ReviewView = z.infer<typeof reviewViewSchema>;

/** The changes the reducer applies to a `ReviewView`, converted by the host from the pipeline's events. */
export const reviewViewEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('queued'), agent: shortText, title: shortText, model: shortText,
    estimateUsd: z.optional(money), likelyUsd: z.optional(money), output: z.optional(agentOutputSchema),
  }),
  z.object({ kind: z.literal('started'), agent: shortText, model: shortText }),
  z.object({ kind: z.literal('delta'), agent: shortText, text }),
  z.object({ kind: z.literal('retrying'), agent: shortText, ...retrySchema }),
  z.object({ kind: z.literal('finding'), agent: shortText, finding: findingViewSchema }),
  z.object({ kind: z.literal('ended'), agent: shortText, title: shortText, outcome: agentOutcomeSchema }),
  z.object({
    kind: z.literal('review-done'),
    status: z.enum(['done', 'failed', 'cancelled']),
    elapsedMs: nonNegative,
    totals: reviewTotalsViewSchema,
    findings: list(findingViewSchema, 5_000),
    resolved: z.optional(count),
  }),
  z.object({ kind: z.literal('dismissed'), findingId: shortText }),
  z.object({ kind: z.literal('applied'), findingId: shortText }),
  /** The findings the noise controls hide now (the whole list, replacing the previous one). */
  z.object({ kind: z.literal('hidden'), findings: list(hiddenFindingSchema, 5_000) }),
]);
export type ReviewViewEvent = z.infer<typeof reviewViewEventSchema>;

/** Localised UI strings, keyed as in `panelStrings.ts`; `{0}` placeholders are filled in by the page. */
const panelStringsSchema = z.record(str(100), str(2_000));

export const hostToWebviewSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'),
    seq: count,
    review: z.nullable(reviewViewSchema),
    strings: panelStringsSchema,
  }),
  z.object({ type: z.literal('events'), seq: count, events: z.array(reviewViewEventSchema).check(z.minLength(1), z.maxLength(10_000)) }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Generic, so that each action is a message type of its own (`{ type: 'reveal'; … }`), not one with a union of types. */
const findingAction = <T extends 'reveal' | 'previewFix' | 'applyFix' | 'dismiss' | 'dismissInProject'>(type: T) =>
  z.object({ type: z.literal(type), findingId: shortText });

export const webviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The page saw a sequence gap (or could not apply a message) and wants a snapshot. */
  z.object({ type: z.literal('resync'), lastSeq: int }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('rerun'), noCache: z.boolean() }),
  /** Export the review as Markdown; `showHidden`: the page lists hidden findings, so the document does too (apart). */
  z.object({ type: z.literal('export'), showHidden: z.optional(z.boolean()) }),
  findingAction('reveal'),
  findingAction('previewFix'),
  findingAction('applyFix'),
  findingAction('dismiss'),
  /** Remember the finding in `.quorum/dismissed.json`: later reviews of the same code hide it. */
  findingAction('dismissInProject'),
  z.object({ type: z.literal('previewImproved') }),
  z.object({ type: z.literal('applyImproved') }),
  z.object({ type: z.literal('copyImproved') }),
  z.object({ type: z.literal('setApiKey') }),
  z.object({ type: z.literal('switchModel'), agent: z.optional(shortText) }),
  z.object({ type: z.literal('openLink'), href: str(8_000) }),
  /** Open a snippet of the review's context in the editor (the host opens only files inside the workspace). */
  z.object({ type: z.literal('openContext'), file: str(8_000), startLine: int, endLine: int }),
  /** Something the page dropped or failed at, for the host's log. */
  z.object({ type: z.literal('log'), level: z.enum(['warn', 'error']), message: str(2_000) }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

/** A short, content-free description of why a message failed validation (for logs: never the message body). */
export function describeIssues(error: { issues: readonly { path: readonly PropertyKey[]; code: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.code}`)
    .join('; ');
}
