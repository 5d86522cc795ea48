import { strict as assert } from 'node:assert';
import type { Log, Result } from 'sarif';
import { toSarif, type SarifOptions } from '../../../src/core/report/sarif';
import { ruleIdOf, slug } from '../../../src/core/report/ruleId';
import { agent, fileTarget, finding, summary } from './fixtures';

const FILE = [
  'import sqlite3',
  'def find_user(conn, name):',
  '    cur = conn.cursor()',
  '    cur.execute(f"SELECT * FROM users WHERE name = \'{name}\'")',
  '    return cur.fetchone()',
  'def hash_pw(pw):',
  '    return md5(pw).hexdigest()',
];

function options(lines: readonly string[] = FILE): SarifOptions {
  return {
    toolVersion: '1.2.3',
    informationUri: 'https://example.invalid/quorum',
    pathOf: (file) => file.replace(/^\/repo\//, ''),
    linesOf: () => lines,
  };
}

const sqli = finding({ severity: 'critical', title: 'SQL injection in find_user', cwe: 'CWE-89', agents: ['security', 'analyst'], startLine: 4, endLine: 4, confidence: 0.9, suggestion: '    cur.execute("SELECT * FROM users WHERE name = ?", (name,))' });
const md5 = finding({ severity: 'medium', title: 'Weak password hash', cwe: 'CWE-327', agents: ['security'], startLine: 7, endLine: 7 });
const naming = finding({ severity: 'low', title: 'Naming: hash_pw is vague', agents: ['architecture'], startLine: 6, endLine: 6 });
const info = finding({ severity: 'info', title: 'Consider type hints', agents: ['analyst'], startLine: 2, endLine: 2 });
const high = finding({ severity: 'high', title: 'Connection never closed', agents: ['analyst'], startLine: 3, endLine: 5 });

function run(log: Log) {
  const r = log.runs[0];
  assert.ok(r);
  return r;
}
function only<T>(list: readonly T[] | undefined, i = 0): T {
  const v = list?.[i];
  assert.ok(v !== undefined, `item ${i}`);
  return v;
}
const location = (r: Result) => only(r.locations).physicalLocation;

describe('SARIF output', () => {
  it('describes the tool and one rule per kind of finding, with the fields code scanning reads', () => {
    const log = toSarif(summary([sqli, high, md5, naming, info]), options());
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema ?? '', /sarif-2\.1\.0/);
    const driver = run(log).tool.driver;
    assert.equal(driver.name, 'Quorum');
    assert.equal(driver.version, '1.2.3');
    assert.equal(driver.informationUri, 'https://example.invalid/quorum');
    assert.deepEqual(driver.rules?.map((r) => r.id), [
      'quorum/security/CWE-89', 'quorum/analyst/connection-never-closed', 'quorum/security/CWE-327', 'quorum/architecture/naming-hash-pw-is-vague', 'quorum/analyst/consider-type-hints',
    ]);
    const rule = only(driver.rules);
    assert.match(rule.shortDescription?.text ?? '', /^CWE-89: SQL injection in find_user\.$/);
    assert.ok(rule.fullDescription?.text);
    assert.match(rule.help?.text ?? '', /Suggested replacement/);
    assert.match(rule.help?.markdown ?? '', /```\n {4}cur\.execute/);
    assert.equal(rule.helpUri, 'https://cwe.mitre.org/data/definitions/89.html');
    assert.deepEqual(rule.properties?.tags, ['quorum', 'security', 'external/cwe/cwe-89']);
    assert.equal(rule.properties?.['security-severity'], '9.5');
    assert.equal(only(driver.rules, 2).properties?.['security-severity'], '5.5');
    assert.equal(only(driver.rules, 1).properties?.['security-severity'], undefined, 'not a security finding');
    for (const r of driver.rules ?? []) assert.match(r.name ?? '', /^[A-Z][A-Za-z0-9]*$/, 'Pascal-case names');
  });

  it('maps severities to levels and places each result at its lines, relative to %SRCROOT%', () => {
    const log = toSarif(summary([sqli, high, md5, naming, info]), options());
    const results = run(log).results ?? [];
    assert.deepEqual(results.map((r) => r.level), ['error', 'error', 'warning', 'note', 'note']);
    const first = only(results);
    assert.equal(first.ruleId, 'quorum/security/CWE-89');
    assert.equal(first.ruleIndex, 0);
    assert.equal(first.message.text, 'SQL injection in find_user: Because.');
    assert.deepEqual(location(first)?.artifactLocation, { uri: 'src/db/users.py', uriBaseId: '%SRCROOT%' });
    assert.equal(location(first)?.region?.startLine, 4);
    assert.equal(location(first)?.region?.endLine, 4);
    assert.match(location(first)?.region?.snippet?.text ?? '', /cur\.execute\(f"SELECT/);
    assert.deepEqual(first.properties, { severity: 'critical', agents: ['security', 'analyst'], confidence: 0.9, cwe: 'CWE-89' });
    assert.match(first.partialFingerprints?.primaryLocationLineHash ?? '', /^[0-9a-f]{32}:1$/);
    assert.equal(run(log).invocations?.[0]?.executionSuccessful, true);
  });

  it('percent-encodes paths as URI references, and gives files outside the root a file: URI of their own', () => {
    const spaced = toSarif(summary([{ ...sqli, file: '/repo/my dir/a#b.py' }], { target: fileTarget('/repo/my dir/a#b.py', 7) }), options());
    assert.deepEqual(location(only(run(spaced).results))?.artifactLocation, { uri: 'my%20dir/a%23b.py', uriBaseId: '%SRCROOT%' });
    const outside = toSarif(summary([{ ...sqli, file: '/elsewhere/x.py' }], { target: fileTarget('/elsewhere/x.py', 7) }), options());
    assert.deepEqual(location(only(run(outside).results))?.artifactLocation, { uri: 'file:///elsewhere/x.py' });
  });

  it('keeps primaryLocationLineHash across runs and line shifts, and changes it when the flagged code changes', () => {
    const fp = (lines: readonly string[], f = sqli) => only(run(toSarif(summary([f]), options(lines))).results).partialFingerprints?.primaryLocationLineHash;
    const base = fp(FILE);
    assert.equal(fp(FILE), base, 'same run twice');
    const shifted = ['# a header', '# added later', '', ...FILE];
    assert.equal(fp(shifted, { ...sqli, startLine: 7, endLine: 7 }), base, 'three lines added above');
    assert.equal(fp(FILE.map((l, i) => (i === 3 ? `  ${l.trim()}   ` : l))), base, 'whitespace only');
    assert.notEqual(fp(FILE.map((l, i) => (i === 3 ? '    cur.execute("SELECT 1")' : l))), base, 'the flagged line changed');
    const twice = run(toSarif(summary([sqli, { ...sqli, id: 'other', startLine: 4 }]), options())).results ?? [];
    const [a, b] = twice.map((r) => r.partialFingerprints?.primaryLocationLineHash ?? '');
    assert.ok(a?.endsWith(':1') && b?.endsWith(':2') && a.slice(0, -2) === b.slice(0, -2), 'identical findings are numbered');
  });

  it('says when agents failed: executionSuccessful false with a notification per failed agent', () => {
    const s = summary([info], { agents: [agent('analyst'), agent('security', { status: 'error', error: { code: 'quota', message: 'insufficient_quota' } })] });
    const inv = only(run(toSarif(s, options())).invocations);
    assert.equal(inv.executionSuccessful, false);
    assert.equal(inv.toolExecutionNotifications?.length, 1);
    assert.match(only(inv.toolExecutionNotifications).message.text ?? '', /security \(security-model\) failed: quota - insufficient_quota/);
  });

  it('has stable rule ids: CWE when named, else a slug of the title, else a hash for titles without Latin letters', () => {
    assert.equal(ruleIdOf({ agents: ['security'], cwe: 'CWE-79', title: 'x' }), 'quorum/security/CWE-79');
    assert.equal(ruleIdOf({ agents: ['analyst'], title: 'Off-by-one in loop (i <= n)' }), 'quorum/analyst/off-by-one-in-loop-i-n');
    assert.match(ruleIdOf({ agents: ['analyst'], title: 'SQL 인젝션' }), /^quorum\/analyst\/sql$/);
    assert.match(ruleIdOf({ agents: ['analyst'], title: '널 포인터 역참조' }), /^quorum\/analyst\/finding-[0-9a-f]{10}$/);
    assert.equal(ruleIdOf({ agents: ['analyst'], title: '널 포인터 역참조' }), ruleIdOf({ agents: ['analyst'], title: '널 포인터 역참조' }));
    assert.equal(slug('Café: naïve ÜBER'), 'cafe-naive-uber');
  });
});
