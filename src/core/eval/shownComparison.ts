import * as z from 'zod';
import { MAX_COMPARED_MODELS } from './plan';
import { evalRunJsonSchema, toEvalJson } from './report';
import type { EvalReport } from './runner';

/**
 * What the Compare Models page shows, as the editor keeps it so that the page can be restored after a window
 * reload: the agent, the corpus, each run's figures (the `quorum eval --format json` run), the failures by code,
 * and whether the comparison was stopped. Stored data is read back through this schema; anything that does not
 * parse is not shown.
 */

const count = z.number().int().nonnegative();
const text = (max: number) => z.string().min(1).max(max);

const shownComparisonSchema = z.strictObject({
  version: z.literal(1),
  agent: z.strictObject({ id: text(200), title: text(200) }),
  corpus: z.strictObject({ label: text(1100), cases: count, clean: count }),
  runs: z.array(evalRunJsonSchema).min(1).max(MAX_COMPARED_MODELS),
  failureCodes: z.array(z.record(z.string().max(200), count)).max(MAX_COMPARED_MODELS),
  stopped: z.strictObject({ measured: count, total: count }).optional(),
});
export type ShownComparison = z.infer<typeof shownComparisonSchema>;

/** The comparison a finished (or stopped) eval shows. */
export function shownComparison(agent: ShownComparison['agent'], corpus: ShownComparison['corpus'], report: EvalReport): ShownComparison {
  return {
    version: 1,
    agent,
    corpus,
    runs: toEvalJson(report.runs).runs,
    failureCodes: report.failureCodes,
    ...(report.cancelled ? { stopped: { measured: report.finished.reduce((s, n) => s + n, 0), total: report.runs.length * corpus.cases } } : {}),
  };
}

/** What was stored, validated; undefined when nothing was, or when it does not parse. */
export function parseShownComparison(raw: unknown): ShownComparison | undefined {
  const parsed = shownComparisonSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
