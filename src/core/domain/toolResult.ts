import * as z from 'zod';

/**
 * A tool result: one problem the project's own compiler, linter or scanner already reports (ESLint, tsc, Ruff,
 * Semgrep, CodeQL, Bandit, golangci-lint, a language server's diagnostic). One kind of input to a review, whatever
 * it came from (a SARIF file on the command line, the editor's diagnostics): sent read-only beside the code so
 * that the agents do not repeat it, and the finding that repeats one anyway is hidden (`duplicate.ts`).
 */

/** How severe the tool says it is: SARIF's levels (a diagnostic's Information and Hint are `note`). */
const TOOL_RESULT_LEVELS = ['error', 'warning', 'note'] as const;
export type ToolResultLevel = (typeof TOOL_RESULT_LEVELS)[number];

export const toolResultSchema = z.strictObject({
  /** The tool, lower-case, as it names itself (`eslint`, `ruff`, `semgrep`, `ts` for the TypeScript server). */
  tool: z.string().min(1).max(80),
  /** The tool's rule (`no-unused-vars`, `F401`, `2322`); '' when the tool gives none. */
  rule: z.string().max(200),
  severity: z.enum(TOOL_RESULT_LEVELS),
  /** Repository-relative (forward slashes) as read; once attached to a review, the file as its region names it. */
  file: z.string().min(1).max(4000),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** What the tool says (repository text: untrusted, redacted before it is sent). */
  message: z.string().max(2000),
  /** The weaknesses the tool's rule is tagged with (`CWE-89`), when it says. */
  cwe: z.array(z.string().regex(/^CWE-\d{1,5}$/)).max(20).optional(),
});
export type ToolResult = z.infer<typeof toolResultSchema>;

/** The tool result a hidden finding repeats: its tool and rule. */
export interface ToolMatch {
  tool: string;
  rule: string;
}

/** The tools of a set of results, each once, in the order first seen (`eslint, tsc`). */
export function toolsOf(results: readonly Pick<ToolResult, 'tool'>[]): string[] {
  return [...new Set(results.map((r) => r.tool))];
}

/** A tool's name as results carry it: the first word of what it calls itself, lower-case (`Semgrep OSS` → `semgrep`). */
export function toolName(name: string): string {
  const word = name.trim().split(/\s+/)[0] ?? '';
  return word.toLowerCase().replace(/[^\p{L}\p{N}._@/-]/gu, '').slice(0, 80) || 'tool';
}
