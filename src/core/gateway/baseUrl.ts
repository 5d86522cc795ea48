/**
 * Base-URL helpers for per-gateway secrets and the plain-http warning.
 */

/** The SecretStorage key prefix; the full key is `quorum.apiKey:<normalized base URL>`. */
const SECRET_KEY_PREFIX = 'quorum.apiKey:';

/**
 * One spelling per gateway: lower-case scheme and host, no default port, no trailing slash, no query
 * or fragment, no credentials. Unparseable input is returned trimmed.
 */
export function normalizeBaseUrl(raw: string): string {
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed.replace(/\/+$/, '');
  }
  const port = url.port && !((url.protocol === 'https:' && url.port === '443') || (url.protocol === 'http:' && url.port === '80')) ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.hostname.toLowerCase()}${port}${path}`;
}

export function secretKeyFor(baseUrl: string): string {
  return SECRET_KEY_PREFIX + normalizeBaseUrl(baseUrl);
}

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** True for a base URL on this machine (`localhost`, `127.x.x.x`, `[::1]`): local servers need no key. */
export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    return isLoopbackHost(new URL(baseUrl.trim()).hostname);
  } catch {
    return false;
  }
}

/** True for `http://` to anything but this machine: the key would cross the network in clear text. */
export function isInsecureRemote(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl.trim());
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** The host name to show people (never the full URL with possible credentials). */
export function displayHost(baseUrl: string): string {
  try {
    const url = new URL(baseUrl.trim());
    return url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return baseUrl.trim();
  }
}

export type ApiKeyProblem = 'empty' | 'whitespace' | 'too-short' | 'too-long' | 'not-ascii' | 'bearer-prefix';

/** Checks the shape of an API key as typed (before anything is sent). */
export function checkApiKey(raw: string): ApiKeyProblem | undefined {
  const key = raw.trim();
  if (key.length === 0) return 'empty';
  if (/^bearer\s/i.test(key)) return 'bearer-prefix';
  if (/\s/.test(key)) return 'whitespace';
  if (!/^[\x21-\x7e]+$/.test(key)) return 'not-ascii';
  if (key.length < 8) return 'too-short';
  if (key.length > 4096) return 'too-long';
  return undefined;
}
