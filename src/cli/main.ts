import { version } from '../../package.json';
import { EXIT } from './exit';
import { keepYoungGenerationSmall } from './heap';
import { runCli } from './run';

/** The `quorum` command. Ctrl-C cancels the review and still prints what finished; a second Ctrl-C quits at once. */
async function main(): Promise<void> {
  keepYoungGenerationSmall(process.execArgv, process.env.NODE_OPTIONS);
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    process.stderr.write('\nquorum: cancelling (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  // `quorum … | head` closes stdout early: that is not a crash.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  let code: number;
  try {
    code = await runCli({ argv: process.argv.slice(2), env: process.env, stdout: process.stdout, stderr: process.stderr, signal: controller.signal, version });
  } catch (e) {
    process.stderr.write(`quorum: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    code = EXIT.agentFailed;
  }
  // Flush what was written before leaving: open keep-alive sockets must not keep the process alive.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
  process.exit(code);
}

void main();
