import * as vscode from 'vscode';
import { toolResultOfDiagnostic } from '../../core/toolResults/diagnostics';
import type { ToolResult } from '../../core/domain/toolResult';
import type { PreparedTarget } from '../review/reviewTarget';

/**
 * The tool results of an editor review: the diagnostics VS Code holds for each reviewed file (every language
 * server and linter extension; Quorum's own are left out), named as the review's regions name their files. Core
 * keeps those on the reviewed lines and sends them read-only.
 */
function editorToolResults(prepared: Pick<PreparedTarget, 'uri' | 'uris' | 'target'>): ToolResult[] {
  const out: ToolResult[] = [];
  for (const file of new Set(prepared.target.regions.map((r) => r.file))) {
    const uri = prepared.uris?.get(file) ?? (prepared.uris ? undefined : prepared.uri);
    if (!uri) continue;
    for (const d of vscode.languages.getDiagnostics(uri)) {
      // Another extension may have set `code` to null, whatever the types say.
      const given = d.code ?? undefined;
      const code = typeof given === 'object' ? { value: given.value } : given;
      const r = toolResultOfDiagnostic({ source: d.source, code, severity: d.severity, message: d.message, startLine: d.range.start.line, endLine: d.range.end.line, endCharacter: d.range.end.character }, file);
      if (r) out.push(r);
    }
  }
  return out;
}

/** The review request's `toolResults` for `prepared`: present only when the editor holds any. */
export function toolResultsOf(prepared: Pick<PreparedTarget, 'uri' | 'uris' | 'target'>): { toolResults?: ToolResult[] } {
  const toolResults = editorToolResults(prepared);
  return toolResults.length > 0 ? { toolResults } : {};
}
