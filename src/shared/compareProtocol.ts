import * as z from 'zod/mini';

/**
 * The Compare Models page: its English strings (the host localises each, the English text being the l10n key,
 * and builds the page with them) and the messages the page may post, which the host validates on arrival.
 * The page is rendered by the host; it posts only what a button asks for.
 */

export const COMPARE_STRINGS = {
  pageTitle: 'Quorum: Compare Models',
  heading: 'Compare models for {0}',
  meta: '{0} · {1} cases ({2} clean) · spent {3}',
  statusCancelled: 'Stopped after {0} of {1} cases: unfinished cases count as failures, and these figures are not kept.',
  agent: 'agent',
  model: 'model',
  precision: 'precision',
  recall: 'recall',
  f1: 'F1',
  fpPerClean: 'FP/clean',
  cost: 'cost',
  costPerTrue: '$/true',
  p50: 'p50',
  p95: 'p95',
  failures: 'failures',
  use: 'use',
  useFor: 'Use for {0}',
  current: 'current',
  failuresHeading: 'Failures',
  failureLine: '{0}: {1} of {2} cases failed ({3})',
  chartHeading: 'Cost versus F1',
  chartTitle: 'Cost versus F1',
  chartX: 'total cost (USD)',
  chartY: 'F1',
  chartNoF1: '{0}: no F1',
  thresholdsHeading: 'Precision / recall at confidence ≥ t',
  thresholdColumn: 't = {0}',
  outcomesHeading: 'On your repository: what became of this agent\'s findings',
  outcomesNote: 'Beside the corpus figures once {0} of a model\'s findings for this agent have an outcome (addressed or dismissed; open and gone ones have none yet). Counted from the reviews of this workspace (Quorum: Show Review Outcomes).',
  outcomesDecided: 'with an outcome',
  outcomesNotEnough: 'not enough yet: {0} of {1}',
  raised: 'raised',
  addressed: 'addressed',
  dismissed: 'dismissed',
  stillOpen: 'open',
  addressedRate: 'addressed rate',
  refutedRate: 'refuted',
  usdPerAddressed: '$/addressed',
  definitions: 'Precision = matched reported ÷ reported; recall = matched expected ÷ expected; F1 = 2PR/(P+R); "-" where a denominator is zero. Cost counts every billed attempt; latency runs from sending to the last byte, nearest-rank percentiles over the cases that succeeded.',
} as const;

type CompareStringKey = keyof typeof COMPARE_STRINGS;
export type CompareStrings = Record<CompareStringKey, string>;

const str = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

export const compareToHostSchema = z.discriminatedUnion('type', [
  /** "Use for <agent>": make this model the agent's model. */
  z.object({ type: z.literal('useModel'), agent: str(200), model: str(200) }),
  /** Something the page failed at, for the host's log. */
  z.object({ type: z.literal('log'), level: z.enum(['warn', 'error']), message: str(2_000) }),
]);
export type CompareToHost = z.infer<typeof compareToHostSchema>;
