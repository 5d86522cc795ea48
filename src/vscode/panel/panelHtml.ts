import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { renderWebviewHtml } from '../../shared/webviewHtml';

/** Only the bundle and the static assets may be loaded into the panel. */
function panelResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, enableCommandUris: false, enableFindWidget: true, localResourceRoots: panelResourceRoots(extensionUri) };
}

/** The page's HTML with a fresh nonce for this load. */
export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  return renderWebviewHtml({
    cspSource: webview.cspSource,
    nonce: randomBytes(18).toString('base64'),
    scriptUri: uri('dist', 'webview.js'),
    styleUris: [uri('dist', 'codicons', 'codicon.css'), uri('media', 'panel.css')],
    lang: vscode.env.language || 'en',
    title,
  });
}
