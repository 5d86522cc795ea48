import { readdir } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { readSarifFile } from './sarif';
import type { ToolResult } from '../domain/toolResult';

/**
 * Where a repository keeps its tools' SARIF files for Quorum: every `*.sarif` in `.quorum/tool-results/` is read
 * by `quorum review` as if given with `--tool-results` (a CI job writes them there before the review).
 */
export const TOOL_RESULTS_DIR = join('.quorum', 'tool-results');

/** The SARIF files of `<root>/.quorum/tool-results/`, sorted; none when the folder is missing. */
async function projectSarifFiles(root: string): Promise<string[]> {
  try {
    const entries = await readdir(join(root, TOOL_RESULTS_DIR), { withFileTypes: true });
    return entries.filter((e) => e.isFile() && /\.sarif(?:\.json)?$/i.test(e.name)).map((e) => join(root, TOOL_RESULTS_DIR, e.name)).sort();
  } catch {
    return [];
  }
}

/**
 * Reads the SARIF files `paths` (relative to `cwd`) and the project's own, each once: their results (paths
 * relative to `root`) and one line per file that could not be used (that file gives nothing; the rest are read).
 */
export async function readToolResultFiles(paths: readonly string[], root: string, cwd: string): Promise<{ results: ToolResult[]; problems: string[]; files: number }> {
  const all = [...paths.map((p) => resolve(cwd, p)), ...(await projectSarifFiles(root))];
  const unique = [...new Set(all)];
  const results: ToolResult[] = [];
  const problems: string[] = [];
  for (const file of unique) {
    const shown = relative(cwd, file) || basename(file);
    const read = await readSarifFile(file, root, shown.startsWith('..') ? file : shown);
    if (read.ok) results.push(...read.results);
    else problems.push(read.problem);
  }
  return { results, problems, files: unique.length };
}
