import { strict as assert } from 'node:assert';
import { checkApiKey, displayHost, isInsecureRemote, normalizeBaseUrl, secretKeyFor } from '../../../src/core/gateway/baseUrl';

describe('base URL helpers', () => {
  it('gives one secret key per gateway however the URL is spelled', () => {
    const k = secretKeyFor('https://api.holysheep.ai/v1');
    for (const spelling of ['https://API.HolySheep.ai/v1/', 'https://api.holysheep.ai:443/v1', ' https://api.holysheep.ai/v1// ', 'https://api.holysheep.ai/v1?x=1#y']) {
      assert.equal(secretKeyFor(spelling), k, spelling);
    }
    assert.equal(k, 'quorum.apiKey:https://api.holysheep.ai/v1');
    assert.notEqual(secretKeyFor('https://api.holysheep.ai/v2'), k);
    assert.notEqual(secretKeyFor('http://api.holysheep.ai/v1'), k);
    assert.equal(normalizeBaseUrl('http://127.0.0.1:8080/v1/'), 'http://127.0.0.1:8080/v1');
  });

  it('drops credentials embedded in the URL', () => {
    assert.equal(normalizeBaseUrl('https://user:pass@gw.example/v1'), 'https://gw.example/v1');
  });

  it('flags plain http only to other machines', () => {
    assert.equal(isInsecureRemote('http://gateway.example.com/v1'), true);
    assert.equal(isInsecureRemote('http://10.0.0.5:8000/v1'), true);
    for (const ok of ['https://gateway.example.com/v1', 'http://localhost:4000/v1', 'http://127.0.0.1:5000/v1', 'http://[::1]:8080/v1', 'http://app.localhost/v1', 'not a url']) {
      assert.equal(isInsecureRemote(ok), false, ok);
    }
  });

  it('shows the host, never credentials', () => {
    assert.equal(displayHost('https://u:p@gw.example:8443/v1'), 'gw.example:8443');
  });

  it('checks the shape of a typed key', () => {
    assert.equal(checkApiKey(''), 'empty');
    assert.equal(checkApiKey('   '), 'empty');
    assert.equal(checkApiKey('Bearer sk-1234567890'), 'bearer-prefix');
    assert.equal(checkApiKey('sk-12 34567890'), 'whitespace');
    assert.equal(checkApiKey('sk-1234567890é'), 'not-ascii');
    assert.equal(checkApiKey('short'), 'too-short');
    assert.equal(checkApiKey('x'.repeat(5000)), 'too-long');
    assert.equal(checkApiKey('  sk-holysheep-1234567890  '), undefined);
  });
});
