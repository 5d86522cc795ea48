import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureBuilt } from '../cli/ensureBuilt';
import { CONTRIBUTED_COMMANDS, REVIEW_RUNNING_CONTEXT } from '../../../src/vscode/commands';
import { DESCRIPTIVE_KEYS, settingLeaves, type JsonSchema } from './settingsJsonSchema';

const root = resolve(__dirname, '..', '..', '..');
const readJson = (p: string): unknown => JSON.parse(readFileSync(join(root, p), 'utf8'));

interface Manifest {
  activationEvents: string[];
  contributes: {
    configuration: { properties: Record<string, JsonSchema> };
    commands: { command: string; title: string; category?: string; enablement?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    keybindings: { command: string; key: string; mac?: string }[];
  };
}
const manifest = readJson('package.json') as Manifest;
const nlsEn = readJson('package.nls.json') as Record<string, string>;
const nlsKo = readJson('package.nls.ko.json') as Record<string, string>;

function withoutDescriptions(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !DESCRIPTIVE_KEYS.includes(k)));
}

function nlsRefs(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    const m = /^%(.+)%$/.exec(value);
    if (m) out.push(m[1] as string);
  } else if (Array.isArray(value)) value.forEach((v) => nlsRefs(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => nlsRefs(v, out));
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('package.json manifest', () => {
  it('mirrors every leaf of the settings schema, and nothing else, with the same types, defaults and limits', () => {
    const expected = settingLeaves();
    const actual = manifest.contributes.configuration.properties;
    assert.deepEqual(Object.keys(actual).sort(), [...expected.keys()].sort());
    for (const [key, schema] of expected) {
      assert.deepEqual(withoutDescriptions(actual[key] as JsonSchema), schema, key);
    }
  });

  it('describes every setting in English and Korean', () => {
    for (const [key, entry] of Object.entries(manifest.contributes.configuration.properties)) {
      const ref = nlsRefs(entry.markdownDescription ?? entry.description)[0];
      assert.ok(ref, `${key} has a %description%`);
      assert.ok(nlsEn[ref], `${key}: package.nls.json has ${ref}`);
      assert.ok(nlsKo[ref], `${key}: package.nls.ko.json has ${ref}`);
    }
  });

  it('every %key% in package.json exists in both nls files, and the two files have the same keys', () => {
    const refs = nlsRefs(manifest);
    assert.deepEqual(refs.filter((r) => !(r in nlsEn)), []);
    assert.deepEqual(refs.filter((r) => !(r in nlsKo)), []);
    assert.deepEqual(Object.keys(nlsKo).sort(), Object.keys(nlsEn).sort());
  });

  it('contributes exactly the commands in CONTRIBUTED_COMMANDS, all in the Quorum category', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual([...contributed].sort(), [...CONTRIBUTED_COMMANDS].sort());
    for (const c of manifest.contributes.commands) assert.equal(c.category, 'Quorum', c.command);
  });

  it('enables Cancel Review only while a review runs', () => {
    const cancel = manifest.contributes.commands.find((c) => c.command === 'quorum.cancelReview');
    assert.equal(cancel?.enablement, REVIEW_RUNNING_CONTEXT);
  });

  it('offers review in the editor context menu and on Ctrl+Alt+R / Cmd+Alt+R', () => {
    assert.ok(manifest.contributes.menus['editor/context']?.some((m) => m.command === 'quorum.reviewSelection'));
    const kb = manifest.contributes.keybindings.find((k) => k.command === 'quorum.reviewSelection');
    assert.equal(kb?.key, 'ctrl+alt+r');
    assert.equal(kb?.mac, 'cmd+alt+r');
  });

  it("offers Review with Quorum on the Source Control view's files: Staged Changes reviews what is staged, Changes and Untracked the working tree", () => {
    const scm = manifest.contributes.menus['scm/resourceState/context'] ?? [];
    const when = (command: string) => scm.filter((m) => m.command === command).map((m) => m.when ?? '');
    assert.deepEqual(when('quorum.reviewStagedFiles'), ['scmProvider == git && scmResourceGroup == index']);
    assert.deepEqual(when('quorum.reviewChangedFiles'), ['scmProvider == git && scmResourceGroup =~ /^(workingTree|untracked)$/']);
    for (const c of ['quorum.reviewStagedFiles', 'quorum.reviewChangedFiles']) assert.ok(manifest.contributes.menus.commandPalette?.some((m) => m.command === c && m.when === 'false'), c);
  });

  it('activates after startup (the status bar is visible from the start), not on every event', () => {
    assert.ok(manifest.activationEvents.includes('onStartupFinished'));
    // Besides startup, only the review panel's restore after a reload may activate Quorum.
    assert.deepEqual(manifest.activationEvents.filter((e) => e !== 'onStartupFinished' && !e.startsWith('onWebviewPanel:')), []);
    assert.ok(!manifest.activationEvents.includes('*'));
  });

  it('has a Korean translation for every vscode.l10n.t string in src/vscode', () => {
    const bundle = readJson('l10n/bundle.l10n.ko.json') as Record<string, string>;
    const missing: string[] = [];
    for (const file of sourceFiles(join(root, 'src', 'vscode'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)) {
        const message = (m[2] as string).replace(/\\(['"`\\])/g, '$1');
        if (!(message in bundle)) missing.push(`${file.slice(root.length + 1)}: ${message}`);
      }
    }
    assert.deepEqual(missing, []);
  });
  it('Korean text that names a command uses the command\'s Korean title, as the Command Palette shows it', () => {
    const bundle = readJson('l10n/bundle.l10n.ko.json') as Record<string, string>;
    const texts = [...Object.entries(bundle), ...Object.keys(nlsEn).map((k) => [nlsEn[k] ?? '', nlsKo[k] ?? ''] as const)];
    const wrong: string[] = [];
    for (const key of Object.keys(nlsEn).filter((k) => k.startsWith('command.'))) {
      const en = `Quorum: ${(nlsEn[key] ?? '').replace(/…$/, '')}`;
      const ko = `Quorum: ${(nlsKo[key] ?? '').replace(/…$/, '')}`;
      for (const [english, korean] of texts) {
        if (english.includes(en) && !korean.includes(ko)) wrong.push(`${korean} (should name "${ko}")`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("has no made-up repository URL; the README's images are relative, exist, and are packed in the .vsix as they are", () => {
    const pkg = readJson('package.json') as { repository?: unknown; scripts: Record<string, string> };
    assert.equal(pkg.repository, undefined, 'no placeholder repository: vsce would rewrite the README links to it');
    assert.match(pkg.scripts.package ?? '', /--no-rewrite-relative-links/);
    assert.match(pkg.scripts.package ?? '', /--allow-missing-repository/);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
    assert.ok(images.length > 0);
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
    for (const src of images) {
      assert.doesNotMatch(src, /^[a-z]+:/i, `${src} is relative`);
      assert.ok(statSync(join(root, src)).size < 200_000, `${src} exists and is small`);
      assert.ok(ignore.split('\n').includes(`!${src.replace(/[^/]+$/, '*.jpg')}`), `${src} is let into the package`);
    }
  });

  it('ships tree-sitter and its grammars as their own files, required on the first parse, and no TypeScript compiler', function () {
    this.timeout(120_000);
    ensureBuilt();
    // The review engine (dist/engine.js, loaded by the first use after activation) is what parses.
    const engine = readFileSync(join(root, 'dist', 'engine.js'), 'utf8');
    assert.match(engine, /require\("\.\/tree-sitter\/tree-sitter\.js"\)/);
    assert.ok(!engine.includes('_ts_parser_new'), 'the runtime is not inside engine.js');
    assert.ok(!engine.includes('function transpileModule('), 'the TypeScript compiler is not bundled');
    assert.ok(!existsSync(join(root, 'dist', 'typescript.js')));
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!dist/tree-sitter/*.js') && ignore.includes('!dist/tree-sitter/*.wasm'));
    for (const grammar of ['typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'c-sharp', 'php', 'ruby', 'rust']) {
      assert.ok(statSync(join(root, 'dist', 'tree-sitter', `tree-sitter-${grammar}.wasm`)).size > 0, grammar);
    }
  });

  it("ships the tokenizer's rank table beside the bundles as JSON, and not the library's 1.1 MB JavaScript copy of it", function () {
    this.timeout(120_000);
    ensureBuilt();
    for (const bundle of ['extension.js', 'cli.js']) {
      // A few of the table's first ranks as the library writes them: absent when the library's table is not bundled.
      assert.doesNotMatch(readFileSync(join(root, 'dist', bundle), 'utf8'), /"!",\s*"\\"",\s*"#",\s*"\$"/, bundle);
    }
    assert.deepEqual(readFileSync(join(root, 'dist', 'cl100k_base.json')), readFileSync(join(root, 'data', 'cl100k_base.json')));
    assert.ok(readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n').includes('!dist/cl100k_base.json'));
  });
});
