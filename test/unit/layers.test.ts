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

describe('layer rules (DESIGN.md)', () => {
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
