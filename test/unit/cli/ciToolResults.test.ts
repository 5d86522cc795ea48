import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { load } from 'js-yaml';
import * as z from 'zod';

/**
 * The shipped CI examples run the project's linter to SARIF first and hand the file to Quorum: the lint step
 * writes $QUORUM_TOOL_RESULTS with ESLint's SARIF formatter, and every `quorum review` of the review script gets
 * `--tool-results` with it when the linter wrote one (none when it failed). The scripts run as written, in bash,
 * with a `quorum` on PATH that records its arguments.
 */

const root = resolve(__dirname, '..', '..', '..');
const step = z.looseObject({ id: z.string().optional(), run: z.string().optional(), env: z.record(z.string(), z.string()).optional(), 'continue-on-error': z.boolean().optional() });
const github = z.object({ jobs: z.record(z.string(), z.object({ steps: z.array(step) })) });
const gitlab = z.record(z.string(), z.unknown()).transform((doc) => z.object({ variables: z.record(z.string(), z.string()), script: z.array(z.string()) }).parse(doc['quorum-review']));

/** Runs `script` in bash with a recording `quorum`; each call's arguments, one line per call. */
function calls(script: string, env: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-ci-tools-'));
  const log = join(dir, 'calls.log');
  // The scripts run in a checkout.
  mkdirSync(join(dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(dir, 'quorum'), `#!/usr/bin/env bash\necho "$*" >> "${log}"\n`);
  chmodSync(join(dir, 'quorum'), 0o755);
  writeFileSync(log, '');
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: dir, env: { PATH: `${dir}${delimiter}${process.env.PATH}`, QUORUM_API_KEY: 'k', QUORUM_BASE_REF: 'origin/main', QUORUM_CACHE_DIR: dir, ...env }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

function sarifFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'quorum-ci-lint-')), 'lint.sarif');
  writeFileSync(file, '{"version":"2.1.0","runs":[]}');
  return file;
}

describe('the CI examples run the linter to SARIF and hand it to quorum review', () => {
  for (const name of ['github-actions.yml', 'github-pull-request-review.yml']) {
    it(`docs/ci/${name}: a lint step writes $QUORUM_TOOL_RESULTS, every review gets --tool-results with it`, () => {
      const steps = Object.values(github.parse(load(readFileSync(join(root, 'docs', 'ci', name), 'utf8'))).jobs)[0]?.steps ?? [];
      const lint = steps.findIndex((s) => s.id === 'lint');
      const review = steps.findIndex((s) => s.id === 'review');
      assert.ok(lint >= 0 && lint < review, 'the linter runs before the review');
      assert.equal(steps[lint]?.['continue-on-error'], true, 'a failing linter never fails the job');
      assert.match(steps[lint]?.run ?? '', /eslint .*--format @microsoft\/eslint-formatter-sarif --output-file "\$QUORUM_TOOL_RESULTS"/);
      assert.equal(steps[lint]?.env?.QUORUM_TOOL_RESULTS, steps[review]?.env?.QUORUM_TOOL_RESULTS);
      const script = steps[review]?.run ?? '';
      const file = sarifFile();
      const withFile = calls(script, { QUORUM_TOOL_RESULTS: file });
      assert.ok(withFile.length > 0 && withFile.every((c) => c.startsWith('review ') && c.endsWith(`--tool-results ${file}`)), withFile.join('\n'));
      const without = calls(script, { QUORUM_TOOL_RESULTS: join(tmpdir(), 'no-such-lint.sarif') });
      assert.equal(without.length, withFile.length);
      assert.ok(without.every((c) => !c.includes('--tool-results')));
    });
  }

  it('docs/ci/gitlab-ci.yml: the linter writes $QUORUM_TOOL_RESULTS before the review, which gets --tool-results with it', () => {
    const job = gitlab.parse(load(readFileSync(join(root, 'docs', 'ci', 'gitlab-ci.yml'), 'utf8')));
    const lint = job.script.findIndex((s) => /eslint .*--format @microsoft\/eslint-formatter-sarif --output-file "\$QUORUM_TOOL_RESULTS"/.test(s));
    const review = job.script.findIndex((s) => s.includes('quorum review'));
    assert.ok(lint >= 0 && lint < review);
    assert.match(job.script[lint] ?? '', /\|\| true$/, 'a failing linter never fails the job');
    assert.ok(job.variables.QUORUM_TOOL_RESULTS);
    const file = sarifFile();
    const mr = { CI_MERGE_REQUEST_DIFF_BASE_SHA: 'b4se' };
    const withFile = calls(job.script[review] ?? '', { ...mr, QUORUM_TOOL_RESULTS: file });
    assert.ok(withFile.length > 0 && withFile.every((c) => c.includes(`--tool-results ${file}`)), withFile.join('\n'));
    assert.ok(calls(job.script[review] ?? '', mr).every((c) => !c.includes('--tool-results')));
  });
});
