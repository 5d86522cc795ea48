import * as vscode from 'vscode';
import type { Redactor } from '../core/redaction/redactor';

/** The one log, as VS Code's own `LogOutputChannel` type, so every part of the extension can take it. */
export type QuorumLog = vscode.LogOutputChannel;

function text(message: string | Error, args: readonly unknown[]): string {
  const head = message instanceof Error ? `${message.name}: ${message.message}` : message;
  const rest = args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : typeof a === 'string' ? a : JSON.stringify(a)));
  return [head, ...rest].join(' ');
}

/**
 * The "Quorum" log channel, wrapped so that everything written passes through the redactor first: API keys
 * and bearer tokens never reach the log, whoever logs (the panel, the gateway, the controller).
 */
export function createQuorumLog(redactor: Redactor): QuorumLog {
  const channel = vscode.window.createOutputChannel('Quorum', { log: true });
  const clean = (message: string | Error, args: readonly unknown[]): string => redactor.redact(text(message, args));
  let disposed = false;
  return {
    get name() {
      return channel.name;
    },
    get logLevel() {
      return channel.logLevel;
    },
    onDidChangeLogLevel: channel.onDidChangeLogLevel,
    trace: (m: string, ...a: unknown[]) => !disposed && channel.trace(clean(m, a)),
    debug: (m: string, ...a: unknown[]) => !disposed && channel.debug(clean(m, a)),
    info: (m: string, ...a: unknown[]) => !disposed && channel.info(clean(m, a)),
    warn: (m: string, ...a: unknown[]) => !disposed && channel.warn(clean(m, a)),
    error: (m: string | Error, ...a: unknown[]) => !disposed && channel.error(clean(m, a)),
    append: (value: string) => !disposed && channel.append(redactor.redact(value)),
    appendLine: (value: string) => !disposed && channel.appendLine(redactor.redact(value)),
    replace: (value: string) => !disposed && channel.replace(redactor.redact(value)),
    clear: () => channel.clear(),
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the interface implemented still declares the column overload; the column is dropped
    show: (a?: vscode.ViewColumn | boolean, b?: boolean) => channel.show(typeof a === 'boolean' ? a : b),
    hide: () => channel.hide(),
    dispose: () => {
      if (disposed) return;
      disposed = true;
      channel.dispose();
    },
  } satisfies QuorumLog;
}
