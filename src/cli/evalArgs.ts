import * as z from 'zod';
import { agentIdSchema, modelIdSchema, type VerifyMode } from '../core/settings/schema';
import { byAgent, checked, readFlags, UsageError, type FlagKinds } from './flags';
import { agentPair, modelFlags, oneOf, sharedFlags, type ModelFlags } from './options';

/** The command line of `quorum eval`, parsed and validated. Usage errors are `UsageError`s (exit code 2). */

export interface EvalArgs extends ModelFlags {
  command: 'eval';
  /** Relative to the working directory; absent: the shipped corpus. */
  corpus?: string;
  /** `--context on|off`: send each case the code its other files hold, as a review would (default on). */
  context: boolean;
  /** `--context-tokens N`: tokens of context per case at most (default: quorum.context.maxTokens's). */
  contextTokens?: number;
  agents?: string[];
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

const EVAL_FLAGS: FlagKinds = {
  corpus: 'value', context: 'value', 'context-tokens': 'value', agents: 'value', model: 'list', compare: 'list', format: 'value',
  output: 'value', 'max-concurrency': 'value', 'base-url': 'value', language: 'value', timeout: 'value', verify: 'value',
};

const schema = sharedFlags
  .pick({ baseUrl: true, language: true, agents: true, model: true, output: true, maxConcurrency: true, timeout: true, verify: true, context: true, contextTokens: true })
  .extend({
    corpus: z.string().min(1, '--corpus needs a folder').optional(),
    compare: z
      .array(
        agentPair('--compare')
          .transform(([a, list]): [string, string[]] => [a, list.split(',').map((m) => m.trim()).filter(Boolean)])
          .pipe(z.tuple([agentIdSchema, z.array(modelIdSchema).min(1, '--compare needs at least one model').max(5, '--compare takes at most 5 models per agent')])),
      )
      .default([]),
    format: oneOf(['text', 'json', 'html'], '--format is text, json or html').default('text'),
  });

/** Parses the arguments after `eval`. Throws `UsageError` with a one-line message. */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const { values } = readFlags(argv, EVAL_FLAGS, {
    command: 'eval',
    positional: (word) => `quorum eval takes no file arguments (got "${word}"); use --corpus DIR`,
  });
  const { model, compare, ...a } = checked(schema, values);
  const args: EvalArgs = { command: 'eval', ...a, ...modelFlags(model), compare: byAgent('--compare', compare) };
  if (args.format === 'html' && args.output === undefined) throw new UsageError('--format html needs --output FILE');
  return args;
}
