import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '..', '..');
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|js|mjs|cjs)$/.test(name) ? [p] : [];
  });
}

/** Every module specifier in a file: static and dynamic imports, re-exports and require calls. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'"]*?\sfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1] as string);
  return out;
}

/**
 * The floors of src/core, lowest first (ARCHITECTURE.md, "Floors of the core", shows the same table): a folder
 * imports only folders on lower floors, never one on its own floor or above. The review's vocabulary (domain) is
 * on the ground floor with the utilities; the use cases (review, doctor) and eval are at the top.
 */
const CORE_FLOORS: readonly (readonly string[])[] = [
  ['util', 'domain'],
  ['settings', 'tokens', 'syntax', 'redaction'],
  ['cost'],
  ['gateway', 'changes', 'prompt', 'fix'],
  ['context', 'toolResults'],
  ['agents'],
  ['pipeline'],
  ['verification'],
  ['memory'],
  ['outcomes', 'report'],
  ['review', 'doctor'],
  ['eval'],
];

describe('layer rules (ARCHITECTURE.md)', () => {
  it('src/core and src/shared never mention the module vscode', () => {
    const offenders = [...files(join(src, 'core')), ...files(join(src, 'shared'))].filter((f) => {
      const text = readFileSync(f, 'utf8');
      return specifiers(text).some((s) => s === 'vscode' || s.startsWith('vscode/')) || /['"]vscode['"]/.test(text);
    });
    assert.deepEqual(offenders.map((f) => relative(root, f)), []);
  });

  it('src/webview imports only src/webview, src/shared and browser libraries', () => {
    const nodeBuiltins = /^(node:|fs$|path$|os$|child_process$|http$|https$|net$|crypto$|vscode$)/;
    const bad: string[] = [];
    for (const f of files(join(src, 'webview'))) {
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (s.startsWith('.')) {
          const target = resolve(dirname(f), s);
          const ok = [join(src, 'webview'), join(src, 'shared')].some((d) => target === d || target.startsWith(d + sep));
          if (!ok) bad.push(`${relative(root, f)} -> ${s}`);
        } else if (nodeBuiltins.test(s)) {
          bad.push(`${relative(root, f)} -> ${s}`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });

  it('src/shared uses neither Node nor the DOM at run time', () => {
    const bad: string[] = [];
    for (const f of files(join(src, 'shared'))) {
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (s.startsWith('node:') || /^(fs|path|os|crypto|http|https)$/.test(s)) bad.push(`${relative(root, f)} -> ${s}`);
        if (s.startsWith('.') && !resolve(dirname(f), s).startsWith(join(src, 'shared'))) bad.push(`${relative(root, f)} -> ${s}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('every folder of src/core is on a floor, and imports only folders on lower floors', () => {
    const floorOf = new Map(CORE_FLOORS.flatMap((folders, floor) => folders.map((f) => [f, floor] as const)));
    const core = join(src, 'core');
    const folders = readdirSync(core).filter((n) => statSync(join(core, n)).isDirectory());
    assert.deepEqual(folders.filter((f) => !floorOf.has(f)), [], 'a new folder of src/core needs a floor here and in ARCHITECTURE.md');
    const bad: string[] = [];
    for (const f of files(core)) {
      const from = relative(core, f).split(sep)[0] as string;
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (!s.startsWith('.')) continue;
        const target = resolve(dirname(f), s);
        if (!target.startsWith(core + sep)) continue;
        const to = relative(core, target).split(sep)[0] as string;
        if (to === from) continue;
        if ((floorOf.get(to) ?? Infinity) >= (floorOf.get(from) ?? -1)) bad.push(`${relative(root, f)} -> ${s} (${from} is on floor ${floorOf.get(from)}, ${to} on ${floorOf.get(to)})`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('ARCHITECTURE.md shows the floors the test enforces', () => {
    const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const table = [...doc.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => [Number(m[1]), (m[2] as string).split(',').map((f) => f.trim().replace(/`/g, ''))] as const);
    assert.deepEqual(table.map(([n]) => n), CORE_FLOORS.map((_, i) => i));
    assert.deepEqual(table.map(([, folders]) => folders), CORE_FLOORS.map((f) => [...f]));
  });

  it('only src/vscode imports vscode', () => {
    const bad = files(src)
      .filter((f) => !f.startsWith(join(src, 'vscode') + sep))
      .filter((f) => specifiers(readFileSync(f, 'utf8')).includes('vscode'));
    assert.deepEqual(bad.map((f) => relative(root, f)), []);
  });
});

describe('one tsconfig per layer (the compiler enforces the layer rules)', () => {
  const layers = {
    shared: { dom: false, types: [] },
    webview: { dom: true, types: [] },
    core: { dom: false, types: ['node'] },
    cli: { dom: false, types: ['node'] },
    vscode: { dom: false, types: ['node', 'vscode'] },
  } as const;

  function parsed(configPath: string) {
    const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    assert.equal(read.error, undefined, `${relative(root, configPath)} reads`);
    return ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  }

  for (const [layer, want] of Object.entries(layers)) {
    it(`src/${layer}: ${want.dom ? 'DOM' : 'no DOM'}, ambient types [${want.types.join(', ')}], noUncheckedIndexedAccess, every file of the layer`, () => {
      const config = parsed(join(src, layer, 'tsconfig.json'));
      assert.deepEqual(config.errors, []);
      const libs = (config.options.lib ?? []).map((l) => l.toLowerCase());
      assert.equal(libs.some((l) => l.includes('dom')), want.dom, `lib: ${libs.join(', ')}`);
      assert.deepEqual([...(config.options.types ?? [])].sort(), [...want.types].sort());
      assert.equal(config.options.strict, true);
      assert.equal(config.options.noUncheckedIndexedAccess, true);
      const expected = files(join(src, layer)).filter((f) => f.endsWith('.ts')).map((f) => relative(root, f)).sort();
      assert.deepEqual(config.fileNames.map((f) => relative(root, f)).sort(), expected);
    });
  }

  it('one redactor: src/ reaches key scrubbing and secret redaction only through src/core/redaction/redactor.ts', () => {
    const redaction = join(src, 'core', 'redaction');
    const bad: string[] = [];
    for (const f of files(src)) {
      if (f.startsWith(redaction + sep)) continue;
      const text = readFileSync(f, 'utf8');
      for (const s of specifiers(text)) {
        if (s.startsWith('@secretlint/')) bad.push(`${relative(root, f)} -> ${s}`);
        if (s.startsWith('.') && resolve(dirname(f), s).startsWith(redaction + sep) && resolve(dirname(f), s) !== join(redaction, 'redactor')) bad.push(`${relative(root, f)} -> ${s}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('npm run typecheck checks every layer project and the tests project', () => {
    const script = readFileSync(join(root, 'scripts', 'typecheck.mjs'), 'utf8');
    for (const layer of Object.keys(layers)) assert.match(script, new RegExp(`'src/${layer}/tsconfig\\.json'`));
    assert.match(script, /'tsconfig\.json'/);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts.typecheck, 'node scripts/typecheck.mjs');
  });
});
