import * as z from 'zod';
import { SEVERITIES } from '../../shared/severity';

/**
 * What the chat's /review and /changes and the agent-mode tool ask Quorum to review, by name: the selection, a
 * file, uncommitted or staged changes, or the changes since a base ref. Input from another program (an agent), so
 * it is validated: a ref cannot pass as a git option, a path must be inside the workspace.
 */
export const reviewScopeInput = z.strictObject({
  scope: z.enum(['selection', 'file', 'uncommitted', 'staged', 'base']),
  path: z.string().trim().min(1).max(4096).optional(),
  base: z.string().trim().min(1).max(255).regex(/^[^-\s][^\s~^:?*[\\]*$/, 'a branch, tag or commit name').optional(),
  minSeverity: z.enum(SEVERITIES).optional(),
});

export type ReviewScopeInput = z.infer<typeof reviewScopeInput>;

/** A bad input in one line: the first problem, with the field it is about. */
export function inputProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `Invalid input: ${where}${issue?.message ?? 'not an object of the expected shape'}`;
}

/** `/changes`, `/changes staged`, `/changes base main`: the scope the words name, or undefined when they name none. */
export function changesScope(prompt: string): ReviewScopeInput | undefined {
  const words = prompt.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0 || (words.length === 1 && words[0] === 'uncommitted')) return { scope: 'uncommitted' };
  if (words.length === 1 && words[0] === 'staged') return { scope: 'staged' };
  if (words.length === 2 && words[0] === 'base' && words[1]) return { scope: 'base', base: words[1] };
  return undefined;
}
