import { strict as assert } from 'node:assert';
import { isPrivateHost, linkRefusal } from '../../../src/shared/linkPolicy';
import { safeExternalUrl } from '../../../src/vscode/panel/links';

describe('links from model output: what the host opens', () => {
  it('opens public http(s) links', () => {
    for (const ok of ['https://owasp.org/Top10/', 'http://example.com/a?b=c#d', 'https://[2606:4700::1111]/', 'https://8.8.8.8/', 'https://172.32.0.1/', 'https://192.169.1.1/', 'https://xn--bcher-kva.example/']) {
      assert.ok(safeExternalUrl(ok), ok);
    }
  });

  it('refuses credentials, other schemes and the user\'s own machine or network, however the address is written', () => {
    const refused: [string, string][] = [
      ['https://user:secret@example.com/', 'credentials'],
      ['https://user@example.com/', 'credentials'],
      ['javascript:alert(1)', 'not-http'],
      ['command:quorum.resetCost', 'not-http'],
      ['file:///etc/passwd', 'not-http'],
      ['http://127.0.0.1:8080/admin', 'private-host'],
      ['http://127.1/', 'private-host'],
      ['http://2130706433/', 'private-host'],
      ['http://0x7f.0.0.1/', 'private-host'],
      ['http://0177.0.0.1/', 'private-host'],
      ['http://localhost:3000/', 'private-host'],
      ['http://LOCALHOST./', 'private-host'],
      ['http://app.localhost/', 'private-host'],
      ['http://[::1]/', 'private-host'],
      ['http://[::]/', 'private-host'],
      ['http://[0:0:0:0:0:0:0:1]/', 'private-host'],
      ['http://[::ffff:127.0.0.1]/', 'private-host'],
      ['http://[::ffff:10.1.2.3]/', 'private-host'],
      ['http://[fc00::1]/', 'private-host'],
      ['http://[fd12:3456::1]/', 'private-host'],
      ['http://[fe80::1]/', 'private-host'],
      ['http://[febf::1]/', 'private-host'],
      ['http://10.0.0.1/', 'private-host'],
      ['http://172.16.0.1/', 'private-host'],
      ['http://172.31.255.255/', 'private-host'],
      ['http://192.168.1.1/', 'private-host'],
      ['http://169.254.169.254/latest/meta-data/', 'private-host'],
      ['http://0.0.0.0:8000/', 'private-host'],
      ['http://100.64.0.1/', 'private-host'],
    ];
    for (const [href, why] of refused) {
      assert.equal(safeExternalUrl(href), undefined, href);
      assert.equal(linkRefusal(new URL(href)), why, href);
    }
  });

  it('judges hostnames as the URL parser gives them', () => {
    assert.equal(isPrivateHost('[::ffff:7f00:1]'), true);
    assert.equal(isPrivateHost('[2001:db8::1]'), false);
    assert.equal(isPrivateHost('example.com'), false);
    assert.equal(isPrivateHost('10.example.com'), false);
    assert.equal(isPrivateHost('[not-an-address]'), true);
  });
});
