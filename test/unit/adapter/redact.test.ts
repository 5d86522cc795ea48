import { strict as assert } from 'node:assert';
import { REDACTED, Redactor } from '../../../src/vscode/util/redact';

describe('Redactor', () => {
  it('removes a known key wherever it appears, even without a recognisable shape', () => {
    const r = new Redactor();
    r.add('hs-0123456789abcdef');
    const out = r.redact('request failed: key=hs-0123456789abcdef; again hs-0123456789abcdef');
    assert.ok(!out.includes('hs-0123456789abcdef'));
    assert.equal(out.split(REDACTED).length - 1, 2);
  });

  it('masks bearer tokens, Authorization headers and sk- keys it never saw', () => {
    const r = new Redactor();
    const out = r.redact('Authorization: Bearer abc.def-123 then {"authorization":"xyz987"} and sk-proj-ABCDEFGH12345678 api_key=qwerty123');
    for (const secret of ['abc.def-123', 'xyz987', 'ABCDEFGH12345678', 'qwerty123']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
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
});
