import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Issue 20, item 5: start-up loaded the secret scanner, the SDK, the tokenizer and the TypeScript parser before
 * anything was asked of it. What `activate()` loads is what `src/vscode/extension.ts` imports statically, module by
 * module: only the wiring that registers commands and providers. The review engine (`src/vscode/engine.ts`:
 * settings and their zod schemas, the gateway, the pipeline, the controller, the panels) and the libraries a review
 * needs are loaded when first needed (`import()` or a `require` in a function), each in a file of its own in the
 * bundle (esbuild.js: LAZY_MODULES). The figure itself is measured with ../shared/toolchain/activation.cjs (README,
 * "Start-up").
 */

const root = resolve(__dirname, '..', '..');
const LAZY = ['openai', 'typescript', 'gpt-tokenizer', '@secretlint/', '@vscode/tree-sitter-wasm', '@pydantic/genai-prices'];

/** The modules a file imports when it is loaded: static imports and re-exports, not types, not `import()`. */
function staticImports(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /^\s*import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
    /^\s*export\s+(?!type\s)[^'";]*?\sfrom\s+['"]([^'"]+)['"]/gm,
    // A top-level require (a lazy one sits inside a function, indented).
    /^(?:const|let|var)\s[^=\n]+=\s*require\(\s*['"]([^'"]+)['"]\s*\)/gm,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1] as string);
  return out;
}

function resolveSource(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, join(base, 'index.ts'), base].find((p) => existsSync(p) && p.endsWith('.ts'));
}

/** Every package and source file reached from `entry` by loading it, each package with the chain of files that reaches it. */
function loadedFrom(entry: string): { packages: Map<string, string[]>; files: Set<string> } {
  const packages = new Map<string, string[]>();
  const files = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    const name = relative(root, file);
    if (files.has(name)) return;
    files.add(name);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const next = resolveSource(file, spec);
        if (next) walk(next, [...chain, relative(root, next)]);
      } else if (!packages.has(spec)) packages.set(spec, chain);
    }
  };
  walk(entry, [relative(root, entry)]);
  return { packages, files };
}

const ENTRY = join(root, 'src', 'vscode', 'extension.ts');
const ENGINE = join(root, 'src', 'vscode', 'engine.ts');

describe('start-up: what activating the extension loads', () => {
  it('none of the libraries a review loads on first use: the SDK, secretlint, the tokenizer, the parser (tree-sitter), the price catalogue', () => {
    const { packages } = loadedFrom(ENGINE);
    assert.ok(packages.has('vscode') && packages.has('zod'), 'the walk follows the imports');
    const heavy = [...packages].filter(([spec]) => LAZY.some((l) => spec === l || spec.startsWith(l.endsWith('/') ? l : `${l}/`)));
    assert.deepEqual(heavy.map(([spec, chain]) => `${spec} <- ${chain.join(' <- ')}`), []);
  });

  it('activation loads only its wiring: no library but vscode and Node\'s own, not the review engine nor any module of it', () => {
    const { packages, files } = loadedFrom(ENTRY);
    // zod (building the settings' schemas), the gateway, the pipeline, the controller: all the engine's.
    assert.deepEqual([...packages].filter(([spec]) => spec !== 'vscode' && !spec.startsWith('node:')).map(([spec, chain]) => `${spec} <- ${chain.join(' <- ')}`), []);
    const engine = loadedFrom(ENGINE).files;
    const thin = new Set(['src/vscode/extension.ts', 'src/vscode/commands.ts', 'src/vscode/contributions.ts', 'src/vscode/tools/mcpServer.ts', 'src/vscode/log.ts', 'src/vscode/cost/costStatusBar.ts', 'src/vscode/cost/monthlySpend.ts', 'src/core/cost/totals.ts', 'src/core/redaction/redactor.ts', 'src/core/redaction/secretRules.ts', 'src/shared/format.ts', 'src/shared/untrustedText.ts', 'src/shared/bidi.ts']);
    assert.ok(engine.has('src/vscode/review/reviewController.ts') && engine.has('src/vscode/settings.ts'), 'the walk reaches the engine');
    assert.deepEqual([...files].filter((f) => !thin.has(f)), [], 'a module activation loads beyond its wiring (a heavy one belongs to the engine)');
    assert.ok(!files.has('src/vscode/engine.ts'));
    // The one way to the engine: a require in a function, which the bundle keeps as a require of dist/engine.js.
    assert.match(readFileSync(ENTRY, 'utf8'), /^ {2}const createEngine: [^=]+= require\('\.\/engine'\)\.createEngine;$/m);
  });

  it('each of them is a file of its own in the extension\'s build, shipped in the .vsix', () => {
    const build = readFileSync(join(root, 'esbuild.js'), 'utf8');
    const shipped = readFileSync(join(root, '.vscodeignore'), 'utf8');
    for (const file of ['engine.js', 'openai.js', 'secretlint.js', 'tokenizer.js', 'catalog.js']) {
      assert.match(build, new RegExp(`file: '${file.replace('.', '\\.')}'`), file);
      assert.match(shipped, new RegExp(`^!dist/${file.replace('.', '\\.')}$`, 'm'), file);
    }
    // tree-sitter's runtime is required from dist/tree-sitter/ on the first parse (esbuild.js: lazyTreeSitter).
    assert.match(build, /lazyTreeSitter/);
    assert.match(shipped, /^!dist\/tree-sitter\/\*\.js$/m);
  });

  it('zod is imported as a namespace everywhere (`import { z }` pulled in every locale of zod: 0.36 MB of the bundle)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts') && /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod/.test(readFileSync(p, 'utf8'))) offenders.push(relative(root, p));
      }
    };
    walk(join(root, 'src'));
    assert.deepEqual(offenders, []);
  });
});
