const USAGE = `Usage: quorum review <file> [--lines START-END] [--format text|markdown|json]`;

function main(argv: readonly string[]): number {
  if (argv.includes('--help') || argv.includes('-h') || argv.length === 0) {
    process.stdout.write(USAGE + '\n');
    return argv.length === 0 ? 2 : 0;
  }
  process.stderr.write(`quorum: unknown command "${argv[0]}"\n${USAGE}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
