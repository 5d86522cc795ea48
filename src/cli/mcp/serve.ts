import { isLoopbackUrl } from '../../core/gateway/baseUrl';
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { commandArgs } from '../flags';
import { MCP_USAGE } from '../usage';
import { EXIT, type CliIo } from '../exit';
import { parseMcpArgs } from './mcpArgs';
import { createMcpServer } from './server';
import { openSession } from './session';

/**
 * `quorum mcp`: the server on this process's stdin and stdout. Stdout carries nothing but protocol: the
 * transport gets its own handle on it, and anything else that writes to `process.stdout` (a library's
 * console.log, a stray debug line) is sent to stderr instead.
 */
function guardStdout(onError: (e: Error) => void): Writable {
  const out = process.stdout;
  const write = out.write.bind(out) as (chunk: string | Uint8Array, callback: (error?: Error | null) => void) => boolean;
  const protocol = new Writable({ write: (chunk: Buffer, _enc, callback) => void write(chunk, callback) });
  // A client that went away (EPIPE) ends the session; it must not crash the process on an unhandled 'error'.
  protocol.on('error', onError);
  const toStderr = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const callback = rest.find((r): r is () => void => typeof r === 'function');
    return process.stderr.write(chunk, callback);
  }) as typeof out.write;
  out.write = toStderr;
  return protocol;
}

export async function runMcpCommand(io: CliIo, fail: (message: string) => number): Promise<number> {
  const log = (line: string) => void io.stderr.write(`quorum mcp: ${line.replace(/\s*\n\s*/g, ' ')}\n`);
  // A base URL that is not valid is a usage error too.
  const session = commandArgs(io, 'mcp', MCP_USAGE, (argv) => openSession(parseMcpArgs(argv), io.env, io.cwd ?? process.cwd(), log), fail);
  if (typeof session === 'number') return session;
  if (!session.key && !isLoopbackUrl(session.baseUrl)) log('QUORUM_API_KEY is not set: review_changes and review_file will refuse; estimate works');
  const server = createMcpServer(session, io.version);
  const transport = new StdioServerTransport(process.stdin, guardStdout((e) => {
    log(`stdout: ${e.message}; closing`);
    void server.close();
  }));
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  transport.onerror = (e) => log(`transport: ${e.message}`);
  await server.connect(transport);
  log(`ready (gateway ${new URL(session.baseUrl).host})`);
  // The client ends the session by closing our stdin (or by a signal).
  const close = () => void server.close();
  process.stdin.once('end', close);
  io.signal.addEventListener('abort', close, { once: true });
  try {
    await closed;
  } finally {
    session.gateway.dispose();
  }
  return EXIT.ok;
}
