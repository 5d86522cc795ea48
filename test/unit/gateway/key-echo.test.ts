import { strict as assert } from 'node:assert';
import { GatewayError } from '../../../src/core/gateway/types';
import { ask, drain, KEY, rig, type Rig } from './helpers';

/** Some gateways echo what they were sent in their error bodies; the key must still never leave the client. */
describe('gateway client: errors never carry the key', () => {
  let r: Rig;
  afterEach(async () => r?.close());

  it('a 401 whose body echoes the key (bare, not as a Bearer header) is reported without it', async () => {
    r = await rig();
    // A key without a recognisable prefix, so that only the client's knowledge of the key can scrub it.
    r.gw.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY.slice(3)}. Check it.` });
    const out = await drain(r.client.stream(ask('gpt-4.1')));
    assert.ok(out.error instanceof GatewayError);
    assert.equal(out.error.code, 'auth');
    const everything = JSON.stringify({ message: out.error.message, data: out.error.toJSON(), logs: r.logs });
    assert.ok(!everything.includes(KEY.slice(3)), `the key leaked: ${everything}`);
    assert.ok(!everything.includes(KEY.slice(-10)), 'no recognisable tail of the key either');
  });

  it('a /models error that echoes the key is reported without it', async () => {
    r = await rig();
    r.gw.script((q) => (q.path.endsWith('/models') ? { kind: 'error', status: 403, message: `key ${KEY.slice(3)} may not list models` } : undefined));
    const error = await r.client.listModels().then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof GatewayError);
    assert.ok(!JSON.stringify({ m: error.message, d: error.toJSON() }).includes(KEY.slice(3)));
  });
});
