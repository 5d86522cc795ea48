import * as vscode from 'vscode';
import type { LineRange } from '../../core/domain/lines';
import { reviewLines } from '../../core/domain/lineTracking';
import { isRecord } from '../../shared/guards';

/** Symbols whose body is the "enclosing function" of a change. */
const FUNCTION_KINDS = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);
/** How long a language's symbol provider may take for one file before the review goes on without its symbols. */
const SYMBOLS_WAIT_MS = 3_000;

function collect(symbols: readonly vscode.DocumentSymbol[], out: LineRange[]): void {
  for (const s of symbols) {
    if (FUNCTION_KINDS.has(s.kind)) out.push(reviewLines({ start: s.range.start.line, end: s.range.end.line }));
    collect(s.children, out);
  }
}

function isDocumentSymbols(v: unknown): v is vscode.DocumentSymbol[] {
  return Array.isArray(v) && v.every((s) => s instanceof vscode.DocumentSymbol || (isRecord(s) && 'range' in s && 'kind' in s && 'children' in s));
}

/**
 * The line ranges (1-based) of the functions and methods of a document, from the language's symbol provider
 * (`vscode.executeDocumentSymbolProvider`); empty when the editor knows no symbols for the language, when the
 * provider answers with flat `SymbolInformation` only, or does not answer in time. Data for core: core widens
 * a change's context to the function that holds it.
 */
export async function functionScopes(uri: vscode.Uri): Promise<LineRange[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SYMBOLS_WAIT_MS);
  });
  try {
    const symbols: unknown = await Promise.race([vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri), timeout]);
    if (!isDocumentSymbols(symbols)) return [];
    const out: LineRange[] = [];
    collect(symbols, out);
    return out;
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}
