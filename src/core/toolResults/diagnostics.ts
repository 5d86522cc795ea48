import { toolName, type ToolResult, type ToolResultLevel } from '../domain/toolResult';

/**
 * An editor diagnostic as a tool result: what every language server and linter extension already put in the
 * Problems panel (the TypeScript server's `ts` 2322, ESLint's `eslint` no-unused-vars, Ruff's F401, Pylance's
 * reportUndefinedVariable …). Plain data, so that core maps it without VS Code: the adapter hands the fields over.
 */
interface PlainDiagnostic {
  source: string | undefined;
  /** `vscode.Diagnostic.code`: a string, a number, or `{ value, target }`. */
  code: string | number | { value: string | number } | undefined;
  /** `vscode.DiagnosticSeverity`: 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  message: string;
  /** 0-based, as VS Code counts: the range's start and end lines, and the end's character. */
  startLine: number;
  endLine: number;
  endCharacter: number;
}

/** The diagnostics of Quorum's own collection (src/vscode/findings/findingStore.ts sets this source) say what Quorum found: never an input to a review. */
const QUORUM_DIAGNOSTIC_SOURCE = 'Quorum';

const MAX_MESSAGE = 600;

function level(severity: number): ToolResultLevel {
  return severity === 0 ? 'error' : severity === 1 ? 'warning' : 'note';
}

function ruleOf(code: PlainDiagnostic['code']): string {
  const value = typeof code === 'object' ? code.value : code;
  return value === undefined ? '' : String(value).slice(0, 200);
}

/** The tool result of a diagnostic of `file` (named as the review's region names it); undefined for Quorum's own. */
export function toolResultOfDiagnostic(d: PlainDiagnostic, file: string): ToolResult | undefined {
  if (d.source === QUORUM_DIAGNOSTIC_SOURCE) return undefined;
  const startLine = Math.max(1, d.startLine + 1);
  // A range that ends at the start of a line ends on the line before it.
  const endLine = Math.max(startLine, d.endCharacter === 0 && d.endLine > d.startLine ? d.endLine : d.endLine + 1);
  const message = d.message.replace(/\s+/g, ' ').trim();
  return {
    tool: toolName(d.source ?? 'editor'),
    rule: ruleOf(d.code),
    severity: level(d.severity),
    file,
    startLine,
    endLine,
    message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message,
  };
}
