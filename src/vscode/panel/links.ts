import { linkRefusal } from '../../shared/linkPolicy';

/**
 * Whether a link from model output may be opened: absolute http(s) URLs without credentials, not on the
 * user's machine or private network (`src/shared/linkPolicy.ts`). The caller opens it with
 * `vscode.env.openExternal`, which keeps VS Code's confirmation for untrusted domains.
 */
export function safeExternalUrl(href: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return linkRefusal(url) ? undefined : url;
}
