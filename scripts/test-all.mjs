// Runs the static checks (ESLint, unused exports, file and function sizes: each one counts as a test) and the
// three suites (unit, webview, integration) one after the other, shows their output, and ends with one plain
// `N passed, N failed` line that totals them. Exits non-zero when anything failed.
import { spawn } from 'node:child_process';

/** The checks a change must keep passing (ARCHITECTURE.md, "Invariants"): each is one test, passed or failed. */
const checks = [
  ['lint', ['run', 'lint']],
  ['exports', ['run', 'check:exports']],
  ['sizes', ['run', 'check:sizes']],
];
const suites = [
  ['unit', ['run', 'test:unit']],
  ['webview', ['run', 'test:webview']],
  ['integration', ['run', 'test:integration']],
];
const only = process.argv.slice(2);

function run(name, args) {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const collect = (stream, sink) => stream.on('data', (d) => { out += d; sink.write(d); });
    collect(child.stdout, process.stdout);
    collect(child.stderr, process.stderr);
    child.on('close', (code) => {
      // mocha's spec reporter: "  12 passing (3s)", "  1 failing", "  2 pending"
      const num = (re) => [...out.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
      const passed = num(/^\s*(\d+) passing/gm);
      let failed = num(/^\s*(\d+) failing/gm);
      if (code !== 0 && failed === 0) failed = 1; // the suite broke before mocha could count
      resolve({ name, passed, failed, code });
    });
  });
}

const results = [];
if (only.length === 0 || only.includes('checks')) {
  console.log('\n=== checks ===');
  for (const [name, args] of checks) {
    const r = await run(name, args);
    const ok = r.code === 0;
    console.log(`check ${name}: ${ok ? 'passed' : 'FAILED'}`);
    results.push({ name: `check ${name}`, passed: ok ? 1 : 0, failed: ok ? 0 : 1, code: r.code });
  }
}
for (const [name, args] of suites) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n=== ${name} tests ===`);
  results.push(await run(name, args));
}
console.log('');
for (const r of results) console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
