/** Whether a link from model output may be opened: absolute http(s) URLs without credentials only. */
export function safeExternalUrl(href: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  return url;
}
