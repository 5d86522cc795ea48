// Figures about the source, from the TypeScript compiler API (the same parser `npm run typecheck` uses):
//   casts    — `as` and `<T>` assertions in src/ (not `as const`), each with its place;
//   exports  — exports in src/ that no other file imports (src/, test/, bench/, scripts/ all count as users),
//              apart from the entry points the bundler and VS Code load;
//   sizes    — the largest file and the largest function per layer, in lines; with --max-file-lines N and
//              --max-function-lines N, every file and function over them (ARCHITECTURE.md: 300 and 60).
// `node scripts/codeFigures.mjs [casts|exports|sizes] [--list] [--max-exports N] [--max-casts N]
//   [--max-file-lines N] [--max-function-lines N]`: prints the figures (and with --list every place); exits 1
// when a --max is exceeded, so a check can hold the line.
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';

const ts = createRequire(import.meta.url)('typescript');
const root = resolve(new URL('..', import.meta.url).pathname);
const args = process.argv.slice(2);
const list = args.includes('--list');
const limit = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};
const wanted = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--max'));
const show = (what) => wanted.length === 0 || wanted.includes(what);

/** Loaded by something other than an import: the bundles' entry points (esbuild.js) and what VS Code calls. */
const ENTRY_POINTS = new Set(['src/vscode/extension.ts', 'src/cli/main.ts', 'src/webview/main.ts']);
const LAYERS = ['shared', 'webview', 'core', 'cli', 'vscode'];

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures' && dir.endsWith('test')) continue;
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const rel = (file) => relative(root, file).split(sep).join('/');
const srcFiles = filesUnder(join(root, 'src'));
const users = [...srcFiles, ...['test', 'bench', 'scripts'].flatMap((d) => filesUnder(join(root, d))), join(root, 'test', 'fixtures', 'gateway', 'server.ts')];
const program = ts.createProgram([...new Set(users)], {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true, allowJs: false, noEmit: true, strict: true, skipLibCheck: true, types: [],
});
const checker = program.getTypeChecker();
const sourceOf = (file) => program.getSourceFile(file);

function lineOf(sf, pos) {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

// ---- casts ----
function casts() {
  const found = [];
  for (const file of srcFiles) {
    const sf = sourceOf(file);
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(sf) === 'const';
        if (!isConst) found.push(`${rel(file)}:${lineOf(sf, node.getStart(sf))}  ${node.getText(sf).replace(/\s+/g, ' ').slice(0, 110)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

// ---- unused exports ----
function unusedExports() {
  const used = new Set();
  const mark = (symbol) => {
    if (!symbol) return;
    used.add(symbol);
    if (symbol.flags & ts.SymbolFlags.Alias) mark(checker.getAliasedSymbol(symbol));
  };
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !sf.fileName.startsWith(root) || sf.fileName.includes('node_modules')) continue;
    const visit = (node) => {
      if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) mark(checker.getSymbolAtLocation(node.name));
      else if (ts.isImportClause(node) && node.name) mark(checker.getSymbolAtLocation(node.name));
      else if (ts.isNamespaceImport(node) || ts.isNamespaceExport(node) || (ts.isExportDeclaration(node) && !node.exportClause && node.moduleSpecifier)) {
        const spec = ts.isExportDeclaration(node) ? node.moduleSpecifier : node.parent.parent?.moduleSpecifier ?? node.parent.moduleSpecifier;
        const moduleSymbol = spec && checker.getSymbolAtLocation(spec);
        if (moduleSymbol) for (const e of checker.getExportsOfModule(moduleSymbol)) mark(e);
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        mark(checker.getSymbolAtLocation(node.qualifier));
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const spec = node.arguments[0];
        const moduleSymbol = spec && checker.getSymbolAtLocation(spec);
        if (moduleSymbol) for (const e of checker.getExportsOfModule(moduleSymbol)) mark(e);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const found = [];
  for (const file of srcFiles) {
    if (ENTRY_POINTS.has(rel(file))) continue;
    const sf = sourceOf(file);
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) continue;
    for (const e of checker.getExportsOfModule(moduleSymbol)) {
      const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      if (used.has(e) || used.has(target)) continue;
      const decl = e.declarations?.[0];
      found.push(`${rel(file)}:${decl ? lineOf(sf, decl.getStart(sf)) : 0}  ${e.name}`);
    }
  }
  return found;
}

// ---- sizes ----
function sizes() {
  const rows = [];
  const over = { files: [], functions: [] };
  const maxFile = limit('--max-file-lines');
  const maxFn = limit('--max-function-lines');
  for (const layer of LAYERS) {
    let file = { name: '', lines: 0 };
    let fn = { name: '', lines: 0 };
    for (const f of srcFiles.filter((x) => rel(x).startsWith(`src/${layer}/`))) {
      const sf = sourceOf(f);
      const lines = sf.getLineStarts().length;
      if (lines > file.lines) file = { name: rel(f), lines };
      if (maxFile !== undefined && lines > maxFile) over.files.push(`${rel(f)} (${lines} lines)`);
      const visit = (node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const n = lineOf(sf, node.end) - lineOf(sf, node.getStart(sf)) + 1;
          const name = `${rel(f)}:${lineOf(sf, node.getStart(sf))} ${functionName(node, sf)}`;
          if (n > fn.lines) fn = { name, lines: n };
          if (maxFn !== undefined && n > maxFn) over.functions.push(`${name} (${n} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    rows.push({ layer, file, fn });
  }
  return { rows, over };
}

function functionName(node, sf) {
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  return '(anonymous)';
}

let failed = false;
if (show('casts')) {
  const c = casts();
  console.log(`casts in src (as/<T>, not as const): ${c.length}`);
  if (list) for (const line of c) console.log(`  ${line}`);
  const max = limit('--max-casts');
  if (max !== undefined && c.length > max) failed = true;
}
if (show('exports')) {
  const u = unusedExports();
  console.log(`unused exports in src: ${u.length}`);
  if (list || limit('--max-exports') !== undefined) for (const line of u) console.log(`  ${line}`);
  const max = limit('--max-exports');
  if (max !== undefined && u.length > max) failed = true;
}
if (show('sizes')) {
  const { rows, over } = sizes();
  for (const { layer, file, fn } of rows) console.log(`${layer.padEnd(8)} largest file ${file.name} (${file.lines} lines); largest function ${fn.name} (${fn.lines} lines)`);
  if (limit('--max-file-lines') !== undefined) console.log([`files over ${limit('--max-file-lines')} lines: ${over.files.length}`, ...over.files.map((l) => `  ${l}`)].join('\n'));
  if (limit('--max-function-lines') !== undefined) console.log([`functions over ${limit('--max-function-lines')} lines: ${over.functions.length}`, ...over.functions.map((l) => `  ${l}`)].join('\n'));
  if (over.files.length + over.functions.length > 0) failed = true;
}
if (failed) process.exit(1);
