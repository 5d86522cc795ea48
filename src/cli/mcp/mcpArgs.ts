import { parseArgs, UsageError, type ReviewArgs } from '../args';

/** `quorum mcp [options]`: the gateway and cache flags of `quorum review`, parsed and checked by the same parser. */

export const MCP_USAGE = `Usage: quorum mcp [options]

Runs Quorum as a Model Context Protocol server over stdio (for Claude Code, VS Code agent mode, Cursor, Codex…).
Tools: review_changes, review_file, estimate. Nothing but protocol is written to stdout; logs go to stderr.

Options (as for quorum review):
  --base-url URL           the gateway (default: $QUORUM_BASE_URL, else https://api.holysheep.ai/v1)
  --model agent=model      use another model for an agent (repeatable)
  --language CODE          language of the review text (default: from LC_ALL / LANG)
  --no-rules               leave out the repository's rules and agents (.quorum/, AGENTS.md)
  --context on|off         send definitions, callers and enclosing signatures of the reviewed code (default on)
  --context-tokens <n>     tokens of context per request at most (default 3000)
  --no-cache               neither read nor write the disk cache
  --cache-dir DIR          the disk cache (default: $XDG_CACHE_HOME/quorum, else ~/.cache/quorum)
  --cache-ttl MINUTES      how long cached answers are served (default 10080 = 7 days; 0 = off)
  --max-concurrency N      requests in flight at once (default 4)
  --timeout SECONDS        longest one agent's request may take, retries included (default 180)

Environment: QUORUM_API_KEY (required to review; estimate works without it), QUORUM_BASE_URL, XDG_CACHE_HOME.`;

const MCP_FLAGS = new Set(['--context', '--context-tokens', '--base-url', '--model', '--language', '--no-rules', '--no-cache', '--cache-dir', '--cache-ttl', '--max-concurrency', '--timeout']);

/** The options after `quorum mcp`; a flag `quorum review` has but a server does not take is a usage error. */
export function parseMcpArgs(argv: readonly string[]): ReviewArgs {
  for (const arg of argv) {
    if (!arg.startsWith('-')) continue;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!MCP_FLAGS.has(name)) throw new UsageError(`unknown option "${name}" for quorum mcp`);
  }
  const parsed = parseArgs(['review', '--changes', ...argv]);
  if (parsed.command !== 'review') throw new UsageError('unexpected arguments for quorum mcp');
  return parsed;
}
