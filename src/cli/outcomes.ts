import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutcomeProblem, OutcomeRecorder } from '../core/outcomes/observe';
import { OutcomeStore } from '../core/outcomes/store';

/** The command line's (and the MCP server's) outcome recorder: the store in the cache folder, files read from the work tree. */

/** A store problem as the command line says it. */
export function outcomeProblemLine(p: OutcomeProblem): string {
  if (p.code === 'corrupt') return `warning: the outcome store had ${p.lines} invalid line${p.lines === 1 ? '' : 's'}; rebuilt from the valid ones (${p.path})`;
  if (p.code === 'unwritable') return `warning: cannot write the outcome store ${p.path}; the review is not affected`;
  return `warning: ${p.message}`;
}

/** A repository file's text now: null when it is not there, undefined when it cannot be read. */
async function workTreeText(root: string, file: string): Promise<string | null | undefined> {
  try {
    return await readFile(join(root, file), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

export function cliOutcomes(root: string, cacheDir: string, secrets: readonly string[], say: (line: string) => void): OutcomeRecorder {
  return {
    store: new OutcomeStore({ dir: cacheDir, root, secrets }),
    readFile: (file) => workTreeText(root, file),
    onProblem: (p) => say(outcomeProblemLine(p)),
  };
}
