import { verifierPersona } from '../../fixtures/gateway/verifier';
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { load } from 'js-yaml';
import type { Log } from 'sarif';
import * as z from 'zod';
import { startTestGateway, type Reply, type TestGateway } from '../../fixtures/gateway/server';
import { pullFilesFromGit, startFakeGithub } from '../../fixtures/github/server';
import { mrDiffsFromGit } from '../../fixtures/gitlab/diffs';
import { startFakeGitlab } from '../../fixtures/gitlab/server';
import { ensureBuilt, root } from './ensureBuilt';

/**
 * The command line as an npm package, and the CI examples in docs/ci run as written: `npm pack` holds the CLI
 * bundle, the tarball installs into an empty prefix with no registry and no cache, and the examples' own shell
 * steps (parsed out of the YAML files) review a pull request's changes (`--changes --base`) in a real git repository against
 * the loopback test gateway.
 */

const KEY = 'sk-ci-examples-key-7777777777';
const findings = (...list: object[]) => JSON.stringify({ findings: list });
// The pull request below changes line 3 of run.py and adds 'src dir/new file.js': findings name their file, as
// they do when one request carries several files.
const REPLIES: Record<string, Reply> = {
  'gpt-4.1': { text: findings({ file: 'run.py', severity: 'low', title: 'Name could be clearer', explanation: 'Rename.', startLine: 3, endLine: 3 }) },
  'claude-sonnet-4.5': { text: findings() },
  'gemini-2.5-flash': {
    text: findings(
      { file: 'run.py', severity: 'high', title: 'Command injection', explanation: 'Shell built from input.', startLine: 3, endLine: 3, cwe: 'CWE-78', confidence: 0.8 },
      { file: 'src dir/new file.js', severity: 'high', title: 'Command injection', explanation: 'Shell built from input.', startLine: 2, endLine: 2, cwe: 'CWE-78', confidence: 0.8 },
    ),
  },
  'deepseek-v3.2': { text: JSON.stringify({ rationale: 'ok', improvedCode: 'x = 1' }) },
};

const githubSchema = z.object({
  permissions: z.record(z.string(), z.string()).optional(),
  jobs: z.object({ quorum: z.object({ steps: z.array(z.looseObject({ id: z.string().optional(), run: z.string().optional(), env: z.record(z.string(), z.string()).optional(), uses: z.string().optional(), with: z.record(z.string(), z.unknown()).optional() })) }) }),
});
const gitlabSchema = z.object({
  'quorum-review': z.object({
    rules: z.array(z.object({ if: z.string() })),
    variables: z.record(z.string(), z.string()),
    cache: z.object({ key: z.string(), fallback_keys: z.array(z.string()), paths: z.array(z.string()), when: z.string() }),
    script: z.array(z.string()),
    artifacts: z.object({ when: z.string(), reports: z.object({ codequality: z.string() }), paths: z.array(z.string()) }),
  }),
});
const codeQualitySchema = z.array(z.object({ description: z.string(), check_name: z.string(), fingerprint: z.string(), severity: z.enum(['info', 'minor', 'major', 'critical', 'blocker']), location: z.object({ path: z.string(), lines: z.object({ begin: z.number() }) }) }));

/** A job's `variables:` as GitLab expands them (`$NAME` and `${NAME}` from the predefined variables). */
function expand(variables: Record<string, string>, ci: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, v.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, name: string) => ci[name] ?? '')]));
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop (the test gateway answers from this process). */
function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
function ok(r: Ran, what: string): string {
  assert.equal(r.status, 0, `${what}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('the CLI as an npm package, and the CI examples in docs/ci', function () {
  this.timeout(600_000);
  let tg: TestGateway;
  let tmp: string;
  let tarball: string;
  let prefix: string;
  let repo: string;
  const chat = () => tg.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

  before(async () => {
    ensureBuilt();
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    // The verifier (on by default) confirms every finding.
    const verifier = verifierPersona({ decide: () => 'confirmed' });
    tg.script((req) => verifier(req) ?? (req.model ? REPLIES[req.model] : undefined));
    tmp = mkdtempSync(join(tmpdir(), 'quorum-ci-examples-'));
    prefix = join(tmp, 'prefix');
    // A pull request: a base branch on "origin", a clone with a feature branch that changes three files.
    const git = async (cwd: string, ...args: string[]) => ok(await sh('git', ['-c', 'init.defaultBranch=main', '-c', 'user.name=CI', '-c', 'user.email=ci@example.invalid', ...args], cwd, { HOME: tmp }), `git ${args.join(' ')}`);
    const origin = join(tmp, 'origin');
    mkdirSync(origin);
    await git(origin, 'init', '-q');
    writeFileSync(join(origin, 'run.py'), 'import os\n\ndef run(cmd):\n    return cmd\n');
    writeFileSync(join(origin, 'untouched.py'), 'print("same")\n');
    writeFileSync(join(origin, 'package-lock.json'), '{}\n');
    await git(origin, 'add', '.');
    await git(origin, 'commit', '-qm', 'base');
    repo = join(tmp, 'work');
    await git(tmp, 'clone', '-q', origin, repo);
    await git(repo, 'checkout', '-qb', 'feature');
    writeFileSync(join(repo, 'run.py'), 'import os\ndef run(cmd):\n    return os.system("sh -c " + cmd)\n');
    mkdirSync(join(repo, 'src dir'));
    writeFileSync(join(repo, 'src dir', 'new file.js'), 'const a = 1;\nexec(process.argv[2]);\n');
    writeFileSync(join(repo, 'package-lock.json'), '{"lockfileVersion": 3}\n');
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-qm', 'feature');
  });
  after(async () => tg.close());

  it('npm pack holds dist/cli.js, the context threads\' script and the tokenizer\'s rank table with the README and licence, and nothing of the extension', async () => {
    const out = ok(await sh('npm', ['pack', '--json', '--pack-destination', tmp], root), 'npm pack');
    const packed = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) })).parse(JSON.parse(out))[0];
    assert.ok(packed);
    const treeSitter = ['tree-sitter.js', 'tree-sitter.wasm', ...['c-sharp', 'go', 'java', 'javascript', 'php', 'python', 'ruby', 'rust', 'tsx', 'typescript'].map((g) => `tree-sitter-${g}.wasm`)].map((f) => `dist/tree-sitter/${f}`);
    assert.deepEqual(packed.files.map((f) => f.path).sort(), ['LICENSE', 'README.md', 'dist/cl100k_base.json', 'dist/cli.js', 'dist/contextScan.js', ...treeSitter, 'package.json'].sort());
    tarball = join(tmp, packed.filename);
    const manifest = z.looseObject({ bin: z.object({ quorum: z.string() }), dependencies: z.record(z.string(), z.string()).optional(), files: z.unknown().optional() }).parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
    assert.ok(existsSync(join(root, '.vscodeignore')) && existsSync(join(root, '.npmignore')));
    assert.equal(manifest.files, undefined, 'vsce package refuses a "files" field beside .vscodeignore: .npmignore says what npm ships');
    assert.equal(manifest.bin.quorum, './dist/cli.js');
    assert.equal(manifest.dependencies, undefined, 'the CLI is one bundle: installing it needs no registry');
  });

  it('installs from the tarball into an empty prefix with no registry (the examples\' install step), then --version and a review work', async () => {
    assert.ok(tarball, 'packed');
    const steps = githubSchema.parse(load(readFileSync(join(root, 'docs', 'ci', 'github-actions.yml'), 'utf8'))).jobs.quorum.steps;
    const install = steps.find((s) => s.id === 'install');
    assert.ok(install?.run);
    const offline = { npm_config_prefix: prefix, npm_config_cache: join(tmp, 'empty-npm-cache'), npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/', QUORUM_PACKAGE: tarball };
    ok(await sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', install.run], tmp, offline), 'install');
    const bin = join(prefix, 'bin', 'quorum');
    assert.ok(existsSync(bin));
    assert.equal(ok(await sh(bin, ['--version'], tmp), 'quorum --version'), `quorum ${z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))).version}\n`);
    const review = await sh(bin, ['review', join(repo, 'run.py'), '--format', 'json', '--no-cache'], tmp, { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url });
    assert.equal(review.status, 0, review.stderr);
    // The four agents and the verifier.
    assert.equal(z.object({ agents: z.array(z.object({ status: z.string() })) }).parse(JSON.parse(review.stdout)).agents.filter((a) => a.status === 'ok').length, 5);
  });

  it('docs/ci/github-actions.yml reviews the pull request with --changes --base: annotations, SARIF, a job summary, and exit 1 on a high finding', async () => {
    const steps = githubSchema.parse(load(readFileSync(join(root, 'docs', 'ci', 'github-actions.yml'), 'utf8'))).jobs.quorum.steps;
    const review = steps.find((s) => s.id === 'review');
    assert.ok(review?.run && review.env);
    assert.equal(review.env.QUORUM_API_KEY, '${{ secrets.QUORUM_API_KEY }}', 'the key comes from the secret store');
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
    assert.equal(upload?.with?.sarif_file, 'quorum.sarif');
    const summary = join(tmp, 'github-step-summary.md');
    writeFileSync(summary, '');
    const before = chat();
    const r = await sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', review.run], repo, {
      PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, QUORUM_BASE_REF: 'origin/main',
      GITHUB_STEP_SUMMARY: summary, XDG_CACHE_HOME: join(tmp, 'cache'),
    });
    assert.equal(r.status, 1, `a high finding fails the check: ${r.stderr}`);
    assert.equal(chat() - before, 5, 'both files in one request per agent, and one to the verifier; the annotation run sends nothing (the same regions: carried over)');
    assert.match(r.stdout, /^::error file=run\.py,line=3,endLine=3,title=\[high\] Command injection::/m);
    assert.match(r.stdout, /^::error file=src dir\/new file\.js,line=2,endLine=2,title=\[high\] Command injection::/m);
    assert.match(r.stdout, /^::notice file=run\.py,line=3,endLine=3,title=\[low\] Name could be clearer::/m);
    // The changes of the pull request only: the lockfile skipped, the SARIF file written into the checkout not reviewed.
    assert.match(r.stdout, /^Quorum review of Changes against origin\/main: 2 files, 1 skipped$/m);
    assert.match(r.stdout, /^ {2}skipped package-lock\.json: lockfile$/m);
    assert.match(r.stdout, /^Quorum exit code 1$/m);
    const log = JSON.parse(readFileSync(join(repo, 'quorum.sarif'), 'utf8')) as Log;
    assert.equal(log.runs.length, 1);
    const run = log.runs[0];
    const results = run?.results ?? [];
    assert.deepEqual(results.map((x) => `${x.locations?.[0]?.physicalLocation?.artifactLocation?.uri}:${x.locations?.[0]?.physicalLocation?.region?.startLine}`).sort(), ['run.py:3', 'run.py:3', 'src%20dir/new%20file.js:2']);
    for (const x of results) assert.equal(run?.tool.driver.rules?.[x.ruleIndex ?? -1]?.id, x.ruleId, 'ruleIndex points at its rule');
    const md = readFileSync(summary, 'utf8');
    assert.match(md, /### Quorum review: Changes against origin\/main: 2 files/);
    assert.equal(md.match(/### Quorum review/g)?.length, 1, 'one section: the annotation run does not append another');
  });

  it('docs/ci/github-actions.yml caches the context index with the answers: a run on the next commit reads only the file that changed', async () => {
    const steps = githubSchema.parse(load(readFileSync(join(root, 'docs', 'ci', 'github-actions.yml'), 'utf8'))).jobs.quorum.steps;
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'));
    const review = steps.find((s) => s.id === 'review');
    assert.ok(review?.run && cache?.with);
    assert.equal(cache.with.path, '~/.cache/quorum', 'the folder the review keeps its answers and its index in (no XDG_CACHE_HOME on the runner)');
    // A runner's home: the cache step restores ~/.cache/quorum into it before each run.
    const home = join(tmp, 'runner-home');
    mkdirSync(home);
    const next = join(tmp, 'next-commit');
    const git = async (...args: string[]) => ok(await sh('git', ['-c', 'user.name=CI', '-c', 'user.email=ci@example.invalid', ...args], next, { HOME: home }), `git ${args.join(' ')}`);
    ok(await sh('git', ['clone', '-q', '--branch', 'feature', repo, next], tmp, { HOME: home }), 'clone');
    for (let i = 0; i < 12; i++) writeFileSync(join(next, `lib${i}.py`), `def helper${i}(x):\n    return x + ${i}\n`);
    await git('add', '.');
    await git('commit', '-qm', 'helpers');
    const runStep = () => sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', review.run ?? ''], next, {
      PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, HOME: home, QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, QUORUM_BASE_REF: 'origin/main', GITHUB_STEP_SUMMARY: join(tmp, 'next-summary.md'),
    });
    const indexLine = (stderr: string) => /context index: (\d+) files, (\d+) read/.exec(stderr)?.slice(1, 3).map(Number);
    const first = await runStep();
    assert.ok(first.status === 0 || first.status === 1, first.stderr);
    assert.deepEqual(indexLine(first.stderr), [15, 15], `a first run reads every file it may index: ${first.stderr}`);
    assert.ok(existsSync(join(home, '.cache', 'quorum', 'context')), 'the index is in the cached folder');
    // The next commit of the pull request changes one file.
    writeFileSync(join(next, 'lib3.py'), 'def helper3(x):\n    return helper4(x) * 3\n');
    await git('commit', '-qam', 'next');
    const second = await runStep();
    assert.ok(second.status === 0 || second.status === 1, second.stderr);
    assert.deepEqual(indexLine(second.stderr), [15, 1], `the run on the next commit reads the changed file only: ${second.stderr}`);
  });

  it('docs/ci/github-pull-request-review.yml posts the review on the pull request, then only what is new, from the restored cache', async () => {
    const workflow = githubSchema.parse(load(readFileSync(join(root, 'docs', 'ci', 'github-pull-request-review.yml'), 'utf8')));
    assert.deepEqual(workflow.permissions, { contents: 'read', 'pull-requests': 'write' });
    const steps = workflow.jobs.quorum.steps;
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    assert.equal(checkout?.with?.ref, '${{ github.event.pull_request.head.sha }}', 'comments are placed on the head commit\'s lines');
    assert.equal(checkout?.with?.['fetch-depth'], 0);
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'));
    const review = steps.find((s) => s.id === 'review');
    assert.ok(review?.run && review.env && cache?.with);
    assert.equal(cache.with.path, review.env.QUORUM_CACHE_DIR, 'the cache restores the folder the review uses');
    assert.equal(review.env.GITHUB_TOKEN, '${{ secrets.GITHUB_TOKEN }}');
    assert.equal(review.env.QUORUM_API_KEY, '${{ secrets.QUORUM_API_KEY }}');
    const head = ok(await sh('git', ['rev-parse', 'HEAD'], repo), 'rev-parse').trim();
    const token = 'ghs_ciExampleToken0123456789abcdef';
    const gh = await startFakeGithub({ token, owner: 'acme', repo: 'widgets', number: 12, headSha: head, files: pullFilesFromGit(repo, 'origin/main', 'HEAD') });
    const event = join(tmp, 'pull-request-event.json');
    writeFileSync(event, JSON.stringify({ action: 'opened', number: 12, pull_request: { number: 12, head: { sha: head } } }));
    const cacheDir = join(tmp, 'restored-cache');
    const runStep = () => sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', review.run ?? ''], repo, {
      PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, QUORUM_BASE_REF: 'origin/main', QUORUM_CACHE_DIR: cacheDir,
      GITHUB_TOKEN: token, GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: gh.url, GITHUB_EVENT_PATH: event,
    });
    try {
      const before = chat();
      const first = await runStep();
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /^## Quorum review of/m, 'the review is printed in Markdown');
      assert.ok(!first.stdout.includes(token) && !first.stderr.includes(token));
      assert.equal(gh.reviews.length, 1);
      assert.deepEqual(gh.reviewComments.map((c) => `${c.path}:${c.line}`).sort(), ['run.py:3', 'run.py:3', 'src dir/new file.js:2']);
      assert.equal(gh.issueComments.length, 1);
      assert.ok(chat() - before > 0);
      // The next run with the cache restored: no request to the gateway, nothing posted twice, the summary edited.
      const sent = chat();
      const calls = gh.calls.length;
      const second = await runStep();
      assert.equal(second.status, 0, second.stderr);
      assert.equal(chat() - sent, 0, 'every answer came from the restored cache');
      const again = gh.calls.slice(calls);
      assert.deepEqual(again.filter((c) => c.method !== 'GET').map((c) => c.method), ['PATCH']);
      assert.equal(gh.reviews.length, 1);
    } finally {
      await gh.close();
    }
  });

  it('stops with exit 2 and one line when the clone is too shallow for a merge base (the fetch depth the examples set)', async () => {
    const shallow = join(tmp, 'shallow');
    ok(await sh('git', ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${repo}`, shallow], tmp, { HOME: tmp }), 'shallow clone');
    ok(await sh('git', ['fetch', '-q', '--depth', '1', 'origin', '+refs/heads/main:refs/remotes/origin/main'], shallow, { HOME: tmp }), 'shallow fetch of the base');
    const before = chat();
    const r = await sh(join(prefix, 'bin', 'quorum'), ['review', '--changes', '--base', 'origin/main', '--format', 'sarif', '--output', join(tmp, 'shallow.sarif'), '--fail-on', 'high'], shallow, { QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, XDG_CACHE_HOME: join(tmp, 'cache') });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /no merge base\) with HEAD in this shallow clone: fetch the whole history/);
    assert.equal(chat() - before, 0);
  });

  it('docs/ci/gitlab-ci.yml posts the review on the merge request as a merge request job would, then only what is new, from the kept cache; a Code Quality report', async () => {
    const job = gitlabSchema.parse(load(readFileSync(join(root, 'docs', 'ci', 'gitlab-ci.yml'), 'utf8')))['quorum-review'];
    assert.match(job.rules[0]?.if ?? '', /^\$CI_PIPELINE_SOURCE == "merge_request_event" && \$CI_MERGE_REQUEST_SOURCE_PROJECT_ID == \$CI_PROJECT_ID$/, 'merge request pipelines, no forks');
    assert.equal(job.variables.GIT_DEPTH, '0');
    assert.equal(job.cache.key, 'quorum-mr-$CI_MERGE_REQUEST_IID');
    assert.deepEqual(job.cache.paths, ['.cache/quorum/']);
    assert.equal(job.artifacts.reports.codequality, 'gl-code-quality-report.json');
    assert.doesNotMatch(job.script.join('\n'), /CI_JOB_TOKEN|GITLAB_TOKEN=/, 'the token comes from a masked variable, never the job token');
    // A merge request pipeline's checkout: a fresh clone at the source branch's head.
    const checkout = join(tmp, 'gitlab-checkout');
    ok(await sh('git', ['clone', '-q', `file://${repo}`, checkout], tmp, { HOME: tmp }), 'clone');
    const rev = async (ref: string) => ok(await sh('git', ['rev-parse', ref], checkout), 'rev-parse').trim();
    const base = ok(await sh('git', ['merge-base', 'origin/main', 'HEAD'], checkout), 'merge-base').trim();
    const token = 'glpat-ciExampleToken0123456789';
    const jobToken = 'glcbt-ciExampleJobToken0123456789';
    const gl = await startFakeGitlab({ token, jobToken, refs: { base_sha: base, start_sha: await rev('origin/main'), head_sha: await rev('HEAD') }, diffs: mrDiffsFromGit(checkout, 'origin/main', 'HEAD') });
    const ci = {
      CI_PROJECT_DIR: checkout, CI_SERVER_URL: gl.url, CI_API_V4_URL: gl.apiUrl, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', CI_MERGE_REQUEST_PROJECT_ID: '42',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_DEFAULT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'merge_request_event', CI_JOB_TOKEN: jobToken,
    };
    const runJob = () => sh('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', job.script.join('\n')], checkout, {
      ...ci, ...expand(job.variables, ci), QUORUM_PACKAGE: tarball, HOME: tmp, PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, GITLAB_TOKEN: token,
      npm_config_prefix: prefix, npm_config_cache: join(tmp, 'empty-npm-cache'), npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/',
    });
    try {
      const before = chat();
      const first = await runJob();
      assert.equal(first.status, 0, first.stderr);
      assert.ok(chat() - before > 0);
      assert.ok(![token, jobToken].some((t) => first.stdout.includes(t) || first.stderr.includes(t)));
      assert.ok(gl.calls.every((c) => c.privateToken === token && c.jobToken === undefined));
      const threads = gl.discussions.filter((d) => !d.individual_note).map((d) => `${String(d.notes[0]?.position?.new_path)}:${String(d.notes[0]?.position?.new_line)}`);
      assert.deepEqual(threads.sort(), ['run.py:3', 'run.py:3', 'src dir/new file.js:2']);
      assert.equal(gl.discussions.filter((d) => d.individual_note).length, 1, 'one summary note');
      const report = codeQualitySchema.parse(JSON.parse(readFileSync(join(checkout, 'gl-code-quality-report.json'), 'utf8')));
      assert.deepEqual(report.map((i) => `${i.location.path}:${i.location.lines.begin}:${i.severity}`).sort(), ['run.py:3:critical', 'run.py:3:minor', 'src dir/new file.js:2:critical']);
      assert.match(first.stdout, /^Quorum review of Changes against [0-9a-f]{40}: 2 files, 1 skipped$/m, 'the cache and the report in the checkout are not reviewed');
      // The next pipeline, the cache kept: nothing sent to the gateway, nothing posted twice, the summary edited.
      const sent = chat();
      const calls = gl.calls.length;
      const second = await runJob();
      assert.equal(second.status, 0, second.stderr);
      assert.equal(chat() - sent, 0, 'every answer came from the kept cache');
      assert.deepEqual(gl.calls.slice(calls).filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path.replace(/\d+$/, 'N')}`), ['PUT /api/v4/projects/42/merge_requests/7/notes/N']);
      assert.deepEqual(codeQualitySchema.parse(JSON.parse(readFileSync(join(checkout, 'gl-code-quality-report.json'), 'utf8'))).map((i) => i.fingerprint), report.map((i) => i.fingerprint));
    } finally {
      await gl.close();
    }
  });
});
