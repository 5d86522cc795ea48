import * as z from 'zod';
import type { RunFigures } from './score';

/**
 * The last measured figures of each agent × model on each corpus (from "Compare Models…"), kept by the editor
 * between sessions so that Switch Model can show the F1 beside the price — only the F1 measured on the corpus a
 * comparison would run now, since a figure on another corpus does not apply. Stored data is read back through
 * this schema: anything that does not parse is dropped, never trusted.
 */

const MAX_LAST_RESULTS = 200;

const ratio = z.number().min(0).max(1).nullable();

const lastResultSchema = z.object({
  agent: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  f1: ratio,
  precision: ratio,
  recall: ratio,
  costUsd: z.number().nonnegative(),
  cases: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  /** ISO time of the measurement. */
  measuredAt: z.string().max(40),
  /** Which corpus the figures were measured on (the editor's key for it); absent in figures kept before it was noted: they match no corpus. */
  corpus: z.string().min(1).max(4096).optional(),
});
export type LastResult = z.infer<typeof lastResultSchema>;

const lastResultsSchema = z.object({ version: z.literal(1), results: z.array(lastResultSchema).max(MAX_LAST_RESULTS) });
export type LastResults = z.infer<typeof lastResultsSchema>;

/** What was stored, validated: an empty list when nothing was, or when it does not parse. */
export function parseLastResults(raw: unknown): LastResult[] {
  const parsed = lastResultsSchema.safeParse(raw);
  return parsed.success ? parsed.data.results : [];
}

/** The stored list with these runs' figures on `corpus` in place of earlier ones for the same agent × model × corpus (newest first, capped). */
export function recordResults(previous: readonly LastResult[], runs: readonly RunFigures[], corpus: string, now: Date): LastResults {
  const fresh: LastResult[] = runs.map((r) => ({
    agent: r.agent,
    model: r.model,
    f1: r.f1,
    precision: r.precision,
    recall: r.recall,
    costUsd: r.costUsd,
    cases: r.cases,
    failures: r.failures,
    measuredAt: now.toISOString(),
    corpus,
  }));
  const key = (r: LastResult) => `${r.agent}\u0000${r.model}\u0000${r.corpus ?? ''}`;
  const replaced = new Set(fresh.map(key));
  const kept = previous.filter((r) => !replaced.has(key(r)));
  return { version: 1, results: [...fresh, ...kept].slice(0, MAX_LAST_RESULTS) };
}

/** The last figures of `agent` on `model` measured on `corpus`; none measured on another corpus, or on an unknown one. */
export function lastResultFor(results: readonly LastResult[], agent: string, model: string, corpus: string): LastResult | undefined {
  return results.find((r) => r.agent === agent && r.model === model && r.corpus === corpus);
}

/** `F1 0.72` (two decimals), or `F1 –` when the run had none. */
export function f1Label(r: Pick<LastResult, 'f1'>): string {
  return r.f1 === null ? 'F1 –' : `F1 ${r.f1.toFixed(2)}`;
}
