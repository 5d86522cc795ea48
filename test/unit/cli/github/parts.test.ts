import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hunkRanges } from '../../../../src/core/changes/parse';
import { intersect, localHunks, placementOf } from '../../../../src/cli/post/diffLines';
import { patchHunks } from '../../../../src/cli/post/github/patches';
import { codeSpan, commentText, fence } from '../../../../src/shared/untrustedText';
import { findingFingerprints, findingMarker, summaryOf } from '../../../../src/core/report/pullRequestMarkers';
import { githubTarget } from '../../../../src/cli/post/github/target';
import { pullFilesFromGit } from '../../../fixtures/github/server';
import { numbered, TempRepo } from '../../changes/gitRepo';

describe('--post github: its parts', () => {
  it('untrusted text cannot open HTML, forge a marker, ping anyone, link, or start a block', () => {
    const hostile = '<!-- quorum:finding aaaaaaaaaaaaaaaaaaaa --> @octocat @org/team\n```\n# Heading\n> quote\n- item\n![x](https://evil.example/p.png) [a](javascript:alert(1)) <img src=x onerror=alert(1)>';
    const out = commentText(hostile, 10_000);
    assert.ok(!out.includes('<'), out);
    assert.deepEqual(findingFingerprints(out), [], 'no marker is read from it');
    assert.doesNotMatch(out, /@(octocat|org)/);
    assert.doesNotMatch(out, /^(```|#|>|- )/m);
    assert.doesNotMatch(out, /(?<!\\)\]\(|(?<!\\)!\\?\[|https:\/\//, 'brackets escaped, no bare URL');
    assert.equal(commentText('x'.repeat(50), 10), `${'x'.repeat(10)}…`);
    assert.equal(codeSpan('a`b\nc', 100), "`a'b c`");
  });

  it('a fence that the code inside cannot close', () => {
    assert.equal(fence('a = 1\n', 'suggestion'), '```suggestion\na = 1\n```');
    assert.equal(fence('x = """\n```\n"""', 'suggestion'), '````suggestion\nx = """\n```\n"""\n````');
  });

  it('markers: finding fingerprints read back at the start of a line only; the summary with its head', () => {
    const body = `${findingMarker(['0123456789abcdef01234567', 'fedcba9876543210fedcba98'])}\ntext\n- x <!-- quorum:finding 0000000000000000aaaa -->`;
    assert.deepEqual(findingFingerprints(body), [['0123456789abcdef01234567', 'fedcba9876543210fedcba98']]);
    assert.deepEqual(summaryOf(`<!-- quorum:summary sha=${'a'.repeat(40)} -->\n## Quorum`), { sha: 'a'.repeat(40) });
    assert.equal(summaryOf('hello <!-- quorum:summary -->'), undefined);
  });

  it('the target: token, repository, API and the pull request number from the event file or --pr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quorum-gh-target-'));
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 42 } }));
    const env = { GITHUB_TOKEN: 't0ken-long-enough-123', GITHUB_REPOSITORY: 'o/r', GITHUB_EVENT_PATH: event };
    assert.deepEqual(githubTarget(env, undefined), { token: 't0ken-long-enough-123', owner: 'o', repo: 'r', pr: 42, apiUrl: 'https://api.github.com' });
    assert.equal((githubTarget({ ...env, GITHUB_API_URL: 'http://127.0.0.1:9/api/v3/' }, 5) as { apiUrl: string; pr: number }).apiUrl, 'http://127.0.0.1:9/api/v3');
    assert.match((githubTarget({ ...env, GITHUB_REPOSITORY: 'nope' }, 1) as { problem: string }).problem, /owner\/name/);
    assert.match((githubTarget({ ...env, GITHUB_API_URL: 'ftp://x' }, 1) as { problem: string }).problem, /http/);
    writeFileSync(event, '{"pull_request": {"number": "42"}}');
    assert.match((githubTarget(env, undefined) as { problem: string }).problem, /not a pull request/);
  });

  it('commentable lines: the local base...head hunks are the hunks of GitHub\'s patches; a finding is placed within one hunk', async () => {
    const repo = new TempRepo();
    try {
      repo.write('a.py', numbered(50)).write('gone.py', 'x\n').write('old name.py', numbered(5)).commit('base');
      repo.git('checkout', '-q', '-b', 'feature');
      repo.write('a.py', numbered(50, (i) => (i === 5 || i === 40 ? `changed ${i}` : `line ${i}`))).remove('gone.py');
      repo.git('mv', 'old name.py', 'new name.py');
      repo.write('new name.py', numbered(5, (i) => (i === 2 ? 'two' : `line ${i}`))).commit('feature');
      const local = await localHunks(repo.dir, 'main', 'HEAD');
      assert.deepEqual(Object.fromEntries(local), { 'a.py': [{ start: 2, end: 8 }, { start: 37, end: 43 }], 'new name.py': [{ start: 1, end: 5 }] });
      const github = patchHunks(pullFilesFromGit(repo.dir, 'main', 'HEAD'));
      assert.deepEqual(Object.fromEntries(github), Object.fromEntries(local), 'the same hunks as GitHub lists them');
      const both = intersect(local, new Map([['a.py', [{ start: 37, end: 43 }]]]));
      assert.deepEqual(Object.fromEntries(both), { 'a.py': [{ start: 37, end: 43 }] }, 'a line only one side shows is not commentable');
      assert.deepEqual(placementOf({ file: 'a.py', startLine: 40, endLine: 41 }, local), { startLine: 40, line: 41, exact: true });
      assert.deepEqual(placementOf({ file: 'a.py', startLine: 6, endLine: 12 }, local), { startLine: 6, line: 8, exact: false });
      assert.equal(placementOf({ file: 'a.py', startLine: 20, endLine: 20 }, local), undefined);
      assert.equal(placementOf({ file: 'gone.py', startLine: 1, endLine: 1 }, local), undefined);
      assert.deepEqual(Object.fromEntries(hunkRanges('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -3,0 +4,2 @@\n+a\n+b\n')), { x: [{ start: 4, end: 5 }] });
    } finally {
      repo.dispose();
    }
  });
});
