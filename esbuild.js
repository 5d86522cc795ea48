// One esbuild context per bundle: extension (node/cjs, `vscode` external), webview (browser/iife),
// cli (node/cjs with a shebang). `--production` minifies without sourcemaps; `--watch` rebuilds on change;
// `--tests` also bundles the integration tests that run inside VS Code.
'use strict';
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Prints errors in the `file:line:col: error: text` form that VS Code's problem matchers understand. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => { if (watch) console.log('[watch] build started'); });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
  plugins: [problemMatcher],
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
};

const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };

/**
 * tree-sitter (src/core/syntax/parser.ts; the review's context and the syntax check of a fix): the runtime of `@vscode/tree-sitter-wasm` stays out of the bundles and
 * is required from dist/tree-sitter/ on the first parse, beside its .wasm and the grammars' (copied by
 * copyTreeSitter), so that neither activation nor `quorum --help` loads it.
 */
const lazyTreeSitter = {
  name: 'lazy-tree-sitter',
  setup(build) {
    build.onResolve({ filter: /^@vscode\/tree-sitter-wasm$/ }, (args) => (args.kind === 'require-call' ? { path: './tree-sitter/tree-sitter.js', external: true } : undefined));
  },
};

/**
 * What a review needs only when it first needs it, each in a file of its own beside the extension's bundle and
 * required on first use, so that activation loads a small bundle (issue 20: the secret scanner, the SDK, the
 * tokenizer and the TypeScript parser made start-up twice as slow as the first release's; the parser is now
 * tree-sitter, see lazyTreeSitter):
 * - the review engine (settings and their schemas, the gateway, the pipeline, the controller, the panels), on the
 *   first command, provider call or API use that needs it (src/vscode/extension.ts; built like the extension's
 *   bundle, `extension: true`, and itself loading the files below lazily);
 * - the OpenAI SDK (0.4 MB), on the first request (src/core/gateway/openaiSdk.ts);
 * - secretlint's preset (0.35 MB), on the first redaction (src/core/redaction/secretlint.ts);
 * - the tokenizer's library, on the first estimate (src/core/tokens/encoding.ts);
 * - the price and context-window catalogue (`@pydantic/genai-prices`, 0.5 MB of data), on the first price or
 *   context window looked up (src/core/cost/catalog.ts).
 * The command line bundles them inline (it runs one review and exits).
 */
const LAZY_MODULES = [
  // The review engine (src/vscode/engine.ts): everything of the extension but what activation registers.
  {
    file: 'engine.js', entry: 'src/vscode/engine.ts', extension: true,
    matches: (p, importer) => p === './engine' && path.dirname(importer) === path.join(__dirname, 'src', 'vscode'),
  },
  { file: 'openai.js', entry: require.resolve('openai'), matches: (p) => p === 'openai' },
  { file: 'tokenizer.js', entry: require.resolve('gpt-tokenizer/GptEncoding'), matches: (p) => p === 'gpt-tokenizer/GptEncoding' },
  { file: 'catalog.js', entry: require.resolve('@pydantic/genai-prices'), matches: (p) => p === '@pydantic/genai-prices' },
  {
    file: 'secretlint.js', entry: 'src/core/redaction/secretlint.ts',
    matches: (p, importer) => p === './secretlint' && path.dirname(importer) === path.join(__dirname, 'src', 'core', 'redaction'),
  },
];

const lazyModules = {
  name: 'lazy-modules',
  setup(build) {
    build.onResolve({ filter: /^(openai|gpt-tokenizer\/GptEncoding|@pydantic\/genai-prices|\.\/secretlint|\.\/engine)$/ }, (args) => {
      const lazy = LAZY_MODULES.find((m) => m.matches(args.path, args.importer));
      return lazy ? { path: `./${lazy.file}`, external: true } : undefined;
    });
  },
};

/** The grammars that src/core/syntax/languages.ts names, and the runtime's own files. */
const TREE_SITTER_FILES = ['tree-sitter.js', 'tree-sitter.wasm', ...['typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'c-sharp', 'php', 'ruby', 'rust'].map((g) => `tree-sitter-${g}.wasm`)];

function copyTreeSitter() {
  const from = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
  const to = path.join(__dirname, 'dist', 'tree-sitter');
  fs.mkdirSync(to, { recursive: true });
  for (const f of TREE_SITTER_FILES) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

function integrationTestEntries() {
  const dir = path.join(__dirname, 'test', 'integration');
  return fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}

/** The review panel's icon font, served from dist/ (a localResourceRoot) so node_modules never ships. */
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(__dirname, 'dist', 'codicons');
  fs.mkdirSync(to, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

/** The tokenizer's rank table (src/core/tokens/encoding.ts), beside the bundles that ship. */
function copyRankTable() {
  fs.mkdirSync('dist', { recursive: true });
  fs.copyFileSync(path.join(__dirname, 'data', 'cl100k_base.json'), path.join('dist', 'cl100k_base.json'));
}

async function main() {
  // `import()` becomes `require()`: the extension host loads the lazy files as the CommonJS modules they are.
  const extension = { ...node, external: ['vscode'], plugins: [problemMatcher, lazyModules, lazyTreeSitter], supported: { 'dynamic-import': false } };
  const configs = [
    { ...extension, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js' },
    ...LAZY_MODULES.map((m) => (m.extension ? { ...extension, entryPoints: [m.entry], outfile: `dist/${m.file}` } : { ...node, entryPoints: [m.entry], outfile: `dist/${m.file}`, sourcemap: false })),
    { ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [problemMatcher, lazyTreeSitter] },
    // The context index's scanning thread (src/core/context/scanThread.ts), started by the CLI and the engine alike.
    { ...node, entryPoints: ['src/core/context/scanWorker.ts'], outfile: 'dist/contextScan.js', sourcemap: false },
    {
      ...common, entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js',
      platform: 'browser', format: 'iife', target: ['chrome120'],
    },
    {
      ...common, entryPoints: ['src/webview/compare/main.ts'], outfile: 'dist/compare.js',
      platform: 'browser', format: 'iife', target: ['chrome120'],
    },
  ];
  if (tests) {
    configs.push({
      ...node, entryPoints: integrationTestEntries(), outdir: 'out/test/integration', external: ['vscode', 'mocha'],
      sourcemap: 'inline',
    });
  }
  // dist/typescript.js of an earlier build (the fix check's parser before tree-sitter) is not shipped any more.
  fs.rmSync(path.join('dist', 'typescript.js'), { force: true });
  if (production && fs.existsSync('dist')) {
    // Sourcemaps of an earlier development build would otherwise sit beside the minified bundles.
    for (const f of fs.readdirSync('dist')) if (f.endsWith('.map')) fs.rmSync(path.join('dist', f));
  }
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  if (watch) {
    copyCodicons();
    copyRankTable();
    copyTreeSitter();
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  copyCodicons();
  copyRankTable();
  copyTreeSitter();
  fs.chmodSync('dist/cli.js', 0o755);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
