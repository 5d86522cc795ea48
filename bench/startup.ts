/**
 * `npm run bench:startup [-- path/to/extension.js …]`: the CPU time the extension's bundle costs at start-up, in
 * fresh Node processes: loading the module (compiling it and running its top level), then `activate()`, with a
 * stand-in for the `vscode` module that answers every call. The default bundle is this checkout's
 * `dist/extension.js` (build it with `npm run build:prod`); give several bundles (an older build unpacked from
 * its .vsix) to compare them, run alternately.
 *
 * Prints one JSON line per bundle: loadCpuMs and activateCpuMs (medians over RUNS processes, each figure of every
 * run too), bytes; and firstUseCpuMs, what the first use after activation costs (the API's `ledger`: loading and
 * building the review engine, dist/engine.js, which activation leaves alone). CPU time, not wall time: on a shared machine the wall time also counts waiting for a core. VS
 * Code's own figure (the Extensions view) is measured with ../shared/toolchain/activation.cjs (README,
 * Benchmarks).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = 7;

/** Runs in the child: a `vscode` whose every member is a callable that answers with another such member. */
const CHILD = String.raw`
const Module = require('module');
const anything = () => new Proxy(function () {}, {
  get: (t, k) => (k === 'then' ? undefined : k === Symbol.iterator ? function* () {} : k === Symbol.toPrimitive ? () => 0 : anything()),
  apply: () => anything(), construct: () => anything(), set: () => true,
});
const store = { get: () => undefined, update: async () => undefined, keys: () => [] };
// The bundle copies the module's own members (esbuild's interop): every name the extension uses is one.
const vscode = Object.fromEntries(process.argv[2].split(',').map((name) => [name, anything()]));
vscode.l10n = { t: (s) => String(s) };
vscode.workspace = new Proxy({}, { get: (w, n) => n === 'getConfiguration' ? () => ({ get: () => undefined, inspect: () => undefined, has: () => false }) : n === 'workspaceFolders' ? [] : n === 'isTrusted' ? true : anything() });
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
const file = process.argv[1];
const pkg = require(require('path').join(require('path').dirname(file), '..', 'package.json'));
const c0 = process.cpuUsage();
const extension = require(file);
const loaded = process.cpuUsage(c0);
const context = { subscriptions: [], extension: { packageJSON: pkg }, secrets: anything(), globalState: store, workspaceState: store, extensionUri: anything(), logUri: anything(), globalStorageUri: anything(), extensionPath: '' };
const c1 = process.cpuUsage();
const api = extension.activate(context);
const activated = process.cpuUsage(c1);
// The first use after activation: the API's ledger is the review engine's (a bundle that has none builds it in activate).
const c2 = process.cpuUsage();
void api.ledger;
const firstUse = process.cpuUsage(c2);
const ms = (u) => Math.round((u.user + u.system) / 100) / 10;
process.stdout.write(JSON.stringify({ load: ms(loaded), activate: ms(activated), firstUse: ms(firstUse) }) + '\n');
process.exit(0);
`;

/** Every `vscode.X` the extension's sources use. */
function vscodeNames(dir = join(__dirname, '..', 'src', 'vscode')): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) for (const n of vscodeNames(p)) names.add(n);
    else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/\bvscode\.([A-Za-z]+)/g)) names.add(m[1] ?? '');
  }
  return names;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const names = [...vscodeNames()].filter((n) => n !== '').join(',');
const bundles = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['dist/extension.js'];
const figures = new Map(bundles.map((b) => [b, { load: [] as number[], activate: [] as number[], firstUse: [] as number[] }]));
for (let i = 0; i < RUNS; i++) {
  for (const bundle of bundles) {
    const out = execFileSync(process.execPath, ['-e', CHILD, resolve(bundle), names], { encoding: 'utf8' });
    const run = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { load: number; activate: number; firstUse: number };
    figures.get(bundle)?.load.push(run.load);
    figures.get(bundle)?.activate.push(run.activate);
    figures.get(bundle)?.firstUse.push(run.firstUse);
  }
}
for (const [bundle, f] of figures) {
  console.log(JSON.stringify({ bundle, bytes: statSync(bundle).size, loadCpuMs: median(f.load), activateCpuMs: median(f.activate), firstUseCpuMs: median(f.firstUse), loadRuns: f.load, activateRuns: f.activate, loadAverage: loadavg()[0] }));
}
