import type { RecordedRequest } from '../../fixtures/gateway/server';
import { runCli } from '../../../src/cli/run';

/** What the CLI tests share: a run of `quorum` in a folder with its output caught, and what a reviewer request sends. */

/** Runs `quorum <argv>` in `cwd` against the gateway at `url` with `key`: the exit code, stdout and stderr. */
export async function runQuorum(cwd: string, key: string, url: string, argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: [...argv], cwd, env: { LANG: 'en_US.UTF-8', QUORUM_API_KEY: key, QUORUM_BASE_URL: url }, version: '0.0.0', signal: new AbortController().signal,
    stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

export const messagesOf = (r: RecordedRequest) => (r.body?.messages ?? []) as { role: string; content: string }[];

/** Each file a reviewer request sends, with the line that builds the shell command (where the scripted reviewer reports). */
export function shellSections(r: RecordedRequest): { file: string; line: number }[] {
  const user = messagesOf(r).find((m) => m.role === 'user')?.content ?? '';
  return user.split(/^File: /m).slice(1).flatMap((part) => {
    const file = part.slice(0, part.indexOf('\n'));
    const line = /^[+ ]?\s*(\d+) \| .*sh -c/m.exec(part)?.[1];
    return line ? [{ file, line: Number(line) }] : [];
  });
}
