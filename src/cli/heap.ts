import { setFlagsFromString } from 'node:v8';

/**
 * The command line's young generation kept small. Node 22 and later (V8 12+) double a process's young generation
 * each time enough objects survive its collections, up to two 64 MB semi-spaces: a first review of a large
 * repository (the context's index, the parsed files) grew it to 134 MB of mostly empty space. Kept at two 2 MB
 * semi-spaces, spring-boot's 212-file change peaked at 284 MB instead of 378 (`--context off`: 140 instead of 192)
 * in the same wall and CPU time. V8 reads these flags when it would grow the space or makes an isolate, so setting
 * them once the process runs takes effect (unlike `--max-semi-space-size`, read when the heap is made); the
 * context's threads (contextThreads.ts), started later, begin at that size too. A size the user asked for
 * (`--max-semi-space-size` or `--semi-space-growth-factor` in the node options) is left as asked. Not for the
 * extension: its host is VS Code's process.
 */
export function keepYoungGenerationSmall(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const asked = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((a) => /^--(?:max[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)/.test(a));
  if (asked) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--min-semi-space-size=2');
  return true;
}
