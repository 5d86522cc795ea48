import * as z from 'zod';
import type { RunFigures } from './score';

/**
 * The one JSON document of `quorum eval --format json`: `{"runs":[…]}`, each run with exactly these fields in
 * this order (and `toolResults` when cases carry tool results, `verification` with --verify). Ratios with a zero denominator, and percentiles without a successful case, are null.
 */

const ratio = z.number().min(0).max(1).nullable();

export const evalRunJsonSchema = z.strictObject({
  agent: z.string(),
  model: z.string(),
  cases: z.number().int().nonnegative(),
  precision: ratio,
  recall: ratio,
  f1: ratio,
  falsePositivesPerCleanCase: z.number().nonnegative().nullable(),
  costUsd: z.number().nonnegative(),
  costPerTruePositiveUsd: z.number().nonnegative().nullable(),
  p50Ms: z.number().nonnegative().nullable(),
  p95Ms: z.number().nonnegative().nullable(),
  failures: z.number().int().nonnegative(),
  thresholds: z.array(z.strictObject({ minConfidence: z.number().min(0).max(1), precision: ratio, recall: ratio })),
});

const prf = z.strictObject({ precision: ratio, recall: ratio, f1: ratio });

/** When cases carry tool results: each run on every finding (`without`) and less the repeats of tool results (`with`). */
const evalToolResultsJsonSchema = z.strictObject({ agent: z.string(), model: z.string(), without: prf, with: prf, repeatsHidden: z.number().int().nonnegative() });

export const evalJsonSchema = z.strictObject({ runs: z.array(evalRunJsonSchema), toolResults: z.array(evalToolResultsJsonSchema).optional() });
export type EvalJson = z.infer<typeof evalJsonSchema>;

export function toEvalJson(runs: readonly RunFigures[]): EvalJson {
  return {
    runs: runs.map((r) => ({
      agent: r.agent,
      model: r.model,
      cases: r.cases,
      precision: r.precision,
      recall: r.recall,
      f1: r.f1,
      falsePositivesPerCleanCase: r.falsePositivesPerCleanCase,
      costUsd: r.costUsd,
      costPerTruePositiveUsd: r.costPerTruePositiveUsd,
      p50Ms: r.p50Ms,
      p95Ms: r.p95Ms,
      failures: r.failures,
      thresholds: r.thresholds.map((t) => ({ minConfidence: t.minConfidence, precision: t.precision, recall: t.recall })),
    })),
  };
}
