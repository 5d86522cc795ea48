import * as assert from 'node:assert/strict';
import { SecretRedactor } from '../../../src/core/redaction/redactor';
import { LOOK_ALIKES, SECRETS } from '../../fixtures/secrets/corpus';

/** One snippet through a review's redactor: the text sent, what was redacted, the vault. */
async function redactSecrets(text: string, startLine = 1) {
  const secrets = new SecretRedactor();
  return { text: await secrets.redactSnippet(text, startLine), redactions: secrets.redactions, vault: secrets.vault };
}

describe('secret redaction', () => {
  for (const [i, s] of SECRETS.entries()) {
    it(`redacts ${s.kind} (#${i + 1})`, async () => {
      const text = `line one\n${s.line}\nline three`;
      const r = await redactSecrets(text, 10);
      assert.ok(!r.text.includes(s.secret), `the secret survived: ${r.text}`);
      assert.ok(r.text.includes(`[REDACTED:${s.kind}`), `no ${s.kind} placeholder in: ${r.text}`);
      assert.equal(r.text.split('\n').length, text.split('\n').length, 'the line count changed');
      assert.equal(r.redactions[0]?.line, 10 + r.text.split('\n').findIndex((l) => l.includes('[REDACTED')));
      assert.ok(r.redactions.every((x) => x.kind.length > 0 && !JSON.stringify(x).includes(s.secret)));
    });
  }

  for (const line of LOOK_ALIKES) {
    it(`leaves a look-alike alone: ${line.slice(0, 60)}`, async () => {
      const r = await redactSecrets(line);
      assert.equal(r.text, line);
      assert.deepEqual(r.redactions, []);
    });
  }

  it('leaves nothing in the performance timeline: secretlint marks every lint, and none is kept, review after review', async () => {
    const marks = () => performance.getEntriesByType('mark').length + performance.getEntriesByType('measure').length;
    const before = marks();
    const text = Array.from({ length: 20 }, (_, i) => `const value${i} = compute(${i});`).join('\n');
    for (let i = 0; i < 5; i++) await redactSecrets(`${text}\n// ${i}`);
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(marks(), before);
  });

  it('keeps the line count of a PEM block and the markers', async () => {
    const pem = SECRETS.find((s) => s.kind === 'private-key' && s.line.includes('\n'));
    assert.ok(pem);
    const text = `a\n${pem.line}\nb`;
    const r = await redactSecrets(text, 5);
    const lines = r.text.split('\n');
    assert.equal(lines.length, text.split('\n').length);
    assert.equal(lines[1], '-----BEGIN RSA PRIVATE KEY-----');
    assert.ok(lines.slice(2, -2).every((l) => l === '[REDACTED:private-key]'), r.text);
    assert.deepEqual(r.redactions.map((x) => [x.kind, x.line, x.endLine]), [['private-key', 7, 12]]);
  });

  it('numbers placeholders of one kind and restores each value from the vault', async () => {
    const a = SECRETS.filter((s) => s.kind === 'github-token');
    const text = a.map((s) => s.line).join('\n');
    const r = await redactSecrets(text);
    assert.ok(r.text.includes('[REDACTED:github-token]') && r.text.includes('[REDACTED:github-token#2]'), r.text);
    // A suggestion that moved the lines around and changed the code beside the placeholders.
    const lines = r.text.split('\n');
    const suggestion = `${lines[1]}\n// fixed\n${(lines[0] ?? '').replace("const gh", 'const github')}`;
    const restored = r.vault.restore(suggestion);
    assert.ok(restored.includes(a[0]?.secret ?? '?') && restored.includes(a[1]?.secret ?? '?'), restored);
    assert.ok(!restored.includes('[REDACTED'));
    assert.equal(JSON.stringify(r.vault), '{}');
  });

  it('restores a multi-line private key line by line', async () => {
    const pem = SECRETS.find((s) => s.kind === 'private-key' && s.line.includes('\n'));
    assert.ok(pem);
    const r = await redactSecrets(pem.line);
    assert.equal(r.vault.restore(r.text), pem.line);
  });

  it('redacts nothing but secrets in a realistic file and reports kinds and lines only', async () => {
    const text = [
      'import os',
      `AWS_KEY = "${SECRETS[0]?.secret}"`,
      'def connect():',
      `    return psycopg2.connect("postgresql://svc:${SECRETS.find((s) => s.kind === 'url-password')?.secret}@db:5432/x")`,
      LOOK_ALIKES[3],
    ].join('\n');
    const r = await redactSecrets(text, 1);
    assert.deepEqual(r.redactions.map((x) => `${x.kind}@${x.line}`), ['aws-access-key-id@2', 'url-password@4']);
    assert.ok(r.text.includes('postgresql://svc:[REDACTED:url-password]@db:5432/x'), r.text);
    assert.ok(r.text.endsWith(LOOK_ALIKES[3] ?? '?'));
  });

  it('a region: its lines, context and removed lines alike, one numbering and one vault across them', async () => {
    const [gh1, gh2, gh3] = SECRETS.filter((s) => s.kind === 'github-token').concat(SECRETS.filter((s) => s.kind === 'github-token'));
    assert.ok(gh1 && gh2 && gh3);
    const secrets = new SecretRedactor();
    const region = { file: 'a.ts', language: 'typescript', startLine: 20, endLine: 21, text: `x\n${gh1.line}`, changedLines: [{ start: 20, end: 20 }], removed: [{ after: 20, lines: ['old', gh2.line] }] };
    const out = await secrets.redactRegion(region, 'a.ts');
    assert.equal(out.text, `x\n${gh1.line.replace(gh1.secret, '[REDACTED:github-token]')}`);
    assert.deepEqual(out.removed, [{ after: 20, lines: ['old', gh2.line.replace(gh2.secret, '[REDACTED:github-token#2]')] }]);
    assert.deepEqual(secrets.redactions.map((r) => [r.file, r.kind, r.line, r.endLine]), [['a.ts', 'github-token', 21, 21], ['a.ts', 'github-token', 20, 20]]);
    assert.equal(secrets.vault.restore(out.removed?.[0]?.lines[1] ?? ''), gh2.line);
    // A context snippet of the same review continues the numbering.
    assert.equal(await secrets.redactSnippet(gh3.line, 5, 'b.ts'), gh3.line.replace(gh3.secret, '[REDACTED:github-token#3]'));
  });
});
