import * as vscode from 'vscode';

/**
 * Composition root: builds the long-lived objects, registers commands and providers, and pushes every
 * Disposable into `context.subscriptions`. No network I/O happens here.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Quorum', { log: true });
  context.subscriptions.push(log);
  log.info(`Quorum ${String(context.extension.packageJSON.version)} activated`);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
