import * as z from 'zod';
import { SEVERITIES } from '../../shared/severity';
import { VERDICTS } from '../../shared/reviewCodes';

/**
 * A finding: the one declaration of its shape, as a schema (the disk cache checks what it reads with it) from
 * which the type is inferred. The page's copy (`FindingView` in the protocol) is this shape on the wire, bounded.
 */
export const findingSchema = z.object({
  /** Stable within a review (agent + index, or merged id). */
  id: z.string(),
  /** The file of the region it is in (as the region names it). */
  file: z.string(),
  /** Agents that reported it (more than one after a merge). */
  agents: z.array(z.string()).min(1),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  explanation: z.string(),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** Replacement CODE for lines startLine..endLine, when the agent proposed one (prose goes to `advice`). */
  suggestion: z.string().optional(),
  /** e.g. `CWE-89`. */
  cwe: z.string().optional(),
  /** 0..1 */
  confidence: z.number().min(0).max(1),
  /** Ids of the other agents' reports that the merge folded into this finding (absent when none). */
  mergedFrom: z.array(z.string()).optional(),
  /** True when the agent's line numbers fell outside the reviewed range and were clamped. */
  clamped: z.boolean().optional(),
  /** For a clamped finding: the lines the agent named, outside the reviewed range. */
  reportedLines: z.object({ startLine: z.number().int(), endLine: z.number().int() }).optional(),
  /** How to fix it, in words (never applied as code). */
  advice: z.string().optional(),
  /** In a changes review with every finding kept: the finding touches no changed line. */
  outsideChanges: z.boolean().optional(),
  /** The verifier's verdict (quorum.review.verify): the model that gave it and why (model text); absent when not asked. */
  verification: z.object({ verdict: z.enum(VERDICTS), by: z.string(), reason: z.string() }).optional(),
  /** The verifier was asked about this finding and gave no verdict (it failed, or left the finding out). */
  unverified: z.boolean().optional(),
  /** Carried over at $0 from an earlier review of the same region content (a re-review of changes). */
  carried: z.boolean().optional(),
  /** The project's tool already reports this (core/toolResults/duplicate.ts): its tool and rule. Hidden as `reported-by-tool`. */
  reportedBy: z.object({ tool: z.string(), rule: z.string() }).optional(),
  /** The learning (`.quorum/learnings.md`) that hid it or lowered its severity: its title (repository text). */
  learning: z.string().max(200).optional(),
});

export type Finding = z.infer<typeof findingSchema>;
