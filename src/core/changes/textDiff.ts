import { structuredPatch } from 'diff';
import { headerPath } from './gitPath';

/**
 * A git-style unified diff (`-U0`) of two texts of a file, for sources that can give a file's two sides but not
 * git's own patch of them (the Git extension's API cannot diff a renamed file across its two paths). Read back
 * with `parseUnifiedDiff`, like every other diff: one diff model. `diff` (jsdiff, npm) computes the hunks; it is
 * already in the tree for the test runner, typed, and dependency-free.
 */
export function unifiedDiffOfTexts(oldPath: string | undefined, newPath: string, oldText: string, newText: string): string {
  const from = oldPath ?? newPath;
  const patch = structuredPatch(`a/${from}`, `b/${newPath}`, oldText.replace(/\r\n/g, '\n'), newText.replace(/\r\n/g, '\n'), undefined, undefined, { context: 0 });
  // Names quoted as git quotes them (a tab, a line break, a quote): the parser reads them back.
  const [a, b] = [headerPath(`a/${from}`), headerPath(`b/${newPath}`)];
  const head = [`diff --git ${a} ${b}`];
  if (oldPath !== undefined && oldPath !== newPath) head.push(`rename from ${headerPath(oldPath)}`, `rename to ${headerPath(newPath)}`);
  head.push(`--- ${a}`, `+++ ${b}`);
  const body: string[] = [];
  // jsdiff numbers an empty side at the line after; git (and so the parser) at the line before.
  const at = (start: number, lines: number) => (lines === 0 ? start - 1 : start);
  for (const h of patch.hunks) {
    body.push(`@@ -${at(h.oldStart, h.oldLines)},${h.oldLines} +${at(h.newStart, h.newLines)},${h.newLines} @@`);
    body.push(...h.lines);
  }
  return [...head, ...body].join('\n') + '\n';
}
