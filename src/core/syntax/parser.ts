import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import { grammarOf, type Grammar } from './languages';

/**
 * tree-sitter, loaded on first use and never at activation or `quorum --help`: the runtime (web-tree-sitter as
 * built by `@vscode/tree-sitter-wasm`) and each grammar's .wasm are read the first time a file of its language is
 * parsed. In the bundles they sit in dist/tree-sitter/ (esbuild.js copies them and keeps the runtime out of the
 * bundle); from the sources, in the package's folder.
 */

type Runtime = typeof TreeSitter;

/** A grammar ready to use: its language, a parser set to it, and its compiled queries. */
export interface LoadedGrammar {
  language: TreeSitter.Language;
  parser: TreeSitter.Parser;
  definitions: TreeSitter.Query;
  calls: TreeSitter.Query;
  aliases?: TreeSitter.Query;
}

function wasmDir(): string {
  const bundled = join(__dirname, 'tree-sitter');
  return existsSync(bundled) ? bundled : join(__dirname, '..', '..', '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
}

let runtime: Promise<Runtime> | undefined;

function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    const dir = wasmDir();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deliberate lazy load (see above)
    const ts = require('@vscode/tree-sitter-wasm') as Runtime;
    await ts.Parser.init({ locateFile: (name: string) => join(dir, name) });
    return ts;
  })();
  return runtime;
}

const grammars = new Map<string, Promise<LoadedGrammar>>();

async function loadGrammar(grammar: Grammar): Promise<LoadedGrammar> {
  const ts = await loadRuntime();
  const language = await ts.Language.load(join(wasmDir(), `tree-sitter-${grammar.wasm}.wasm`));
  const parser = new ts.Parser();
  parser.setLanguage(language);
  return {
    language,
    parser,
    definitions: new ts.Query(language, grammar.definitions),
    calls: new ts.Query(language, grammar.calls),
    ...(grammar.aliases ? { aliases: new ts.Query(language, grammar.aliases) } : {}),
  };
}

/** The loaded grammar of a VS Code language id; undefined for a language without one. */
function grammarFor(language: string): Promise<LoadedGrammar> | undefined {
  const grammar = grammarOf(language);
  if (!grammar) return undefined;
  let loaded = grammars.get(grammar.wasm);
  if (!loaded) {
    loaded = loadGrammar(grammar);
    grammars.set(grammar.wasm, loaded);
    // A failed load is tried again next time rather than remembered.
    loaded.catch(() => grammars.delete(grammar.wasm));
  }
  return loaded;
}

/**
 * Parses `text` with the grammar of `language` and hands the tree (and the grammar) to `use`, freeing the tree after;
 * undefined for a language without a grammar or a text the parser gives up on.
 */
export async function withTree<T>(text: string, language: string, use: (tree: TreeSitter.Tree, grammar: LoadedGrammar) => T): Promise<T | undefined> {
  const loading = grammarFor(language);
  if (!loading) return undefined;
  const grammar = await loading;
  const tree = grammar.parser.parse(text);
  if (!tree) return undefined;
  try {
    return use(tree, grammar);
  } finally {
    tree.delete();
  }
}

/**
 * Visits a syntax tree depth first with one cursor (and frees it): `visit` is called once on each node it reaches
 * and says whether to go into that node's children.
 */
export function walkTree(from: { walk(): TreeSitter.TreeCursor }, visit: (cursor: TreeSitter.TreeCursor) => boolean): void {
  const cursor = from.walk();
  try {
    let down = true;
    for (;;) {
      if (down && visit(cursor) && cursor.gotoFirstChild()) continue;
      if (cursor.gotoNextSibling()) {
        down = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      down = false;
    }
  } finally {
    cursor.delete();
  }
}
