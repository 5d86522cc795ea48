/**
 * Which links from model output may be opened. Pure string logic on a hostname as the WHATWG URL parser
 * gives it (`new URL(href).hostname`: IPv4 in dotted decimal whatever form it was written in, IPv6 in
 * brackets), so that the webview and the host share one rule without sharing a URL implementation.
 *
 * Links to the user's own machine or network (loopback, link-local, private ranges, `localhost`) are not
 * clickable: model output must not steer the user into local services (routers, dev servers, metadata
 * endpoints). They are shown as text.
 */

function ipv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const n = parts.map(Number);
  return n.every((x) => x <= 255) ? n : undefined;
}

function privateIpv4([a, b]: number[]): boolean {
  if (a === undefined || b === undefined) return false;
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

/** The 16-bit groups of an IPv6 address (`::` expanded, an embedded dotted IPv4 turned into two groups). */
function ipv6Groups(text: string): number[] | undefined {
  let t = text.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (dotted) {
    const v4 = ipv4(dotted[1] ?? '');
    if (!v4) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    t = t.slice(0, dotted.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/** True for hosts on the user's machine or private network: loopback, link-local, private ranges, localhost. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (host === '' || host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = ipv4(host);
  if (v4) return privateIpv4(v4);
  if (host.startsWith('[') || host.includes(':')) {
    const g = ipv6Groups(host.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
    if (!g) return true;
    const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = g;
    const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
    if (zeroUpTo(7) && (g7 === 0 || g7 === 1)) return true; // :: and ::1
    if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
    if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
    if ((g0 & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses: judge the IPv4 inside.
    if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) return privateIpv4([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
    return false;
  }
  return false;
}

export type LinkRefusal = 'not-http' | 'credentials' | 'private-host';

/** Why a parsed link may not be opened, or undefined when it may (after VS Code's own trust prompt). */
export function linkRefusal(url: { protocol: string; username: string; password: string; hostname: string }): LinkRefusal | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not-http';
  if (url.username !== '' || url.password !== '') return 'credentials';
  if (isPrivateHost(url.hostname)) return 'private-host';
  return undefined;
}
