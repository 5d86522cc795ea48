import * as z from 'zod';
import { SEVERITIES } from '../../shared/severity';
import { VERDICTS } from '../../shared/reviewCodes';

/**
 * What became of a finding Quorum showed: one record per distinct finding, kept in the outcome store
 * (store.ts). A record holds hashes, lines, the finding's title (model text, key scrubbed) and its figures —
 * never the reviewed code.
 */

const OUTCOME_STATUSES = ['open', 'addressed', 'dismissed', 'gone'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** Who or what decided the status: a later review, the editor, `.quorum/dismissed.json`, a pull-request thread. */
const OUTCOME_SOURCES = ['review', 'editor', 'project', 'thread-push', 'thread-person'] as const;
export type OutcomeSource = (typeof OUTCOME_SOURCES)[number];

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const outcomeRecordSchema = z.object({
  v: z.literal(1),
  /** Stable across the record's snapshots. */
  id: z.string().regex(/^[0-9a-f]{32}$/),
  /** When the finding was first raised, and when this snapshot was written (ms since the epoch). */
  raisedAt: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
  file: z.string().min(1).max(4000),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** Every agent that told it, the model that answered, and its share of that agent's cost. */
  agents: z.array(z.object({ agent: z.string().min(1).max(80), model: z.string().max(200), costUsd: z.number().nonnegative() })).min(1).max(20),
  severity: z.enum(SEVERITIES),
  verdict: z.enum(VERDICTS).optional(),
  /** The finding's rule: its CWE, else its title as a slug (memory/fingerprint.ts's). */
  rule: z.string().min(1).max(200),
  title: z.string().max(300),
  /** sha256 of the normalised code of its lines when last seen, and how many non-blank lines that is. */
  code: sha256,
  lines: z.number().int().nonnegative().max(100_000),
  status: z.enum(OUTCOME_STATUSES),
  by: z.enum(OUTCOME_SOURCES),
  /** Why it was dismissed, when a reason was given (the user's words). */
  reason: z.string().max(500).optional(),
});

export type OutcomeRecord = z.infer<typeof outcomeRecordSchema>;
