import * as z from 'zod/mini';
import { VERDICTS } from './reviewCodes';
import { SEVERITIES } from './severity';

/**
 * A finding: the one declaration of its shape, from which every layer derives. Core's `Finding` (the merge, the
 * answer cache, region memory) is this schema's type; the page's `FindingView` is it without the merge's
 * bookkeeping; the JSON report (`core/report/json.ts`) and the MCP result (`cli/mcp/schemas.ts`) pick their fields
 * from it and say some of them more strictly. It lives in `src/shared/` because the page may import nothing else,
 * and is written with `zod/mini` (a third of classic zod's size in the page's bundle; classic zod reads it too).
 *
 * The bounds are the widest any face takes (what the page accepts in a message). The answer's parser
 * (`core/agents/findings.ts`) cuts tighter — a title at 200 characters, an explanation at 8,000 — so that the view's
 * bidi tokens (`<U+202E>`, eight characters for one) stay within them.
 */

const text = (max: number) => z.string().check(z.maxLength(max));
const shortText = text(2_000);
const line = z.int().check(z.positive());

/** The verifier's verdict (quorum.review.verify): the model that gave it and why (model text). */
export const verificationSchema = z.object({ verdict: z.enum(VERDICTS), by: shortText, reason: text(4_000) });

/** The project's tool that already reports a finding (core/toolResults/duplicate.ts): the tool and its rule (repository text). */
export const reportedBySchema = z.object({ tool: shortText, rule: shortText });

export const findingSchema = z.object({
  /** Stable within a review (agent + index, or merged id). */
  id: shortText,
  /** The file of the region it is in (as the region names it). */
  file: text(8_000),
  /** Agents that reported it (more than one after a merge). */
  agents: z.array(shortText).check(z.minLength(1), z.maxLength(64)),
  severity: z.enum(SEVERITIES),
  title: text(20_000),
  explanation: text(200_000),
  startLine: line,
  endLine: line,
  /** Replacement CODE for lines startLine..endLine, when the agent proposed one (prose goes to `advice`). */
  suggestion: z.optional(text(500_000)),
  /** e.g. `CWE-89`. */
  cwe: z.optional(shortText),
  /** 0..1 */
  confidence: z.number().check(z.gte(0), z.lte(1)),
  /** Ids of the other agents' reports that the merge folded into this finding (absent when none). */
  mergedFrom: z.optional(z.array(shortText)),
  /** True when the agent's line numbers fell outside the reviewed range and were clamped. */
  clamped: z.optional(z.boolean()),
  /** For a clamped finding: the lines the agent named, outside the reviewed range. */
  reportedLines: z.optional(z.object({ startLine: z.int(), endLine: z.int() })),
  /** How to fix it, in words (never applied as code). */
  advice: z.optional(text(20_000)),
  /** In a changes review with every finding kept: the finding touches no changed line. */
  outsideChanges: z.optional(z.boolean()),
  /** The verifier's verdict; absent when it was not asked. */
  verification: z.optional(verificationSchema),
  /** The verifier was asked about this finding and gave no verdict (it failed, or left the finding out). */
  unverified: z.optional(z.boolean()),
  /** Carried over at $0 from an earlier review of the same region content (a re-review of changes). */
  carried: z.optional(z.boolean()),
  /** The project's tool already reports this: hidden as `reported-by-tool`. */
  reportedBy: z.optional(reportedBySchema),
  /** The learning (`.quorum/learnings.md`) that hid it or lowered its severity: its title (repository text). */
  learning: z.optional(text(200)),
});
export type Finding = z.infer<typeof findingSchema>;

/**
 * A finding as the page gets it: without the merge's bookkeeping, and with `file` optional so that reviews stored
 * before files were named still load. The host fills it in (`core/report/viewEvents.ts`, bidi controls shown).
 */
export const findingViewSchema = z.extend(z.omit(findingSchema, { mergedFrom: true, reportedLines: true }), { file: z.optional(findingSchema.shape.file) });
export type FindingView = z.infer<typeof findingViewSchema>;

/** A CWE as a report names it (`CWE-89`): the parser writes no other form, and reports say nothing else. */
export const CWE_ID = /^CWE-\d+$/;
