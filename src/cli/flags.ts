import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import type * as z from 'zod';
import { EXIT, type CliIo } from './exit';

/**
 * The one reader of `quorum`'s command lines (review, eval, mcp, doctor, stats): Node's `util.parseArgs` splits
 * the words into flags, values and the rest; each command's zod schema then checks the values (args.ts,
 * evalArgs.ts, mcp/mcpArgs.ts, doctor.ts, stats.ts). What is wrong is said in one line, as a `UsageError`.
 */

/** A usage error: one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A command's flags, named without their dashes: one value, a value each time it is given (`list`), or none. */
export type FlagKinds = Readonly<Record<string, 'value' | 'list' | 'switch'>>;

interface CommandLine {
  /** By flag, in camelCase (`--base-url` → `baseUrl`): its value, its values, or true. */
  values: Record<string, string | string[] | true>;
  positionals: string[];
}

interface CommandWords {
  /** The command, as messages name it (`quorum eval`); review's messages name none. */
  command: 'review' | 'eval' | 'mcp' | 'doctor' | 'stats';
  /** What is said of a word that is not a flag; absent: such words are the command's (review's file). */
  positional?: (word: string) => string;
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];
type OptionToken = Extract<Token, { kind: 'option' }>;

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function kindOf(kinds: FlagKinds, name: string): FlagKinds[string] | undefined {
  return Object.hasOwn(kinds, name) ? kinds[name] : undefined;
}

/** The value of a flag that takes one; `--lines --format` is a missing value, not the value `--format`. */
function valueOf(token: OptionToken): string {
  const value = token.value;
  if (value === undefined || (!token.inlineValue && value.startsWith('--') && value.length > 2)) throw new UsageError(`${token.rawName} needs a value`);
  return value;
}

function readOption(values: CommandLine['values'], token: OptionToken, kind: FlagKinds[string]): void {
  const key = camel(token.name);
  const seen = values[key];
  if (kind === 'switch') {
    if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
    values[key] = true;
  } else if (kind === 'list') {
    values[key] = [...(Array.isArray(seen) ? seen : []), valueOf(token)];
  } else {
    if (seen !== undefined) throw new UsageError(`${token.rawName} was given twice`);
    values[key] = valueOf(token);
  }
}

/** Splits `argv` (the words after the command) into the command's flags and the other words; throws `UsageError`. */
export function readFlags(argv: readonly string[], kinds: FlagKinds, words: CommandWords): CommandLine {
  const options: ParseArgsOptionsConfig = {};
  for (const [name, kind] of Object.entries(kinds)) options[name] = { type: kind === 'switch' ? 'boolean' : 'string', multiple: kind === 'list' };
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const line: CommandLine = { values: {}, positionals: [] };
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      if (words.positional) throw new UsageError(words.positional(token.value));
      line.positionals.push(token.value);
      continue;
    }
    const kind = kindOf(kinds, token.name);
    if (kind === undefined) {
      // As written: `-abc` is one unknown option, not three.
      const word = argv[token.index] ?? token.rawName;
      const name = word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
      throw new UsageError(`unknown option "${name}"${words.command === 'review' ? '' : ` for quorum ${words.command}`}`);
    }
    readOption(line.values, token, kind);
  }
  return line;
}

/**
 * What the words after `quorum <command>` say: `--help` prints `usage` (exit 0); otherwise `read` makes them the
 * command's arguments, and a `UsageError` is said in one line that points at the help (exit 2).
 */
export function commandArgs<T extends object>(io: CliIo, command: CommandWords['command'], usage: string, read: (argv: readonly string[]) => T, fail: (message: string) => number): T | number {
  const rest = io.argv.slice(1);
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout.write(usage + '\n');
    return EXIT.ok;
  }
  try {
    return read(rest);
  } catch (e) {
    if (e instanceof UsageError) return fail(`${e.message} (see quorum ${command} --help)`);
    throw e;
  }
}

/** The values as the schema makes them, or a `UsageError` with its first message. */
export function checked<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'invalid arguments');
  return parsed.data;
}

/** `--model a=x --model b=y` as a record; the same agent twice is a `UsageError`. */
export function byAgent<T>(flag: string, pairs: readonly (readonly [string, T])[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [agent, value] of pairs) {
    if (Object.hasOwn(out, agent)) throw new UsageError(`${flag} was given twice for "${agent}"`);
    out[agent] = value;
  }
  return out;
}
