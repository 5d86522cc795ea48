import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../../src/cli/run';
import { jsonOutputSchema } from '../../../../src/core/report/json';
import { dismissFinding } from '../../../../src/core/memory/dismissed';
import { startTestGateway, type TestGateway } from '../../../fixtures/gateway/server';
import { pullFilesFromGit, startFakeGithub, type FakeGithub, type RecordedCall, type ScriptedAnswer } from '../../../fixtures/github/server';
import { numbered, type TempRepo } from '../../changes/gitRepo';
import { featureRepo, scriptRaised, type Raised } from '../postFixture';

/**
 * `quorum review --changes --base main --post github` against the loopback test gateway and a loopback fake
 * GitHub, on a real git repository: the review and its comment positions, a second push (nothing repeated, a
 * resolved reply, the summary edited), dismissed findings, a 422, rate limits, a missing token, 401 and 403.
 */

const KEY = 'sk-test-github-post-0123456789';
const TOKEN = 'ghs_testGithubToken0123456789abcdefXYZ';


const postsTo = (gh: FakeGithub, method: string, suffix: string | RegExp) => gh.calls.filter((c) => c.method === method && (typeof suffix === 'string' ? c.path.endsWith(suffix) : suffix.test(c.path)));
const bodyOf = (c: RecordedCall | undefined) => (c?.body ?? {}) as { commit_id?: string; event?: string; body?: string; comments?: { path: string; line: number; side: string; start_line?: number; start_side?: string; body: string }[] };

describe('quorum review --post github (loopback gateway, fake GitHub, real git repository)', function () {
  this.timeout(120_000);
  let tg: TestGateway;
  let gh: FakeGithub;
  let repo: TempRepo;
  let raised: Raised[];
  let eventPath: string;
  let cacheHome: string;

  const head = () => repo.git('rev-parse', 'HEAD').trim();
  const env = (extra: Record<string, string> = {}) => ({
    LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, XDG_CACHE_HOME: cacheHome,
    GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: gh.url, GITHUB_EVENT_PATH: eventPath, ...extra,
  });
  async function quorum(argv: string[], e: Record<string, string> = env()): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({ argv, cwd: repo.dir, env: e, version: '0.0.0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
    assert.ok(!stdout.includes(TOKEN) && !stderr.includes(TOKEN), 'the token is never printed');
    return { code, stdout, stderr };
  }
  const review = (...more: string[]) => quorum(['review', '--changes', '--base', 'main', '--post', 'github', '--all-findings', '--format', 'json', ...more]);
  /** The pull request's state after a push: its head and its files as GitHub lists them. */
  const pushed = () => {
    gh.pull.headSha = head();
    gh.pull.files = pullFilesFromGit(repo.dir, 'main', 'HEAD');
  };

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    scriptRaised(tg, () => raised);
  });
  after(() => tg.close());
  beforeEach(async () => {
    cacheHome = mkdtempSync(join(tmpdir(), 'quorum-gh-cache-'));
    repo = featureRepo();
    eventPath = join(repo.dir, '..', `event-${Date.now()}-${Math.random()}.json`);
    writeFileSync(eventPath, JSON.stringify({ action: 'synchronize', pull_request: { number: 7, head: { sha: head() } } }));
    gh = await startFakeGithub({ token: TOKEN, headSha: head(), files: pullFilesFromGit(repo.dir, 'main', 'HEAD') });
    raised = [
      { file: 'src/app.py', startLine: 10, endLine: 10, severity: 'high', title: 'Command injection', cwe: 'CWE-78', suggestion: 'subprocess.run(["sh", "-c", cmd], check=True)' },
      { file: 'src/new.js', startLine: 1, endLine: 2, severity: 'medium', title: 'Runs an argument', explanation: 'Ping @octocat <!-- quorum:finding ffffffffffffffffffff --> ``` closing fence' },
      { file: 'src/app.py', startLine: 19, endLine: 19, severity: 'low', title: 'Outside the diff' },
    ];
  });
  afterEach(async () => {
    await gh.close();
    repo.dispose();
  });

  it('posts one review: inline comments on the diff\'s lines (range, suggestion), the rest in its body, a summary comment; the review still on stdout', async () => {
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.ok(jsonOutputSchema.safeParse(JSON.parse(run.stdout)).success, 'the review is printed in --format json');
    assert.ok(gh.calls.every((c) => c.authorization === `token ${TOKEN}`), 'every call carries the token');
    const posts = postsTo(gh, 'POST', '/pulls/7/reviews');
    assert.equal(posts.length, 1);
    const r = bodyOf(posts[0]);
    assert.equal(r.commit_id, head());
    assert.equal(r.event, 'COMMENT');
    assert.deepEqual(r.comments?.map((c) => [c.path, c.start_line, c.start_side, c.line, c.side]), [
      ['src/app.py', undefined, undefined, 10, 'RIGHT'],
      ['src/new.js', 1, 'RIGHT', 2, 'RIGHT'],
    ]);
    const [injection, argument] = r.comments ?? [];
    assert.match(injection?.body ?? '', /^<!-- quorum:finding [0-9a-f,]+ -->\n/);
    assert.match(injection?.body ?? '', /\*\*🟠 High\*\* · analyst · CWE-78 — \*\*Command injection\*\*/);
    assert.match(injection?.body ?? '', /\n```suggestion\nsubprocess\.run\(\["sh", "-c", cmd\], check=True\)\n```$/);
    // Untrusted text: no HTML comment (no forged marker), no mention, no fence of its own.
    const text = (argument?.body ?? '').split('\n').slice(1).join('\n');
    assert.ok(!text.includes('<!--') && !/@octocat/.test(text) && !/^```/m.test(text), text);
    assert.equal((argument?.body.match(/<!-- quorum:finding/g) ?? []).length, 1);
    assert.match(r.body ?? '', /3 new findings: 2 on the changed lines, 1 outside the diff/);
    assert.match(r.body ?? '', /<!-- quorum:finding [0-9a-f,]+ -->\n- \*\*🔵 Low\*\* · analyst — \*\*Outside the diff\*\* {2}\n {2}`src\/app\.py` line 19/);
    const summaries = postsTo(gh, 'POST', '/issues/7/comments');
    assert.equal(summaries.length, 1);
    const summary = bodyOf(summaries[0]).body ?? '';
    assert.match(summary, new RegExp(`^<!-- quorum:summary sha=${head()} -->\n## Quorum review`));
    assert.match(summary, /🟠 High 1 · 🟡 Medium 1 · 🔵 Low 1/);
    assert.match(summary, /\*\*This run:\*\* 3 new \(2 inline\), 0 already posted, 0 resolved/);
    assert.match(summary, /\*\*Cost:\*\* \$/);
    assert.match(run.stderr, /posted to acme\/widgets#7: 3 new finding\(s\) \(2 inline\)/);
    assert.equal(postsTo(gh, 'PATCH', /./).length, 0);
  });

  it('on the next push posts only what is new, replies "Resolved in <sha>" once to what is gone, and edits the summary', async () => {
    assert.equal((await review()).code, 0);
    const first = gh.reviewComments.find((c) => c.path === 'src/app.py');
    assert.ok(first);
    // The push: line 10 fixed, a new problem on line 30.
    repo.write('src/app.py', numbered(40, (i) => (i === 10 ? 'subprocess.run(["sh", "-c", cmd], check=True)' : i === 30 ? 'eval(data)' : `line ${i}`))).commit('fix');
    pushed();
    raised = [raised[1] as Raised, raised[2] as Raised, { file: 'src/app.py', startLine: 30, endLine: 30, severity: 'critical', title: 'Eval of input', cwe: 'CWE-95' }];
    const before = gh.calls.length;
    const second = await review();
    assert.equal(second.code, 0, second.stderr);
    const calls = gh.calls.slice(before);
    const posts = calls.filter((c) => c.method === 'POST' && c.path.endsWith('/pulls/7/reviews'));
    assert.equal(posts.length, 1);
    assert.deepEqual(bodyOf(posts[0]).comments?.map((c) => [c.path, c.line]), [['src/app.py', 30]], 'only the new finding');
    assert.match(bodyOf(posts[0]).body ?? '', /1 new finding: 1 on the changed lines, 0 outside the diff/);
    const replies = calls.filter((c) => c.method === 'POST' && c.path.endsWith('/replies'));
    assert.deepEqual(replies.map((c) => c.path), [`/repos/acme/widgets/pulls/7/comments/${first.id}/replies`]);
    assert.match(bodyOf(replies[0]).body ?? '', new RegExp(`Resolved in ${head().slice(0, 7)}$`));
    assert.equal(calls.filter((c) => c.method === 'POST' && c.path.endsWith('/issues/7/comments')).length, 0, 'no second summary');
    const patches = calls.filter((c) => c.method === 'PATCH');
    assert.equal(patches.length, 1);
    assert.equal(patches[0]?.path, `/repos/acme/widgets/issues/comments/${gh.issueComments[0]?.id}`);
    assert.match(gh.issueComments[0]?.body ?? '', /\*\*Since the last run \([0-9a-f]{7}\):\*\* 1 new \(1 inline\), 2 already posted, 1 resolved/);

    // The same head again: nothing new, no second "resolved" reply, the summary edited once more.
    const again = gh.calls.length;
    assert.equal((await review()).code, 0);
    const third = gh.calls.slice(again);
    assert.equal(third.filter((c) => c.method === 'POST').length, 0, third.map((c) => `${c.method} ${c.path}`).join(', '));
    assert.equal(third.filter((c) => c.method === 'PATCH').length, 1);
    assert.equal(gh.issueComments.length, 1);
  });

  it('never posts a finding dismissed in .quorum/dismissed.json', async () => {
    const [injection] = raised;
    assert.ok(injection);
    await dismissFinding(repo.dir, { finding: { agents: ['analyst'], title: injection.title, cwe: 'CWE-78', startLine: 10, endLine: 10 }, text: readFileSync(join(repo.dir, 'src', 'app.py'), 'utf8'), firstLine: 1, file: 'src/app.py' });
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'dismiss');
    pushed();
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    const comments = bodyOf(postsTo(gh, 'POST', '/pulls/7/reviews')[0]).comments ?? [];
    assert.deepEqual(comments.map((c) => c.path), ['src/new.js']);
    assert.doesNotMatch(JSON.stringify(gh.calls.map((c) => c.body)), /Command injection/);
    assert.match(gh.issueComments[0]?.body ?? '', /Not posted: 1 dismissed/);
  });

  it('moves a comment GitHub refuses (422) into the review body and posts the rest', async () => {
    gh.refuse.add('src/new.js:2');
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /GitHub refused a comment on src\/new\.js:2 \(422\); it is in the review body/);
    assert.equal(gh.reviews.length, 1, 'one review');
    assert.deepEqual(gh.reviewComments.map((c) => [c.path, c.line]), [['src/app.py', 10]]);
    assert.match(gh.reviews[0]?.body ?? '', /Runs an argument\*\* {2}\n {2}`src\/new\.js` lines 1–2/);
    // Known next time: the moved finding is not posted again.
    const before = gh.calls.length;
    assert.equal((await review()).code, 0);
    assert.equal(gh.calls.slice(before).filter((c) => c.method === 'POST').length, 0);
  });

  it('with a checkout that is not the pull request\'s head, every finding goes into the body; without GitHub\'s file list, the local diff decides', async () => {
    gh.pull.headSha = 'a'.repeat(40);
    const elsewhere = await review();
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.match(elsewhere.stderr, /is not the pull request's head \(aaaaaaa\): findings go into the review body/);
    assert.deepEqual(bodyOf(postsTo(gh, 'POST', '/pulls/7/reviews')[0]).comments, []);
    assert.match(gh.reviews[0]?.body ?? '', /3 new findings: 0 on the changed lines, 3 outside the diff/);
    await gh.close();
    gh = await startFakeGithub({ token: TOKEN, headSha: head(), files: pullFilesFromGit(repo.dir, 'main', 'HEAD') });
    gh.fail = (call) => (call.path.endsWith('/pulls/7/files') ? { status: 404, body: { message: 'Not Found' } } : undefined);
    const unlisted = await review();
    assert.equal(unlisted.code, 0, unlisted.stderr);
    assert.match(unlisted.stderr, /checked against the local diff only/);
    assert.deepEqual(gh.reviewComments.map((c) => `${c.path}:${c.line}`), ['src/app.py:10', 'src/new.js:2']);
  });

  it('waits out a secondary rate limit (403 retry-after) and a 429 with x-ratelimit-reset, and retries', async () => {
    let limited = 0;
    gh.fail = (call): ScriptedAnswer | undefined => {
      if (call.method === 'GET' && call.path.endsWith('/pulls/7') && limited === 0) {
        limited++;
        return { status: 403, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' } };
      }
      if (call.method === 'POST' && call.path.endsWith('/reviews') && limited === 1) {
        limited++;
        return { status: 429, headers: { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 1) }, body: { message: 'Too many requests' } };
      }
      return undefined;
    };
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.equal(limited, 2);
    assert.equal(postsTo(gh, 'GET', '/pulls/7').length, 2);
    assert.equal(postsTo(gh, 'POST', '/pulls/7/reviews').length, 2);
    assert.equal(gh.reviews.length, 1);
    assert.match(run.stderr, /rate limit .*waiting \d+s, then trying again/);
  });

  it('stops with exit 2 and one line without a token or a pull request number, before any request', async () => {
    const sent = tg.requests.length;
    const noToken = await quorum(['review', '--changes', '--base', 'main', '--post', 'github'], { ...env(), GITHUB_TOKEN: '' });
    assert.equal(noToken.code, 2);
    assert.equal(noToken.stderr, 'quorum: GITHUB_TOKEN is not set: --post github needs a token with pull-requests: write\n');
    const noNumber = await quorum(['review', '--changes', '--base', 'main', '--post', 'github'], { ...env(), GITHUB_EVENT_PATH: '' });
    assert.equal(noNumber.code, 2);
    assert.match(noNumber.stderr, /^quorum: no pull request number: pass --pr N or run on a pull_request event \(GITHUB_EVENT_PATH is not set\)\n$/);
    writeFileSync(eventPath, JSON.stringify({ ref: 'refs/heads/main' }));
    const push = await quorum(['review', '--changes', '--base', 'main', '--post', 'github'], env());
    assert.equal(push.code, 2);
    assert.match(push.stderr, /not a pull request; pass --pr N/);
    assert.equal(gh.calls.length, 0);
    assert.equal(tg.requests.length, sent, 'nothing was sent to the gateway');
    const withPr = await quorum(['review', '--changes', '--base', 'main', '--post', 'github', '--pr', '7', '--format', 'json'], { ...env(), GITHUB_EVENT_PATH: '' });
    assert.equal(withPr.code, 0, withPr.stderr);
    assert.equal(gh.reviews.length, 1);
  });

  it('exits 3 naming what is missing on 401 and 403, with the review still on stdout and the token never printed', async () => {
    const bad = await review();
    assert.equal(bad.code, 0);
    gh.fail = (call) => (call.method === 'POST' && call.path.endsWith('/issues/7/comments') ? { status: 403, body: { message: 'Resource not accessible by integration' } } : undefined);
    gh.issueComments.length = 0;
    const forbidden = await review();
    assert.equal(forbidden.code, 3);
    assert.match(forbidden.stderr, /quorum: GitHub refused POST \/repos\/acme\/widgets\/issues\/7\/comments \(403\): the token lacks pull-requests: write/);
    assert.ok(jsonOutputSchema.safeParse(JSON.parse(forbidden.stdout)).success);
    gh.fail = undefined;
    const unauthorized = await quorum(['review', '--changes', '--base', 'main', '--post', 'github', '--format', 'json'], { ...env(), GITHUB_TOKEN: 'ghs_wrongTokenWrongToken0123456789' });
    assert.equal(unauthorized.code, 3);
    assert.match(unauthorized.stderr, /quorum: GitHub refused GITHUB_TOKEN \(401 on GET \/repos\/acme\/widgets\/pulls\/7\): the token is invalid or expired\n$/);
    assert.ok(!unauthorized.stderr.includes('ghs_wrongToken'));
    assert.ok(jsonOutputSchema.safeParse(JSON.parse(unauthorized.stdout)).success);
  });
});
