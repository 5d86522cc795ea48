import * as z from 'zod';
import { modelIdSchema, VERIFY_MODES, type VerifyMode } from '../core/settings/schema';
import { baseUrlOption, languageOption, UsageError } from './args';

/** The command line of `quorum eval`, parsed and validated. Usage errors are `UsageError`s (exit code 2). */

export interface EvalArgs {
  command: 'eval';
  /** Relative to the working directory; absent: the shipped corpus. */
  corpus?: string;
  /** `--context on|off`: send each case the code its other files hold, as a review would (default on). */
  context: boolean;
  /** `--context-tokens N`: tokens of context per case at most (default 3000). */
  contextTokens: number;
  agents?: string[];
  models: Record<string, string>;
  compare: Record<string, string[]>;
  format: 'text' | 'json' | 'html';
  output?: string;
  maxConcurrency?: number;
  baseUrl?: string;
  language?: string;
  timeout?: number;
  /** `--verify`: verify each case's findings and report the figures with and without verification. */
  verify?: VerifyMode;
}

export const EVAL_USAGE = `Usage: quorum eval [options]

Runs agents over a labelled corpus and scores them: precision, recall, F1, false positives per clean case,
cost, cost per true finding, p50/p95 latency and failures (README: "Evaluating models").

Options:
  --corpus DIR             a corpus folder (default: the corpus shipped with Quorum)
  --context on|off         send each case the definitions and callers its folder's other files hold (default on)
  --context-tokens <n>     tokens of context per case at most (default 3000)
  --agents a,b,...         agents to score on their configured models (default analyst,architecture,security)
  --model agent=model      another model for an agent of --agents (repeatable)
  --compare agent=m1,m2    score an agent on up to 5 models (repeatable); only the agents named run
  --format text|json|html  what to print (html needs --output; default text)
  --output FILE            write the chosen format to FILE and print the text table
  --max-concurrency N      requests in flight at once (default 4)
  --base-url URL           the gateway (default: $QUORUM_BASE_URL, else https://api.holysheep.ai/v1)
  --language CODE          language of the review text (default: from LC_ALL / LANG)
  --timeout SECONDS        longest one request may take, retries included (default 180)
  --verify cross-model|same-model|off   verify each case's findings too, and print precision, recall and F1
                           with and without verification side by side, with the verifier's cost
                           (--model verifier=MODEL picks its model; default off)

Exit codes: 0 done (failed cases are counted, not fatal), 2 usage error or malformed corpus, 130 interrupted.`;

const agentId = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'agent ids are lower-case letters, digits and dashes');
const pair = (flag: string) =>
  z
    .string()
    .regex(/^[^=]+=[^=]+$/, `${flag} takes agent=model`)
    .transform((s) => {
      const i = s.indexOf('=');
      const parts: [string, string] = [s.slice(0, i).trim(), s.slice(i + 1).trim()];
      return parts;
    });

const schema = z.object({
  corpus: z.string().min(1, '--corpus needs a folder').optional(),
  agents: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(agentId).min(1, '--agents needs at least one agent id'))
    .optional(),
  models: z.array(pair('--model').pipe(z.tuple([agentId, modelIdSchema]))).default([]),
  compare: z
    .array(
      pair('--compare')
        .transform(([a, list]): [string, string[]] => [a, list.split(',').map((m) => m.trim()).filter(Boolean)])
        .pipe(z.tuple([agentId, z.array(modelIdSchema).min(1, '--compare needs at least one model').max(5, '--compare takes at most 5 models per agent')])),
    )
    .default([]),
  format: z.enum(['text', 'json', 'html'], { message: '--format is text, json or html' }).default('text'),
  output: z.string().min(1, '--output needs a file').optional(),
  maxConcurrency: z.coerce.number({ message: '--max-concurrency takes a number' }).int('--max-concurrency takes a whole number').min(1, '--max-concurrency is at least 1').max(64, '--max-concurrency is at most 64').optional(),
  baseUrl: baseUrlOption,
  language: languageOption,
  timeout: z.coerce.number({ message: '--timeout takes a number of seconds' }).min(1, '--timeout is at least 1 second').max(7200, '--timeout is at most 7200 seconds').optional(),
  verify: z.enum(VERIFY_MODES, { message: `--verify is one of ${VERIFY_MODES.join(', ')}` }).optional(),
  context: z.enum(['on', 'off'], { message: '--context is on or off' }).default('on'),
  contextTokens: z.coerce.number({ message: '--context-tokens takes a number' }).int('--context-tokens takes a whole number').min(0, '--context-tokens is at least 0').max(50_000, '--context-tokens is at most 50000').default(3000),
});

const FLAGS: Record<string, keyof z.input<typeof schema>> = {
  '--corpus': 'corpus',
  '--agents': 'agents',
  '--model': 'models',
  '--compare': 'compare',
  '--format': 'format',
  '--output': 'output',
  '--max-concurrency': 'maxConcurrency',
  '--base-url': 'baseUrl',
  '--language': 'language',
  '--timeout': 'timeout',
  '--verify': 'verify',
  '--context': 'context',
  '--context-tokens': 'contextTokens',
};

/** Parses the arguments after `eval`. Throws `UsageError` with a one-line message. */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const raw: Record<string, unknown> = {};
  const repeated: Record<string, string[]> = { models: [], compare: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) throw new UsageError(`quorum eval takes no file arguments (got "${arg}"); use --corpus DIR`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const key = FLAGS[name];
    if (!key) throw new UsageError(`unknown option "${name}" for quorum eval`);
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`${name} needs a value`);
      i += 1;
    }
    const list = repeated[key];
    if (list) list.push(value);
    else if (raw[key] !== undefined) throw new UsageError(`${name} was given twice`);
    else raw[key] = value;
  }
  const parsed = schema.safeParse({ ...raw, ...repeated });
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid arguments');
  const a = parsed.data;
  const models: Record<string, string> = {};
  for (const [agent, model] of a.models) {
    if (models[agent] !== undefined) throw new UsageError(`--model was given twice for "${agent}"`);
    models[agent] = model;
  }
  const compare: Record<string, string[]> = {};
  for (const [agent, list] of a.compare) {
    if (compare[agent] !== undefined) throw new UsageError(`--compare was given twice for "${agent}"`);
    compare[agent] = list;
  }
  if (a.format === 'html' && a.output === undefined) throw new UsageError('--format html needs --output FILE');
  return {
    command: 'eval',
    ...(a.corpus !== undefined ? { corpus: a.corpus } : {}),
    context: a.context === 'on',
    contextTokens: a.contextTokens,
    ...(a.agents ? { agents: a.agents } : {}),
    models,
    compare,
    format: a.format,
    ...(a.output !== undefined ? { output: a.output } : {}),
    ...(a.maxConcurrency !== undefined ? { maxConcurrency: a.maxConcurrency } : {}),
    ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}),
    ...(a.language ? { language: a.language } : {}),
    ...(a.timeout !== undefined ? { timeout: a.timeout } : {}),
    ...(a.verify !== undefined ? { verify: a.verify } : {}),
  };
}
