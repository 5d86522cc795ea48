import type * as TS from 'typescript';

/**
 * Syntax errors of TypeScript/JavaScript text, from the `typescript` package's parser (syntax only: no type
 * checking, no file system). Used to refuse a fix that would add syntax errors to a file. `undefined` for
 * other languages, which have no parser here.
 */

const KINDS: Record<string, { ext: string; kind: 'TS' | 'TSX' | 'JS' | 'JSX' }> = {
  typescript: { ext: '.ts', kind: 'TS' },
  typescriptreact: { ext: '.tsx', kind: 'TSX' },
  javascript: { ext: '.js', kind: 'JS' },
  javascriptreact: { ext: '.jsx', kind: 'JSX' },
};

let loaded: typeof TS | undefined;

/** The parser, loaded on first use (it is large; most sessions never apply a TS/JS fix). */
function typescript(): typeof TS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (loaded) return loaded;
  const ts: typeof TS = require('typescript');
  loaded = ts;
  return ts;
}

export function syntaxErrorCount(text: string, language: string): number | undefined {
  const k = KINDS[language];
  if (!k) return undefined;
  const ts = typescript();
  const { diagnostics = [] } = ts.transpileModule(text, {
    fileName: `fix${k.ext}`,
    reportDiagnostics: true,
    compilerOptions: { jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, allowJs: true, noResolve: true, isolatedModules: false },
  });
  return diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
}
