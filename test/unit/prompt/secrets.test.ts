import * as assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/core/prompt/secrets';
import { LOOK_ALIKES, SECRETS } from '../../fixtures/secrets/corpus';

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
});
