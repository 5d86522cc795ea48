import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSarif, readSarifFile } from '../../../src/core/toolResults/sarif';
import { readToolResultFiles, TOOL_RESULTS_DIR } from '../../../src/core/toolResults/files';

/** The stand-ins of test/fixtures/sarif (see its README for where each shape comes from), rooted at `root`. */
function fixture(name: string, root: string): string {
  const raw = readFileSync(join(__dirname, '../../fixtures/sarif', name), 'utf8');
  // The tools write absolute file URIs of the folder they ran in.
  return raw.replaceAll('file:///__ROOT__/', pathToFileURL(root + '/').href);
}

describe('tool results from SARIF files', () => {
  const root = mkdtempSync(join(tmpdir(), 'quorum-sarif-'));

  it("reads ESLint's SARIF: rules by index, the artifact's file, no suppressed message, no tool notification", () => {
    const read = parseSarif(fixture('eslint.sarif', root), root, 'eslint.sarif');
    assert.ok(read.ok);
    assert.deepEqual(read.results, [
      { tool: 'eslint', rule: 'no-unused-vars', severity: 'warning', file: 'src/app.js', startLine: 3, endLine: 3, message: "'total' is assigned a value but never used." },
      { tool: 'eslint', rule: 'eqeqeq', severity: 'error', file: 'src/app.js', startLine: 5, endLine: 5, message: "Expected '===' and instead saw '=='." },
      { tool: 'eslint', rule: 'no-unused-vars', severity: 'warning', file: 'src/other.js', startLine: 1, endLine: 1, message: "'helper' is defined but never used." },
    ]);
  });

  it("reads Ruff's SARIF: absolute file URIs, a multi-line region, and the syntax error without a rule (ruleId null)", () => {
    const read = parseSarif(fixture('ruff.sarif', root), root, 'ruff.sarif');
    assert.ok(read.ok);
    assert.deepEqual(read.results.map((r) => [r.tool, r.rule, r.severity, r.file, r.startLine, r.endLine]), [
      ['ruff', 'F401', 'error', 'app/main.py', 1, 1],
      ['ruff', 'E722', 'error', 'app/main.py', 6, 7],
      ['ruff', '', 'error', 'app/main.py', 11, 12],
    ]);
    assert.equal(read.results[0]?.message, '`os` imported but unused');
  });

  it("reads Semgrep's SARIF: %SRCROOT%-relative paths, the CWE from the rule's tags, the level from the rule, nosemgrep left out", () => {
    const read = parseSarif(fixture('semgrep.sarif', root), root, 'semgrep.sarif');
    assert.ok(read.ok);
    assert.equal(read.results.length, 1);
    const [r] = read.results;
    assert.deepEqual([r?.tool, r?.rule, r?.severity, r?.file, r?.startLine, r?.endLine, r?.cwe], ['semgrep', 'python.lang.security.audit.dangerous-system-call.dangerous-system-call', 'error', 'app/main.py', 15, 15, ['CWE-78']]);
    assert.match(r?.message ?? '', /^Found user-controlled data used in a system call/);
  });

  it("reads CodeQL's CWE tags (external/cwe/cwe-089), rules of an extension, message strings, and leaves out passes and other files", () => {
    const log = {
      version: '2.1.0',
      runs: [{
        tool: {
          driver: { name: 'CodeQL', rules: [] },
          extensions: [{ name: 'codeql/javascript-queries', rules: [{ id: 'js/sql-injection', messageStrings: { default: { text: 'This query depends on {0}.' } }, properties: { tags: ['security', 'external/cwe/cwe-089'] } }] }],
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(root + '/').href } },
        results: [
          { ruleId: 'js/sql-injection', rule: { id: 'js/sql-injection', index: 0, toolComponent: { index: 0 } }, message: { id: 'default', arguments: ['a user-provided value'] }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/db%20query.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 12 } } }] },
          { ruleId: 'js/sql-injection', kind: 'pass', message: { text: 'ok' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/a.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 1 } } }] },
          { ruleId: 'js/sql-injection', message: { text: 'elsewhere' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'file:///elsewhere/x.js' }, region: { startLine: 1 } } }] },
        ],
      }],
    };
    const read = parseSarif(JSON.stringify(log), root, 'codeql.sarif');
    assert.ok(read.ok);
    assert.deepEqual(read.results, [{ tool: 'codeql', rule: 'js/sql-injection', severity: 'warning', file: 'src/db query.js', startLine: 12, endLine: 12, message: 'This query depends on a user-provided value.', cwe: ['CWE-89'] }]);
    // A base given relative to the folder the tool ran in.
    const relativeBase = parseSarif(JSON.stringify({ ...log, runs: [{ ...log.runs[0], originalUriBaseIds: { '%SRCROOT%': { uri: 'packages/web/' } } }] }), root, 'codeql.sarif');
    assert.ok(relativeBase.ok);
    assert.deepEqual(relativeBase.results.map((r) => r.file), ['packages/web/src/db query.js']);
  });

  it('a broken file, a file of another format or version, and a missing file are one line each, and give nothing', async () => {
    const broken = parseSarif(readFileSync(join(__dirname, '../../fixtures/sarif/broken.sarif'), 'utf8'), root, 'broken.sarif');
    assert.deepEqual(broken, { ok: false, problem: 'broken.sarif: not JSON (is it a SARIF file?)' });
    const eslintJson = parseSarif(JSON.stringify([{ filePath: '/x.js', messages: [] }]), root, 'eslint.json');
    assert.equal(eslintJson.ok, false);
    if (!eslintJson.ok) assert.match(eslintJson.problem, /^eslint\.json: not SARIF 2\.1\.0: /);
    const old = parseSarif(JSON.stringify({ version: '2.0.0', runs: [] }), root, 'old.sarif');
    assert.deepEqual(old, { ok: false, problem: 'old.sarif: not SARIF 2.1.0: version: version is not 2.1.0 (only SARIF 2.1.0 is read)' });
    const badLine = parseSarif(JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { region: { startLine: 0 } } }] }] }] }), root, 'bad.sarif');
    assert.equal(badLine.ok, false);
    if (!badLine.ok) assert.match(badLine.problem, /^bad\.sarif: not SARIF 2\.1\.0: runs\.0\.results\.0\.locations\.0\.physicalLocation\.region\.startLine: /);
    for (const p of [broken, eslintJson, old, badLine]) if (!p.ok) assert.doesNotMatch(p.problem, /\n/);
    const missing = await readSarifFile(join(root, 'nope.sarif'), root, 'nope.sarif');
    assert.deepEqual(missing, { ok: false, problem: 'nope.sarif: cannot be read (ENOENT)' });
  });

  it('reads the files given and those of .quorum/tool-results/, each once; a bad one is said and the rest are read', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'quorum-sarif-repo-'));
    mkdirSync(join(repo, TOOL_RESULTS_DIR), { recursive: true });
    writeFileSync(join(repo, TOOL_RESULTS_DIR, 'ruff.sarif'), fixture('ruff.sarif', repo));
    writeFileSync(join(repo, TOOL_RESULTS_DIR, 'notes.txt'), 'not read');
    writeFileSync(join(repo, 'eslint.sarif'), fixture('eslint.sarif', repo));
    writeFileSync(join(repo, 'broken.sarif'), '{');
    const read = await readToolResultFiles(['eslint.sarif', 'broken.sarif', join(TOOL_RESULTS_DIR, 'ruff.sarif')], repo, repo);
    assert.equal(read.files, 3);
    assert.deepEqual(read.problems, ['broken.sarif: not JSON (is it a SARIF file?)']);
    assert.deepEqual([...new Set(read.results.map((r) => r.tool))], ['eslint', 'ruff']);
    assert.equal(read.results.length, 6);
  });
});
