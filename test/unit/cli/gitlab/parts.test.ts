import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { fileLines, lineCode, positionOf } from '../../../../src/cli/post/gitlab/positions';
import { gitlabTarget } from '../../../../src/cli/post/gitlab/target';
import { GitlabClient } from '../../../../src/cli/post/gitlab/client';
import * as z from 'zod';
import { sendJson, startLoopback } from '../../../fixtures/http/loopback';
import { diffLinesOf, mrDiffsFromGit } from '../../../fixtures/gitlab/diffs';
import { startFakeGitlab } from '../../../fixtures/gitlab/server';
import { numbered, TempRepo } from '../../changes/gitRepo';

const TOKEN = 'glpat-partsToken0123456789abcdef';
const JOB = 'glcbt-partsJobToken0123456789';

describe('--post gitlab: its parts, and the fake GitLab refusing what GitLab refuses', () => {
  let repo: TempRepo;
  before(() => {
    repo = new TempRepo();
    repo.write('a.py', numbered(30)).write('old name.py', numbered(5)).commit('base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('a.py', numbered(30, (i) => (i === 5 ? 'changed 5' : i === 20 ? 'changed 20\nadded 20b' : `line ${i}`)));
    repo.git('mv', 'old name.py', 'new name.py');
    repo.write('new name.py', numbered(5, (i) => (i === 2 ? 'two' : `line ${i}`))).commit('feature');
  });
  after(() => repo.dispose());
  const refs = () => ({ base_sha: repo.git('merge-base', 'main', 'HEAD').trim(), start_sha: repo.git('rev-parse', 'main').trim(), head_sha: repo.git('rev-parse', 'HEAD').trim() });

  it('line codes and positions: SHA-1 of the new path, old and new positions as GitLab\'s parser counts them', () => {
    const diffs = mrDiffsFromGit(repo.dir, 'main', 'HEAD');
    const a = diffs.find((d) => d.new_path === 'a.py');
    assert.ok(a);
    const ours = fileLines(a);
    assert.ok(ours);
    assert.deepEqual(ours.hunks, [{ start: 2, end: 8 }, { start: 17, end: 24 }]);
    // Every line the fixture's independent parser sees on the new side has the same line code.
    for (const l of diffLinesOf(a).filter((x) => x.type !== 'old')) {
      const mine = ours.lines.get(l.newPos);
      assert.ok(mine);
      assert.equal(lineCode('a.py', mine.oldPos, l.newPos), l.lineCode);
      assert.equal(mine.added, l.type === 'new');
    }
    assert.equal(lineCode('a.py', 21, 21), `${createHash('sha1').update('a.py').digest('hex')}_21_21`);
    // Added line 21 ("added 20b") comes after old line 20 was replaced: old position 21, like the line after it.
    const p = positionOf(refs(), ours, { startLine: 20, line: 21, exact: true });
    assert.deepEqual([p.new_line, p.old_line, p.line_range?.start.type, p.line_range?.end.type], [21, undefined, 'new', 'new']);
    const ctx = positionOf(refs(), ours, { startLine: 23, line: 23, exact: true });
    assert.deepEqual([ctx.new_line, ctx.old_line, ctx.line_range], [23, 22, undefined], 'an unchanged line below an added one: its old number');
    const renamed = fileLines(diffs.find((d) => d.new_path === 'new name.py') ?? a);
    assert.deepEqual([renamed?.oldPath, renamed?.newPath], ['old name.py', 'new name.py']);
  });

  it('the target: GitLab\'s predefined variables, --mr first, the job token refused by name', () => {
    const env = { GITLAB_TOKEN: TOKEN, CI_API_V4_URL: 'https://gitlab.example.com/api/v4/', CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7' };
    assert.deepEqual(gitlabTarget(env, undefined), { token: TOKEN, apiUrl: 'https://gitlab.example.com/api/v4', project: '42', mr: 7 });
    assert.equal((gitlabTarget({ ...env, CI_MERGE_REQUEST_PROJECT_ID: '9' }, 3) as { project: string; mr: number }).project, '9');
    assert.equal((gitlabTarget({ ...env, CI_PROJECT_ID: 'group/sub/project' }, 3) as { project: string }).project, 'group/sub/project');
    assert.match((gitlabTarget({ ...env, CI_PROJECT_ID: '../x' }, 3) as { problem: string }).problem, /numeric id nor a group\/project path/);
    assert.match((gitlabTarget({ ...env, CI_MERGE_REQUEST_IID: 'x' }, undefined) as { problem: string }).problem, /pass --mr IID/);
    assert.match((gitlabTarget({ ...env, CI_API_V4_URL: 'ftp://x' }, 1) as { problem: string }).problem, /http/);
    assert.match((gitlabTarget({ ...env, GITLAB_TOKEN: '', CI_JOB_TOKEN: JOB }, 1) as { problem: string }).problem, /CI_JOB_TOKEN cannot post/);
  });

  it('the fake refuses a position off the diff, with the wrong lines named, or on stale diff_refs; a job token; a read_api token writing', async () => {
    const diffs = mrDiffsFromGit(repo.dir, 'main', 'HEAD');
    const gl = await startFakeGitlab({ token: TOKEN, jobToken: JOB, refs: refs(), diffs });
    try {
      const post = (body: unknown, headers: Record<string, string> = { 'PRIVATE-TOKEN': TOKEN }) =>
        fetch(`${gl.apiUrl}/projects/42/merge_requests/7/discussions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const at = (over: object) => ({ body: 'x', position: { position_type: 'text', ...refs(), old_path: 'a.py', new_path: 'a.py', ...over } });
      assert.equal((await post(at({ new_line: 5 }))).status, 201, 'an added line, new_line only');
      assert.equal((await post(at({ new_line: 3, old_line: 3 }))).status, 201, 'an unchanged line, both');
      const refusedBodies: unknown[] = [];
      for (const wrong of [at({ new_line: 12 }), at({ new_line: 3 }), at({ new_line: 5, old_line: 5 }), at({ new_line: 5, head_sha: 'b'.repeat(40) })]) {
        const r = await post(wrong);
        assert.equal(r.status, 400);
        refusedBodies.push(await r.json());
      }
      assert.deepEqual(refusedBodies[0], { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' });
      const bad = await post(at({ new_line: 21, line_range: { start: { line_code: 'nope', type: 'new' }, end: { line_code: lineCode('a.py', 21, 21), type: 'new' } } }));
      assert.equal(bad.status, 400, 'a line range that names no line of the diff');
      assert.equal((await post(at({ new_line: 5 }), { 'JOB-TOKEN': JOB })).status, 401);
      assert.equal((await post(at({ new_line: 5 }), { 'PRIVATE-TOKEN': JOB })).status, 401);
      gl.addToken('glpat-read', { scopes: ['read_api'] });
      const readOnly = await post(at({ new_line: 5 }), { 'PRIVATE-TOKEN': 'glpat-read' });
      assert.equal(readOnly.status, 403);
      assert.equal(((await readOnly.json()) as { scope?: string }).scope, 'api');
      gl.push({ ...refs(), head_sha: 'c'.repeat(40) }, diffs);
      assert.equal((await post(at({ new_line: 5 }))).status, 400, 'the refs of before the push are stale');
      assert.equal(gl.discussions.length, 2);
    } finally {
      await gl.close();
    }
  });

  it('lists: every page, by x-next-page or by Link rel="next"', async () => {
    const gl = await startFakeGitlab({ token: TOKEN, refs: refs(), diffs: [] });
    const linkOnly = await startLoopback(({ url }, res, base) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      sendJson(res, 200, [{ page }], page < 3 ? { link: `<${base}${url.pathname}?page=${page + 1}&per_page=100>; rel="next"` } : {});
    });
    try {
      for (let i = 0; i < 130; i++) gl.personNote(`note ${i}`);
      const client = new GitlabClient({ token: TOKEN, apiUrl: gl.apiUrl, project: '42', mr: 7 }, '0', () => undefined);
      const all = await client.all(`${client.mrPath}/discussions`, z.looseObject({ id: z.string() }));
      assert.equal(all.length, 130);
      assert.deepEqual(gl.calls.map((c) => c.query.get('page')), ['1', '2']);
      const other = new GitlabClient({ token: TOKEN, apiUrl: linkOnly.url, project: '42', mr: 7 }, '0', () => undefined);
      assert.deepEqual(await other.all('/x', z.object({ page: z.number() })), [{ page: 1 }, { page: 2 }, { page: 3 }]);
    } finally {
      await gl.close();
      await linkOnly.close();
    }
  });
});
