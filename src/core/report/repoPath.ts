/**
 * A report path as a SARIF URI reference: a path relative to the repository root stays relative (each segment
 * percent-encoded, slashes kept, resolved against `%SRCROOT%`); an absolute path (a file outside any repository
 * and the working directory) becomes a `file:` URI of its own.
 */
export function pathToUriReference(path: string): { uri: string; relative: boolean } {
  const encoded = path.split('/').map((segment) => encodeURIComponent(segment)).join('/');
  if (path.startsWith('/')) return { uri: `file://${encoded}`, relative: false };
  if (/^[A-Za-z]:\//.test(path)) return { uri: `file:///${encoded.replace('%3A', ':')}`, relative: false };
  return { uri: encoded, relative: true };
}
