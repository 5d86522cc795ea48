import { strict as assert } from 'node:assert';
import { REDACTED, Redactor, scrubKey as redact, scrubStrings } from '../../../src/core/redaction/redactor';
import { LOOK_ALIKES } from '../../fixtures/secrets/corpus';

/** Code that mentions credentials without holding one (issue 20): it stays exactly as it is, whatever scrubs it. */
const HEADER_TALK = ['// replaced with a masked value ("Authorization: *")', 'lines[i] = "Authorization: *"', 'headers: { Authorization: "Bearer <token>" }'];

describe('Redactor', () => {
  it('removes a known key wherever it appears, even without a recognisable shape', () => {
    const r = new Redactor();
    r.add('hs-0123456789abcdef');
    const out = r.redact('request failed: key=hs-0123456789abcdef; again hs-0123456789abcdef');
    assert.ok(!out.includes('hs-0123456789abcdef'));
    assert.equal(out.split(REDACTED).length - 1, 2);
  });

  it('removes bearer tokens, Authorization values and sk- keys it never saw, when they are tokens', () => {
    const r = new Redactor();
    const out = r.redact('Authorization: Bearer abc.def-123x then {"authorization":"Basic dXNlcjpwYXNzd29yZA=="} and sk-proj-ABCDEFGH12345678abcdEFGH');
    for (const secret of ['abc.def-123x', 'dXNlcjpwYXNzd29yZA==', 'ABCDEFGH12345678']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
  });

  it('never touches code that only mentions a header, a bearer or a key (the key scrub and the log redactor alike)', () => {
    const key = 'sk-proj-ABCDEFGH12345678wxyz';
    const r = new Redactor();
    r.add(key);
    for (const line of [...HEADER_TALK, ...LOOK_ALIKES]) {
      assert.equal(redact(line, key), line);
      assert.equal(r.redact(line), line);
    }
  });

  it('scrubs the strings inside a value and keeps its shape, so that any serialisation of it stays valid', () => {
    const key = 'hs-0123456789abcdef';
    const value = { a: [`"quoted" ${key}`, 3, null], b: { c: HEADER_TALK[0] }, d: true };
    const out = scrubStrings(value, (t) => redact(t, key));
    assert.deepEqual(out, { a: [`"quoted" ${REDACTED}`, 3, null], b: { c: HEADER_TALK[0] }, d: true });
    assert.deepEqual(JSON.parse(JSON.stringify(out)), out);
  });

  it('removes the longer of two overlapping keys whole', () => {
    const r = new Redactor();
    r.add('abcd1234');
    r.add('abcd1234XYZW');
    assert.equal(r.redact('k=abcd1234XYZW'), `k=${REDACTED}`);
  });

  it('redacts strings nested in data and leaves other values', () => {
    const r = new Redactor();
    r.add('secret-key-42');
    const out = r.redactValue({ a: ['x secret-key-42'], n: 3, b: { c: 'secret-key-42' } });
    assert.deepEqual(out, { a: [`x ${REDACTED}`], n: 3, b: { c: REDACTED } });
  });

  it('ignores very short strings that would mangle ordinary text', () => {
    const r = new Redactor();
    r.add('ab');
    r.add(undefined);
    assert.equal(r.redact('ab cab'), 'ab cab');
  });

  it('never touches ordinary text that shares a short run with the key (a folder named quorum-hostile-x)', () => {
    const key = 'sk-live-hostile-0123456789abcdef';
    const path = '/tmp/quorum-hostile-x/src/a.ts';
    assert.equal(redact(`{"file":"${path}"}`, key), `{"file":"${path}"}`);
    assert.equal(redact('a key-value store; bearer of bad news; sk-learn models', key), 'a key-value store; bearer of bad news; sk-learn models');
    // Eleven characters of the key are still ordinary text; twelve are the key showing through.
    assert.equal(redact('x 0123456789a y', key), 'x 0123456789a y');
    assert.equal(redact('x 0123456789ab y', key), `x ${REDACTED} y`);
  });

  it('removes the key cut at either end and its masked forms of 12 characters and more', () => {
    const key = 'sk-proj-ABCDEFGH12345678wxyz';
    for (const shown of ['proj-ABCDEFGH1234', 'GH12345678wxyz', 'sk-proj-ABCD****wxyz', 'sk-proj-AB…5678wxyz', 'sk-pr...78wxyz']) {
      const out = redact(`the gateway said: invalid key ${shown}.`, key);
      assert.equal(out, `the gateway said: invalid key ${REDACTED}.`, shown);
    }
    // A mask with too little of the key around it is not the key.
    assert.equal(redact('sk-****', key), 'sk-****');
  });
});
