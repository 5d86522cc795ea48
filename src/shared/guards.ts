/**
 * Narrowing without casts: checks that tell the compiler what a value is because they looked. For data from
 * outside (JSON, settings, other extensions) prefer a zod schema; these are for the small checks in between.
 */

/** A plain object (not null, not an array): its properties can be read as unknowns. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `value[key]` when `value` is an object that has it; undefined otherwise. */
export function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** Whether `x` is one of `values` (a union of string literals, such as the severities). */
export function isOneOf<T extends string>(values: readonly T[], x: unknown): x is T {
  return values.some((v) => v === x);
}

/** The `code` of a Node error (`ENOENT`, `EACCES` …), when it has one. */
export function errorCode(e: unknown): string | undefined {
  const code = field(e, 'code');
  return typeof code === 'string' ? code : undefined;
}

/** Each string of `strings` passed through `f`, under the same keys (the English strings, translated). */
export function mapStrings<T extends Record<string, string>>(strings: T, f: (text: string) => string): Record<keyof T, string> {
  const out: Record<keyof T, string> = { ...strings };
  for (const key in strings) {
    const text = strings[key];
    if (text !== undefined) out[key] = f(text);
  }
  return out;
}
