import { resolve } from 'node:path';
import { readToolResultFiles } from '../core/toolResults/files';
import type { ToolResult } from '../core/domain/toolResult';
import type { ReviewTarget } from '../core/domain/target';

/**
 * The tool results of a `quorum review`: the SARIF files of `--tool-results` and `.quorum/tool-results/`, paths
 * relative to the repository root (outside a repository: the reviewed file's results named as its region names
 * it). A file that cannot be used is one warning; the review goes on without it.
 */
export async function cliToolResults(input: { files: readonly string[]; root: string | undefined; cwd: string; target: ReviewTarget; reviewed: string | undefined; warn: (line: string) => void }): Promise<ToolResult[]> {
  const { root, cwd } = input;
  const read = await readToolResultFiles(input.files, root ?? cwd, cwd);
  for (const problem of read.problems) input.warn(`tool results: ${problem}; ignored`);
  if (root || input.reviewed === undefined) return read.results;
  const reviewed = resolve(cwd, input.reviewed);
  const file = input.target.regions[0]?.file;
  return file === undefined ? [] : read.results.filter((r) => resolve(cwd, r.file) === reviewed).map((r) => ({ ...r, file }));
}
