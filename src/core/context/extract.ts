import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { LineRange } from '../domain/lines';
import { walkTree, withTree, type LoadedGrammar } from '../syntax/parser';

/** What one file defines and calls, from its syntax tree: what the repository index keeps per file. */

export const DEFINITION_KINDS = ['function', 'method', 'class', 'type', 'constant'] as const;
type DefinitionKind = (typeof DEFINITION_KINDS)[number];

export interface Definition {
  name: string;
  kind: DefinitionKind;
  /** Lines of the whole definition, 1-based and inclusive. */
  startLine: number;
  endLine: number;
  /** The last line of its signature (the line before its body, or the body's first line when it opens there). */
  signatureEnd: number;
  /** The class, type or impl that holds a method. */
  container?: string;
}

export interface FileSymbols {
  definitions: Definition[];
  /** Call sites: the called name and its line. */
  calls: [name: string, line: number][];
  /** Import aliases: the local name and the name it stands for. */
  aliases: [alias: string, original: string][];
}

/** A parsed file, for the reviewed files: its symbols and the identifiers on the lines asked for, each with its line. */
export interface ParsedFile extends FileSymbols {
  identifiers: [name: string, line: number][];
}

const MAX_SIGNATURE_LINES = 6;
const HOLDERS = new Set(['class', 'type', 'container']);

/** The plain name in `Foo::Bar<T>`, `a.b.Name`, `\\App\\Name`: its last segment without generics. */
function plainName(text: string): string {
  const last = text.split(/::|\.|\\/).pop() ?? text;
  return /[A-Za-z_$][\w$]*/.exec(last)?.[0] ?? last;
}

/** A text's lines by row, as `text.split('\n')` would give them, each cut out when asked for (a file's lines as strings were most of what parsing a thousand files allocated). */
class TextLines {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) this.starts.push(at + 1);
  }

  at(row: number): string | undefined {
    const start = this.starts[row];
    if (start === undefined) return undefined;
    const next = this.starts[row + 1];
    return this.text.slice(start, next === undefined ? this.text.length : next - 1);
  }
}

function signatureEnd(node: TreeSitter.Node, lines: TextLines): number {
  const start = node.startPosition.row;
  const body = node.childForFieldName('body');
  if (!body || body.startPosition.row <= start) return start + 1;
  const row = body.startPosition.row;
  const before = (lines.at(row) ?? '').slice(0, body.startPosition.column);
  const end = before.trim() === '' ? row - 1 : row;
  return Math.min(end, start + MAX_SIGNATURE_LINES - 1) + 1;
}

interface RawDefinition extends Definition {
  capture: string;
  startIndex: number;
  endIndex: number;
}

function definitionsOf(grammar: LoadedGrammar, root: TreeSitter.Node, lines: TextLines): Definition[] {
  const raw: RawDefinition[] = [];
  const seen = new Set<string>();
  for (const match of grammar.definitions.matches(root)) {
    const name = match.captures.find((c) => c.name === 'name')?.node;
    const whole = match.captures.find((c) => c.name !== 'name' && c.name !== 'receiver');
    const receiver = match.captures.find((c) => c.name === 'receiver')?.node.text;
    if (!name || !whole) continue;
    const node = whole.node;
    // One declaration matched by two patterns (a const holding an arrow function): the first pattern wins.
    const key = `${node.startIndex}:${node.endIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    raw.push({
      name: plainName(name.text),
      kind: whole.name === 'container' ? 'class' : (whole.name as DefinitionKind),
      capture: whole.name,
      startLine: node.startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signatureEnd: signatureEnd(node, lines),
      startIndex: node.startIndex,
      endIndex: node.endIndex,
      ...(receiver ? { container: plainName(receiver) } : {}),
    });
  }
  const holders = raw.filter((d) => HOLDERS.has(d.capture)).sort((a, b) => a.endIndex - a.startIndex - (b.endIndex - b.startIndex));
  const out: Definition[] = [];
  for (const d of raw) {
    if (d.capture === 'container') continue;
    const { capture: _capture, startIndex, endIndex, ...definition } = d;
    if (d.kind === 'function' || d.kind === 'method') {
      const holder = holders.find((h) => h !== d && h.startIndex <= startIndex && endIndex <= h.endIndex);
      if (holder) Object.assign(definition, { kind: 'method', container: holder.name });
    }
    out.push(definition);
  }
  return out;
}

function callsOf(grammar: LoadedGrammar, root: TreeSitter.Node): [string, number][] {
  return grammar.calls.captures(root).filter((c) => c.name === 'call').map((c) => [plainName(c.node.text), c.node.startPosition.row + 1]);
}

function aliasesOf(grammar: LoadedGrammar, root: TreeSitter.Node): [string, string][] {
  if (!grammar.aliases) return [];
  const out: [string, string][] = [];
  for (const match of grammar.aliases.matches(root)) {
    const alias = match.captures.find((c) => c.name === 'alias')?.node.text;
    const original = match.captures.find((c) => c.name === 'original')?.node.text;
    if (alias && original && alias !== original) out.push([alias, plainName(original)]);
  }
  return out;
}

const IDENTIFIER = /identifier$|^constant$|^name$/;

/** The identifiers on `lines` (1-based ranges): a subtree that holds none of those lines is not entered. */
function identifiersOf(root: TreeSitter.Node, lines: readonly LineRange[]): [string, number][] {
  const out: [string, number][] = [];
  if (lines.length === 0) return out;
  walkTree(root, (cursor) => {
    const first = cursor.startPosition.row + 1;
    const last = cursor.endPosition.row + 1;
    if (!lines.some((r) => r.start <= last && first <= r.end)) return false;
    if (IDENTIFIER.test(cursor.nodeType) && lines.some((r) => r.start <= first && first <= r.end) && cursor.currentNode.childCount === 0) out.push([cursor.nodeText, first]);
    return true;
  });
  return out;
}

/** The symbols of a file; undefined for a language without a grammar. */
export async function fileSymbols(text: string, language: string): Promise<FileSymbols | undefined> {
  const parsed = await parseFile(text, language);
  if (!parsed) return undefined;
  const { definitions, calls, aliases } = parsed;
  return { definitions, calls, aliases };
}

/** The identifiers on `lines` of a file whose symbols are known (the index holds them); undefined without a grammar. */
export async function identifiersIn(text: string, language: string, lines: readonly LineRange[]): Promise<[string, number][] | undefined> {
  return withTree(text, language, (tree) => identifiersOf(tree.rootNode, lines));
}

/** The symbols of a file and the identifiers on `identifiersOn` (none by default); undefined without a grammar. */
export async function parseFile(text: string, language: string, identifiersOn: readonly LineRange[] = []): Promise<ParsedFile | undefined> {
  return withTree(text, language, (tree, grammar) => {
    const root = tree.rootNode;
    const lines = new TextLines(text);
    return {
      definitions: definitionsOf(grammar, root, lines),
      calls: callsOf(grammar, root),
      aliases: aliasesOf(grammar, root),
      identifiers: identifiersOf(root, identifiersOn),
    };
  });
}
