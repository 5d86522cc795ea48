import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { languageOfFile } from '../../core/domain/fileLanguage';
import { callerCandidate, definitionCandidate, enclosingCandidate, MAX_CALLERS, MAX_DEFINITIONS_PER_NAME, type ContextCandidate } from '../../core/context/candidates';
import { rangesOverlap, type LineRange } from '../../core/domain/lines';
import type { Region, ReviewTarget } from '../../core/domain/target';

/**
 * Context from the language server that is already running: the definitions of the names the changed (or selected)
 * lines use (`vscode.executeDefinitionProvider`), the callers in other files of a function whose code changed
 * (the call hierarchy's incoming calls, `vscode.prepareCallHierarchy` + `vscode.provideIncomingCalls`, where the
 * server offers one; else `vscode.executeReferenceProvider`), and the signature of the function or class that holds a hunk
 * (`vscode.executeDocumentSymbolProvider`). It gives core candidates, which core's selection ranks, cuts, filters
 * for exclusions and redacts like the tree-sitter index's. The whole review has one time budget: a batch that the
 * server does not answer in time gets no candidates from it, and core falls back to the tree-sitter index.
 */

/** The language server's time for a whole review's context. */
const BUDGET_MS = 1500;
/** Names of the changed lines asked about per batch at most. */
const MAX_NAMES = 40;

const FUNCTIONS = new Set([vscode.SymbolKind.Function, vscode.SymbolKind.Method, vscode.SymbolKind.Constructor]);
const HOLDERS = new Set([...FUNCTIONS, vscode.SymbolKind.Class, vscode.SymbolKind.Interface, vscode.SymbolKind.Struct, vscode.SymbolKind.Enum, vscode.SymbolKind.Module, vscode.SymbolKind.Namespace]);

interface FlatSymbol {
  name: string;
  kind: vscode.SymbolKind;
  /** 1-based lines of the whole symbol and the last line of its name (the signature's end, as far as it is known). */
  startLine: number;
  endLine: number;
  nameLine: number;
  container: string | undefined;
  position: vscode.Position;
}

function definitionKind(kind: vscode.SymbolKind): 'function' | 'method' | 'class' | 'type' | 'constant' {
  if (kind === vscode.SymbolKind.Function) return 'function';
  if (kind === vscode.SymbolKind.Method || kind === vscode.SymbolKind.Constructor) return 'method';
  if (kind === vscode.SymbolKind.Class || kind === vscode.SymbolKind.Struct) return 'class';
  if (kind === vscode.SymbolKind.Interface || kind === vscode.SymbolKind.Enum || kind === vscode.SymbolKind.TypeParameter) return 'type';
  return 'constant';
}

function flatten(symbols: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[], container?: string): FlatSymbol[] {
  const out: FlatSymbol[] = [];
  for (const s of symbols) {
    if ('children' in s) {
      out.push({ name: s.name, kind: s.kind, startLine: s.range.start.line + 1, endLine: s.range.end.line + 1, nameLine: s.selectionRange.end.line + 1, container, position: s.selectionRange.start });
      out.push(...flatten(s.children, s.name));
    } else {
      const r = s.location.range;
      out.push({ name: s.name, kind: s.kind, startLine: r.start.line + 1, endLine: r.end.line + 1, nameLine: r.start.line + 1, container: s.containerName || undefined, position: r.start });
    }
  }
  return out;
}

const symbolName = (s: FlatSymbol) => (s.container ? `${s.container}.${s.name}` : s.name);
const changedRanges = (r: Region): LineRange[] => r.changedLines ?? [{ start: r.startLine, end: r.endLine }];

/** One review's questions to the language server, each document's symbols asked once, each answer awaited until the deadline. */
class Asker {
  private readonly symbols = new Map<string, Promise<FlatSymbol[]>>();
  private deadline: number | undefined;
  constructor(
    private readonly root: vscode.Uri,
    private readonly budgetMs: number,
  ) {}

  /** Starts the review's budget (at its first question); false once it is spent. */
  start(): boolean {
    this.deadline ??= Date.now() + this.budgetMs;
    return Date.now() < this.deadline;
  }

  /** `command`'s answer, or `late` when it fails or does not come before the deadline. */
  private async ask<T>(late: T, command: string, ...args: unknown[]): Promise<T> {
    const left = (this.deadline ?? 0) - Date.now();
    if (left <= 0) return late;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late), left)));
    const answer = Promise.resolve(vscode.commands.executeCommand<T | undefined>(command, ...args)).then(
      (r) => r ?? late,
      () => late,
    );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The repository-relative path of `uri`, or undefined outside the root or in installed dependencies. */
  relative(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== 'file') return undefined;
    const rel = relative(this.root.fsPath, uri.fsPath);
    if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('node_modules')) return undefined;
    return rel.split(sep).join('/');
  }

  symbolsOf(uri: vscode.Uri): Promise<FlatSymbol[]> {
    let known = this.symbols.get(uri.toString());
    if (!known) {
      known = this.ask<(vscode.DocumentSymbol | vscode.SymbolInformation)[]>([], 'vscode.executeDocumentSymbolProvider', uri).then((s) => flatten(s));
      this.symbols.set(uri.toString(), known);
    }
    return known;
  }

  async definitions(uri: vscode.Uri, at: vscode.Position): Promise<{ uri: vscode.Uri; range: vscode.Range; whole: vscode.Range | undefined }[]> {
    const found = await this.ask<(vscode.Location | vscode.LocationLink)[]>([], 'vscode.executeDefinitionProvider', uri, at);
    return found.map((d) => ('targetUri' in d ? { uri: d.targetUri, range: d.targetSelectionRange ?? d.targetRange, whole: d.targetRange } : { uri: d.uri, range: d.range, whole: undefined }));
  }

  /**
   * Where the function at `at` is called: the incoming calls of the call hierarchy when the server offers one
   * (calls only, not imports or type mentions), else its references. A hierarchy that did not answer in time is
   * no answer: the references are asked then, within what is left of the budget.
   */
  async callSites(uri: vscode.Uri, at: vscode.Position): Promise<{ uri: vscode.Uri; line: number }[]> {
    const items = await this.ask<vscode.CallHierarchyItem[] | undefined>(undefined, 'vscode.prepareCallHierarchy', uri, at);
    if (items && items.length > 0) {
      const answers = await Promise.all(items.map((item) => this.ask<vscode.CallHierarchyIncomingCall[] | undefined>(undefined, 'vscode.provideIncomingCalls', item)));
      const answered = answers.filter((a): a is vscode.CallHierarchyIncomingCall[] => a !== undefined);
      if (answered.length > 0) {
        return answered.flat().flatMap((call) => (call.fromRanges.length > 0 ? call.fromRanges : [call.from.selectionRange]).map((r) => ({ uri: call.from.uri, line: r.start.line + 1 })));
      }
    }
    const references = await this.ask<vscode.Location[]>([], 'vscode.executeReferenceProvider', uri, at);
    return references.map((l) => ({ uri: l.uri, line: l.range.start.line + 1 }));
  }
}

/** The names on the changed lines, each at its first place, and whether it is called there. */
function namesOn(doc: vscode.TextDocument, changed: readonly LineRange[]): { name: string; at: vscode.Position; called: boolean }[] {
  const seen = new Map<string, { name: string; at: vscode.Position; called: boolean }>();
  for (const range of changed) {
    for (let line = range.start; line <= Math.min(range.end, doc.lineCount); line++) {
      const text = doc.lineAt(line - 1).text;
      for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
        const name = m[0];
        if (name.length < 2) continue;
        const called = /^\s*\(/.test(text.slice(m.index + name.length));
        const known = seen.get(name);
        if (known) known.called ||= called;
        else if (seen.size < MAX_NAMES) seen.set(name, { name, at: new vscode.Position(line - 1, m.index), called });
      }
    }
  }
  return [...seen.values()];
}

async function fileCandidates(asker: Asker, root: vscode.Uri, file: string, regions: readonly Region[]): Promise<ContextCandidate[]> {
  const uri = vscode.Uri.joinPath(root, file);
  const doc = await vscode.workspace.openTextDocument(uri);
  const language = regions[0]?.language ?? doc.languageId;
  const changed = regions.flatMap(changedRanges);
  const own = await asker.symbolsOf(uri);
  const enclosing = regions.flatMap((region) => {
    const first = changedRanges(region)[0]?.start ?? region.startLine;
    return own
      .filter((s) => HOLDERS.has(s.kind) && s.startLine < region.startLine && s.startLine <= first && first <= s.endLine)
      .sort((a, b) => b.startLine - a.startLine)
      .slice(0, 2)
      .map((s, depth) => enclosingCandidate({ file, language, startLine: s.startLine, signatureEnd: s.nameLine, symbol: symbolName(s), depth }));
  });
  const [callers, definitions] = await Promise.all([callerCandidates(asker, uri, file, own, changed), definitionCandidates(asker, uri, doc, file, changed)]);
  return [...enclosing, ...callers, ...definitions];
}

/** Where the functions the change touches are called from, in other files (a few each). */
async function callerCandidates(asker: Asker, uri: vscode.Uri, file: string, own: readonly FlatSymbol[], changed: readonly LineRange[]): Promise<ContextCandidate[]> {
  const changedFunctions = own.filter((s) => FUNCTIONS.has(s.kind) && changed.some((c) => rangesOverlap(c, { start: s.startLine, end: s.endLine })));
  const callers = await Promise.all(
    changedFunctions.map(async (s) => {
      const signatureChanged = changed.some((c) => rangesOverlap(c, { start: s.startLine, end: s.nameLine }));
      const sites = (await asker.callSites(uri, s.position))
        .map((l) => ({ file: asker.relative(l.uri), line: l.line }))
        .filter((l): l is { file: string; line: number } => l.file !== undefined && l.file !== file)
        .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
        .slice(0, MAX_CALLERS);
      return sites.map((l) => callerCandidate({ file: l.file, language: languageOfFile(l.file), line: l.line, symbol: symbolName(s), forFile: file, signatureChanged }));
    }),
  );
  return callers.flat();
}

/** The definitions of the names the changed lines use (a few per name), each with the symbol that holds it. */
async function definitionCandidates(asker: Asker, uri: vscode.Uri, doc: vscode.TextDocument, file: string, changed: readonly LineRange[]): Promise<ContextCandidate[]> {
  const definitions = await Promise.all(
    namesOn(doc, changed).map(async ({ at, called }) => {
      const found = (await asker.definitions(uri, at)).flatMap((d) => {
        const rel = asker.relative(d.uri);
        return rel === undefined ? [] : [{ ...d, file: rel }];
      });
      const picked: ContextCandidate[] = [];
      for (const d of found.slice(0, MAX_DEFINITIONS_PER_NAME)) {
        const line = d.range.start.line + 1;
        const holder = (await asker.symbolsOf(d.uri)).filter((s) => s.startLine <= line && line <= s.nameLine).sort((a, b) => b.startLine - a.startLine)[0];
        picked.push(
          definitionCandidate({
            file: d.file,
            language: languageOfFile(d.file),
            startLine: holder?.startLine ?? (d.whole ? d.whole.start.line + 1 : line),
            endLine: holder?.endLine ?? (d.whole ? d.whole.end.line + 1 : line),
            signatureEnd: holder?.nameLine ?? line,
            symbol: holder ? symbolName(holder) : doc.getText(doc.getWordRangeAtPosition(at) ?? new vscode.Range(at, at)),
            kind: holder ? definitionKind(holder.kind) : called ? 'function' : 'constant',
            forFile: file,
            called,
            ambiguous: found.length > MAX_DEFINITIONS_PER_NAME,
          }),
        );
      }
      return picked;
    }),
  );
  return definitions.flat();
}

/**
 * The language server's candidates for each batch of a review of files under `root`, within one time budget for
 * the whole review (`budgetMs`, from its first question): what has not come by then is left out, and a batch
 * with nothing in time gets undefined (core then asks the tree-sitter index).
 */
export function languageServerContext(root: vscode.Uri, budgetMs = BUDGET_MS): (batch: ReviewTarget) => Promise<ContextCandidate[] | undefined> {
  const asker = new Asker(root, budgetMs);
  return async (batch) => {
    if (!asker.start()) return undefined;
    const files = [...new Set(batch.regions.map((r) => r.file))];
    const found = (await Promise.all(files.map((f) => fileCandidates(asker, root, f, batch.regions.filter((r) => r.file === f))))).flat();
    return found.length > 0 ? found : undefined;
  };
}
