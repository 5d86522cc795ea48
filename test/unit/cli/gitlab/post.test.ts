import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../../src/cli/run';
import { jsonOutputSchema } from '../../../../src/core/report/json';
import { dismissFinding } from '../../../../src/core/memory/dismissed';
import { startTestGateway, type TestGateway } from '../../../fixtures/gateway/server';
import { diffLinesOf, mrDiffsFromGit } from '../../../fixtures/gitlab/diffs';
import { BOT, PERSON, startFakeGitlab, type FakeGitlab, type RecordedCall, type StoredDiscussion } from '../../../fixtures/gitlab/server';
import { startLoopback } from '../../../fixtures/http/loopback';
import { numbered, type TempRepo } from '../../changes/gitRepo';
import { featureRepo, scriptRaised, type Raised } from '../postFixture';
import { readOutcomeFolder } from '../../../../src/core/outcomes/store';

/**
 * `quorum review --changes --base <diff base> --post gitlab` against the loopback test gateway and a loopback fake
 * GitLab (test/fixtures/gitlab), on a real git repository with several pushes: diff threads on added and
 * unchanged lines, line ranges, suggestions, the summary note, nothing posted twice (moved code included), gone
 * findings resolved once, dismissed findings, a person's quotes, a checkout elsewhere, refusals, rate limits and
 * the errors that stop before anything is sent.
 */

const KEY = 'sk-test-gitlab-post-0123456789';
const TOKEN = 'glpat-testGitlabToken0123456789abc';
const JOB_TOKEN = 'glcbt-64_jobTokenJobTokenJobToken0123';


interface Posted {
  body: string;
  position?: { base_sha: string; start_sha: string; head_sha: string; position_type: string; old_path: string; new_path: string; new_line: number; old_line?: number; line_range?: { start: { line_code: string; type: string; old_line?: number; new_line?: number }; end: { line_code: string; type: string } } };
}

const calls = (gl: FakeGitlab, method: string, suffix: string | RegExp, from = 0) => gl.calls.slice(from).filter((c) => c.method === method && (typeof suffix === 'string' ? c.path.endsWith(suffix) : suffix.test(c.path)));
const posted = (c: RecordedCall | undefined) => (c?.body ?? {}) as Posted;
const MR = '/api/v4/projects/42/merge_requests/7';

describe('quorum review --post gitlab (loopback gateway, fake GitLab, real git repository)', function () {
  this.timeout(120_000);
  let tg: TestGateway;
  let gl: FakeGitlab;
  let repo: TempRepo;
  let raised: Raised[];
  let cacheHome: string;

  const rev = (ref: string) => repo.git('rev-parse', ref).trim();
  const diffBase = () => repo.git('merge-base', 'main', 'HEAD').trim();
  const refs = () => ({ base_sha: diffBase(), start_sha: rev('main'), head_sha: rev('HEAD') });
  const env = (extra: Record<string, string> = {}) => ({
    LANG: 'en_US.UTF-8', QUORUM_API_KEY: KEY, QUORUM_BASE_URL: tg.url, XDG_CACHE_HOME: cacheHome,
    GITLAB_TOKEN: TOKEN, CI_JOB_TOKEN: JOB_TOKEN, CI_API_V4_URL: gl.apiUrl, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', ...extra,
  });
  async function quorum(argv: string[], e: Record<string, string> = env()): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli({ argv, cwd: repo.dir, env: e, version: '0.0.0', signal: new AbortController().signal, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
    for (const secret of [TOKEN, JOB_TOKEN, 'glpat-wrong']) assert.ok(!stdout.includes(secret) && !stderr.includes(secret), 'no token is ever printed');
    return { code, stdout, stderr };
  }
  const review = (...more: string[]) => quorum(['review', '--changes', '--base', diffBase(), '--post', 'gitlab', '--all-findings', '--format', 'json', ...more]);
  const pushed = () => gl.push(refs(), mrDiffsFromGit(repo.dir, 'main', 'HEAD'));
  /** GitLab's own line code for a line of the new side (the fixture's parser, not the poster's). */
  const codeOf = (path: string, newLine: number) => {
    const d = gl.mr.diffs.find((x) => x.new_path === path);
    const line = d ? diffLinesOf(d).find((l) => l.type !== 'old' && l.newPos === newLine) : undefined;
    assert.ok(line, `${path}:${newLine} is in the diff`);
    return line.lineCode;
  };
  const summaryNote = () => gl.discussions.find((d) => d.individual_note && d.notes[0]?.author.id === BOT.id);

  before(async () => {
    tg = await startTestGateway({ apiKey: KEY, ttftMs: 1, tokensPerSecond: 0 });
    scriptRaised(tg, () => raised);
  });
  after(() => tg.close());
  beforeEach(async () => {
    cacheHome = mkdtempSync(join(tmpdir(), 'quorum-gl-cache-'));
    repo = featureRepo();
    gl = await startFakeGitlab({ token: TOKEN, jobToken: JOB_TOKEN, refs: refs(), diffs: mrDiffsFromGit(repo.dir, 'main', 'HEAD') });
    raised = [
      { file: 'src/app.py', startLine: 10, endLine: 10, severity: 'high', title: 'Command injection', cwe: 'CWE-78', suggestion: 'subprocess.run(["sh", "-c", cmd], check=True)' },
      { file: 'src/new.js', startLine: 1, endLine: 2, severity: 'medium', title: 'Runs an argument', explanation: 'Ping @octocat, see #12 and !3 <!-- quorum:finding ffffffffffffffffffff --> ``` closing fence' },
      { file: 'src/app.py', startLine: 19, endLine: 19, severity: 'low', title: 'Outside the diff' },
      { file: 'src/app.py', startLine: 12, endLine: 13, severity: 'medium', title: 'Unchanged lines', suggestion: 'joined = 1' },
      { file: 'src/app.py', startLine: 6, endLine: 8, severity: 'low', title: 'Partly in the diff', suggestion: 'x = 1' },
    ];
  });
  afterEach(async () => {
    await gl.close();
    repo.dispose();
  });

  it('opens one thread per finding on the diff (added, unchanged, a line range), suggestions only where they cover exactly the lines, the rest in one summary note', async () => {
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.ok(jsonOutputSchema.safeParse(JSON.parse(run.stdout)).success, 'the review is printed in --format json');
    assert.ok(gl.calls.every((c) => c.privateToken === TOKEN && c.jobToken === undefined), 'every call carries GITLAB_TOKEN, never the job token');
    assert.equal(calls(gl, 'GET', '/api/v4/user').length, 1, 'the token\'s own user is read once');
    const threads = calls(gl, 'POST', `${MR}/discussions`).map(posted);
    const byTitle = (t: string) => threads.find((x) => x.body.includes(t));
    const head = rev('HEAD');
    for (const t of threads) assert.deepEqual([t.position?.base_sha, t.position?.start_sha, t.position?.head_sha, t.position?.position_type], [diffBase(), rev('main'), head, 'text'], 'the merge request\'s diff_refs');
    assert.equal(threads.length, 4);

    const added = byTitle('Command injection')?.position;
    assert.deepEqual([added?.new_path, added?.old_path, added?.new_line, added?.old_line, added?.line_range], ['src/app.py', 'src/app.py', 10, undefined, undefined], 'an added line: new_line only');
    assert.match(byTitle('Command injection')?.body ?? '', /\n```suggestion:-0\+0\nsubprocess\.run\(\["sh", "-c", cmd\], check=True\)\n```$/);

    const range = byTitle('Runs an argument')?.position;
    assert.equal(range?.new_line, 2);
    assert.deepEqual(range?.line_range, { start: { line_code: codeOf('src/new.js', 1), type: 'new', new_line: 1 }, end: { line_code: codeOf('src/new.js', 2), type: 'new', new_line: 2 } });
    assert.ok(codeOf('src/new.js', 1).endsWith('_0_1'), 'a new file\'s added lines have old position 0');

    const unchanged = byTitle('Unchanged lines');
    assert.deepEqual([unchanged?.position?.new_line, unchanged?.position?.old_line], [13, 13], 'an unchanged line: old_line and new_line');
    assert.deepEqual(unchanged?.position?.line_range?.start, { line_code: codeOf('src/app.py', 12), type: 'old', old_line: 12, new_line: 12 });
    assert.match(unchanged?.body ?? '', /\n```suggestion:-1\+0\njoined = 1\n```$/, 'the two commented lines replaced');

    const partly = byTitle('Partly in the diff');
    assert.deepEqual([partly?.position?.line_range?.start.line_code, partly?.position?.new_line], [codeOf('src/app.py', 7), 8], 'the part of its lines in the hunk');
    assert.doesNotMatch(partly?.body ?? '', /```suggestion/, 'the replacement covers more than the commented lines: no suggestion');
    assert.match(partly?.body ?? '', /Proposed code for lines 6–8:\n\n```\nx = 1\n```/);

    // Untrusted text: no HTML comment (no forged marker), no mention, no reference, no fence of its own.
    const hostile = (byTitle('Runs an argument')?.body ?? '').split('\n').slice(1).join('\n');
    assert.ok(!hostile.includes('<!--') && !/@octocat|#12|!3/.test(hostile) && !/^```/m.test(hostile), hostile);

    const notes = calls(gl, 'POST', `${MR}/notes`);
    assert.equal(notes.length, 1, 'one summary note');
    const summary = posted(notes[0]).body;
    assert.match(summary, new RegExp(`^<!-- quorum:summary sha=${head} -->\n## Quorum review`));
    assert.match(summary, /\*\*This run:\*\* 5 new \(4 inline\), 0 already posted, 0 resolved/);
    assert.match(summary, /#### Not on the diff's lines \(1\)\n\n<!-- quorum:finding [0-9a-f,]+ -->\n- \*\*🔵 Low\*\* · analyst — \*\*Outside the diff\*\* {2}\n {2}`src\/app\.py` line 19/);
    assert.match(run.stderr, /posted to GitLab project 42!7: 5 new finding\(s\) \(4 inline\), 0 already posted, 0 marked resolved; summary created/);
    assert.equal(calls(gl, 'PUT', /./).length, 0);
  });

  it('on later pushes posts nothing already there (moved code included), resolves a gone finding once with "Resolved in <sha>", and edits the one summary note', async () => {
    assert.equal((await review()).code, 0);
    const unchangedThread = gl.discussions.find((d) => d.notes[0]?.body.includes('Unchanged lines'));
    const summaryId = summaryNote()?.notes[0]?.id;
    assert.ok(unchangedThread && summaryId);
    // The push: three lines above everything (every finding moves down 3 lines), the unchanged-lines finding gone.
    repo.write('src/app.py', '# one\n# two\n# three\n' + numbered(40, (i) => (i === 10 ? 'os.system("sh -c " + cmd)' : `line ${i}`))).commit('move');
    pushed();
    raised = raised.filter((f) => f.title !== 'Unchanged lines').map((f) => (f.file === 'src/app.py' ? { ...f, startLine: f.startLine + 3, endLine: f.endLine + 3 } : f));
    const before = gl.calls.length;
    const second = await review();
    assert.equal(second.code, 0, second.stderr);
    assert.equal(calls(gl, 'POST', `${MR}/discussions`, before).length, 0, 'moved code: the same fingerprints, nothing new');
    assert.equal(calls(gl, 'POST', `${MR}/notes`, before).length, 0, 'no second summary');
    const replies = calls(gl, 'POST', /\/discussions\/[0-9a-f]+\/notes$/, before);
    assert.deepEqual(replies.map((c) => c.path), [`${MR}/discussions/${unchangedThread.id}/notes`]);
    assert.match(posted(replies[0]).body, new RegExp(`^<!-- quorum:resolved -->\nResolved in ${rev('HEAD').slice(0, 7)}$`));
    const resolves = calls(gl, 'PUT', /\/discussions\/[0-9a-f]+$/, before);
    assert.deepEqual(resolves.map((c) => [c.path, c.query.get('resolved')]), [[`${MR}/discussions/${unchangedThread.id}`, 'true'], [`${MR}/discussions/${unchangedThread.id}`, 'true']], 'resolved, and again with the reply in it');
    assert.ok(unchangedThread.notes.every((n) => n.resolved), 'GitLab shows the thread resolved');
    assert.deepEqual(calls(gl, 'PUT', /\/notes\/\d+$/, before).map((c) => c.path), [`${MR}/notes/${summaryId}`]);
    assert.match(summaryNote()?.notes[0]?.body ?? '', /\*\*Since the last run \([0-9a-f]{7}\):\*\* 0 new \(0 inline\), 4 already posted, 1 resolved/);
    assert.match(summaryNote()?.notes[0]?.body ?? '', /`src\/app\.py` line 22/, 'the finding outside the diff listed where it is now');

    // A new finding on the next push is the only thread posted; the same head again posts nothing.
    repo.write('src/extra.py', 'eval(input())\n').commit('extra');
    pushed();
    raised.push({ file: 'src/extra.py', startLine: 1, endLine: 1, severity: 'critical', title: 'Eval of input', cwe: 'CWE-95' });
    const third = gl.calls.length;
    assert.equal((await review()).code, 0);
    assert.deepEqual(calls(gl, 'POST', `${MR}/discussions`, third).map((c) => posted(c).position?.new_path), ['src/extra.py']);
    const fourth = gl.calls.length;
    assert.equal((await review()).code, 0);
    const last = gl.calls.slice(fourth);
    assert.equal(last.filter((c) => c.method === 'POST').length, 0, last.map((c) => `${c.method} ${c.path}`).join(', '));
    assert.deepEqual(last.filter((c) => c.method === 'PUT').map((c) => c.path), [`${MR}/notes/${summaryId}`], 'no second resolve: only the summary edited');
    assert.equal(gl.discussions.filter((d) => d.individual_note).length, 1);
  });

  it('what became of the findings (quorum stats\' store): a thread a person resolved while its finding is still raised is dismissed, one resolved by the push addressed', async () => {
    assert.equal((await review()).code, 0);
    const injection = gl.discussions.find((d) => d.notes[0]?.body.includes('Command injection'));
    assert.ok(injection);
    // A person resolves the thread in GitLab's UI (no change to the code).
    for (const n of injection.notes) n.resolved = true;
    repo.write('src/app.py', '# one\n' + numbered(40, (i) => (i === 10 ? 'os.system("sh -c " + cmd)' : `line ${i}`))).commit('move');
    pushed();
    raised = raised.filter((f) => f.title !== 'Unchanged lines').map((f) => (f.file === 'src/app.py' ? { ...f, startLine: f.startLine + 1, endLine: f.endLine + 1 } : f));
    assert.equal((await review()).code, 0);
    const records = readOutcomeFolder(join(cacheHome, 'quorum')).records;
    const byTitle = Object.fromEntries(records.map((r) => [r.title, [r.status, r.by]]));
    assert.deepEqual(byTitle['Command injection'], ['dismissed', 'thread-person']);
    assert.deepEqual(byTitle['Unchanged lines'], ['addressed', 'thread-push']);
    // The next run: nothing more is decided about them, and no finding is counted twice.
    assert.equal((await review()).code, 0);
    assert.equal(readOutcomeFolder(join(cacheHome, 'quorum')).records.length, records.length);
  });

  it('leaves a person\'s notes that quote Quorum alone: they neither silence a finding nor get edited or resolved', async () => {
    // A first run elsewhere gives the bodies a person might quote.
    assert.equal((await review()).code, 0);
    const quoted = gl.discussions.map((d) => d.notes[0]?.body ?? '');
    await gl.close();
    gl = await startFakeGitlab({ token: TOKEN, jobToken: JOB_TOKEN, refs: refs(), diffs: mrDiffsFromGit(repo.dir, 'main', 'HEAD') });
    // Exact copies, markers at the start of their lines: the worst a person can paste.
    const theirs: StoredDiscussion[] = quoted.map((body, i) => gl.personNote(body, i % 2 === 0));
    const before = theirs.map((d) => d.notes[0]?.body);
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.equal(calls(gl, 'POST', `${MR}/discussions`).length, 4, 'every thread posted: a quoted marker is not Quorum\'s');
    assert.equal(calls(gl, 'POST', `${MR}/notes`).length, 1, 'its own summary, the person\'s copy not edited');
    assert.equal(calls(gl, 'PUT', /./).length, 0);
    assert.deepEqual(theirs.map((d) => d.notes[0]?.body), before);
    assert.ok(theirs.every((d) => d.notes.length === 1 && d.notes.every((n) => n.author.id === PERSON.id && !n.resolved)));
  });

  it('never posts nor names a finding dismissed in .quorum/dismissed.json', async () => {
    const [injection] = raised;
    assert.ok(injection);
    await dismissFinding(repo.dir, { finding: { agents: ['analyst'], title: injection.title, cwe: 'CWE-78', startLine: 10, endLine: 10 }, text: readFileSync(join(repo.dir, 'src', 'app.py'), 'utf8'), firstLine: 1, file: 'src/app.py' });
    repo.commit('dismiss');
    pushed();
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.equal(calls(gl, 'POST', `${MR}/discussions`).length, 3);
    assert.doesNotMatch(JSON.stringify(gl.calls.map((c) => c.body)), /Command injection/);
    assert.match(summaryNote()?.notes[0]?.body ?? '', /Not posted: 1 dismissed/);
  });

  it('with a checkout that is not the merge request\'s head, opens no thread and lists every finding in the summary', async () => {
    gl.mr.refs = { ...gl.mr.refs, head_sha: 'a'.repeat(40) };
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /HEAD \([0-9a-f]{7}\) is not the merge request's head \(aaaaaaa\): findings go into the summary/);
    assert.equal(calls(gl, 'POST', `${MR}/discussions`).length, 0);
    assert.equal(calls(gl, 'GET', `${MR}/diffs`).length, 0, 'the diff is not even read');
    assert.match(summaryNote()?.notes[0]?.body ?? '', /#### Not on the diff's lines \(5\)/);
    assert.match(summaryNote()?.notes[0]?.body ?? '', /5 new \(0 inline\)/);
  });

  it('moves a thread GitLab refuses (400) into the summary and posts the rest; waits out a 429 with Retry-After', async () => {
    let limited = 0;
    gl.fail = (call) => {
      if (call.method === 'POST' && call.path.endsWith('/discussions') && (call.body as Posted).position?.new_path === 'src/new.js') return { status: 400, body: { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' } };
      if (call.method === 'POST' && call.path.endsWith('/notes') && limited++ === 0) return { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Retry later' } };
      return undefined;
    };
    const run = await review();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /GitLab refused the thread on src\/new\.js:2 \(400: 400 Bad request - Note \{:line_code=>\["can't be blank", "must be a valid line code"\]\}\); it is in the summary/);
    assert.match(run.stderr, /GitLab rate limit \(429\) on POST \/projects\/42\/merge_requests\/7\/notes: waiting 1s, then trying again/);
    assert.equal(gl.discussions.filter((d) => !d.individual_note).length, 3);
    assert.equal(calls(gl, 'POST', `${MR}/notes`).length, 2, 'the summary sent again after the wait');
    assert.equal(gl.discussions.filter((d) => d.individual_note).length, 1);
    assert.match(summaryNote()?.notes[0]?.body ?? '', /#### Not on the diff's lines \(2\)[^]*Runs an argument[^]*`src\/new\.js` lines 1–2/);
  });

  it('stops with exit 2 and one line, before anything reaches the gateway or GitLab: no token, only the job token, no merge request, no API', async () => {
    const sent = tg.requests.length;
    const argv = ['review', '--changes', '--base', diffBase(), '--post', 'gitlab'];
    const cases: [Record<string, string>, RegExp][] = [
      [{ GITLAB_TOKEN: '', CI_JOB_TOKEN: '' }, /^quorum: GITLAB_TOKEN is not set: --post gitlab needs a project or personal access token with the api scope\n$/],
      [{ GITLAB_TOKEN: '' }, /^quorum: GITLAB_TOKEN is not set, and CI_JOB_TOKEN cannot post merge request notes or threads .*GITLAB_TOKEN\n$/],
      [{ GITLAB_TOKEN: JOB_TOKEN }, /^quorum: GITLAB_TOKEN is the job token: CI_JOB_TOKEN cannot post/],
      [{ CI_MERGE_REQUEST_IID: '' }, /^quorum: no merge request: pass --mr IID or run in a merge request pipeline \(CI_MERGE_REQUEST_IID is not set\)\n$/],
      [{ CI_PROJECT_ID: '' }, /^quorum: CI_PROJECT_ID is not set/],
      [{ CI_API_V4_URL: '', CI_SERVER_URL: '' }, /^quorum: CI_API_V4_URL is not set \(nor CI_SERVER_URL\)/],
    ];
    for (const [extra, message] of cases) {
      const r = await quorum(argv, env(extra));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
    assert.match((await quorum([...argv, '--pr', '7'])).stderr, /--pr goes with --post github/);
    assert.equal(gl.calls.length, 0);
    assert.equal(tg.requests.length, sent, 'nothing was sent to the gateway');
    // A GitLab that does not answer: exit 3 naming the API, after trying again.
    const gone = await startLoopback(() => undefined);
    await gone.close();
    const down = await quorum([...argv, '--format', 'json'], env({ CI_API_V4_URL: `${gone.url}/api/v4` }));
    assert.equal(down.code, 3, down.stderr);
    assert.match(down.stderr, /quorum: could not post to GitLab \(http:\/\/127\.0\.0\.1:\d+\/api\/v4\): no answer to GET \/projects\/42\/merge_requests\/7 \(ECONNREFUSED\); check CI_API_V4_URL\n$/);
    assert.match(down.stderr, /GitLab did not answer GET \/projects\/42\/merge_requests\/7 \(ECONNREFUSED\): trying again in 1s/);
    // --mr wins over CI_MERGE_REQUEST_IID; CI_SERVER_URL gives the API when CI_API_V4_URL is not set.
    const withMr = await quorum([...argv, '--mr', '7', '--format', 'json'], env({ CI_MERGE_REQUEST_IID: '99', CI_API_V4_URL: '', CI_SERVER_URL: gl.url }));
    assert.equal(withMr.code, 0, withMr.stderr);
    assert.ok(gl.calls.every((c) => c.path === '/api/v4/user' || c.path.startsWith(MR)));
  });

  it('exits 3 naming the api scope on 401 and 403 (and the role when it cannot resolve), with the review still on stdout and no token printed', async () => {
    const wrong = await quorum(['review', '--changes', '--base', diffBase(), '--post', 'gitlab', '--format', 'json'], env({ GITLAB_TOKEN: 'glpat-wrongWrongWrong012345' }));
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /quorum: GitLab refused GITLAB_TOKEN \(401 on GET \/projects\/42\/merge_requests\/7\): the token is invalid, expired or revoked; --post gitlab needs a project or personal access token with the api scope\n$/);
    assert.ok(jsonOutputSchema.safeParse(JSON.parse(wrong.stdout)).success);
    gl.addToken('glpat-readApiOnly0123456789', { scopes: ['read_api'] });
    const readOnly = await quorum(['review', '--changes', '--base', diffBase(), '--post', 'gitlab', '--format', 'json'], env({ GITLAB_TOKEN: 'glpat-readApiOnly0123456789' }));
    assert.equal(readOnly.code, 3);
    assert.match(readOnly.stderr, /GitLab refused POST \/projects\/42\/merge_requests\/7\/discussions \(403 insufficient_scope\): GITLAB_TOKEN lacks the api scope/);
    assert.ok(!readOnly.stderr.includes('glpat-readApiOnly'));
    assert.equal(gl.discussions.length, 0);
    // A Reporter's token posts but cannot resolve: exit 3 naming the role, and nothing half done.
    assert.equal((await review()).code, 0);
    raised = raised.filter((f) => f.title !== 'Unchanged lines');
    repo.write('src/app.py', numbered(40, (i) => (i === 10 ? 'os.system("sh -c " + cmd)' : i === 12 ? 'fixed' : `line ${i}`))).commit('fix');
    pushed();
    gl.addToken('glpat-reporterRole0123456789', { role: 'reporter' });
    const before = gl.calls.length;
    const reporter = await quorum(['review', '--changes', '--base', diffBase(), '--post', 'gitlab', '--all-findings', '--format', 'json'], env({ GITLAB_TOKEN: 'glpat-reporterRole0123456789' }));
    assert.equal(reporter.code, 3);
    assert.match(reporter.stderr, /GitLab refused PUT \/projects\/42\/merge_requests\/7\/discussions\/[0-9a-f]+ \(403\): GITLAB_TOKEN needs the api scope and a role that may comment on and resolve merge request threads \(Developer\)/);
    assert.equal(calls(gl, 'POST', /\/discussions\/[0-9a-f]+\/notes$/, before).length, 0, 'no "Resolved" reply on a thread left open');
    const developer = gl.calls.length;
    assert.equal((await review()).code, 0);
    assert.equal(calls(gl, 'PUT', /\/discussions\/[0-9a-f]+$/, developer).length, 2, 'the Developer token resolves it next time');
    assert.equal(calls(gl, 'POST', /\/discussions\/[0-9a-f]+\/notes$/, developer).length, 1);
  });
});
