import { strict as assert } from 'node:assert';
import type { SkippedFile } from '../../../src/core/domain/target';
import {
  chooseRepository, groupOfState, isChangesKey, manyFilesQuestion, NAMED_SKIPPED, nothingToReview, pickedFilesReview,
} from '../../../src/vscode/changes/changesDecisions';

/** A repository as the Git extension gives it, as far as the picker looks: its root URI. */
function repo(root: string) {
  return { name: root, rootUri: { path: new URL(root).pathname, toString: () => root } };
}

const skipped = (n: number): SkippedFile[] => Array.from({ length: n }, (_, i) => ({ file: `gen/f${i}.min.js`, reason: 'minified' as const }));

describe('the changes commands\' decisions, without VS Code', () => {
  describe('files picked in the Source Control view', () => {
    it('tells the group of a Git resource state by resourceGroupType: index, working tree, untracked; merge and others are none', () => {
      assert.equal(groupOfState({ resourceGroupType: 1 }), 'index');
      assert.equal(groupOfState({ resourceGroupType: 2 }), 'working-tree');
      assert.equal(groupOfState({ resourceGroupType: 3 }), 'working-tree');
      assert.equal(groupOfState({ resourceGroupType: 0 }), undefined);
      assert.equal(groupOfState({ resourceUri: 'x' }), undefined);
    });

    it('reviews the staged changes of files all picked in Staged Changes', () => {
      const r = pickedFilesReview([{ group: 'index', path: 'a.ts' }, { group: 'index', path: 'b.ts' }]);
      assert.deepEqual(r, { request: { kind: 'staged' }, only: ['a.ts', 'b.ts'], mixed: false });
    });

    it('reviews the uncommitted changes of files picked in Changes', () => {
      const r = pickedFilesReview([{ group: 'working-tree', path: 'a.ts' }]);
      assert.deepEqual(r, { request: { kind: 'uncommitted' }, only: ['a.ts'], mixed: false });
    });

    it('reviews files picked in both groups as uncommitted changes, and says they were mixed', () => {
      const r = pickedFilesReview([{ group: 'index', path: 'a.ts' }, { group: 'working-tree', path: 'b.ts' }]);
      assert.equal(r.request.kind, 'uncommitted');
      assert.equal(r.mixed, true);
    });

    it('names each file once and leaves out files outside the repository', () => {
      const r = pickedFilesReview([{ group: 'working-tree', path: 'a.ts' }, { group: 'working-tree', path: 'a.ts' }, { group: 'working-tree', path: undefined }]);
      assert.deepEqual(r.only, ['a.ts']);
    });
  });

  describe('which repository', () => {
    const outer = repo('file:///work/app');
    const inner = repo('file:///work/app/vendor/lib');
    const other = repo('file:///work/other');

    it('takes the innermost repository holding the hint (nested repositories)', () => {
      const c = chooseRepository([outer, inner, other], { toString: () => 'file:///work/app/vendor/lib/src/x.ts' });
      assert.deepEqual(c, { kind: 'holding', repository: inner });
    });

    it('takes the repository whose root is the hint itself (the Source Control view\'s title)', () => {
      assert.deepEqual(chooseRepository([outer, other], { toString: () => 'file:///work/other' }), { kind: 'holding', repository: other });
    });

    it('does not take a repository whose root is only a prefix of the hint\'s folder name', () => {
      const c = chooseRepository([outer, other], { toString: () => 'file:///work/application/x.ts' });
      assert.equal(c.kind, 'ask');
    });

    it('takes the only repository open when the hint is outside it, or there is none', () => {
      assert.deepEqual(chooseRepository([outer]), { kind: 'only', repository: outer });
      assert.deepEqual(chooseRepository([outer], { toString: () => 'file:///elsewhere/x.ts' }), { kind: 'only', repository: outer });
    });

    it('says there is none when no repository is open', () => {
      assert.deepEqual(chooseRepository([], { toString: () => 'file:///work/app/x.ts' }), { kind: 'none' });
    });

    it('asks among several when the hint is in none of them', () => {
      assert.deepEqual(chooseRepository([outer, other]), { kind: 'ask', repositories: [outer, other] });
    });
  });

  describe('a review of many files asks first', () => {
    it('goes ahead without asking at the limit or below it, and never when the limit is 0', () => {
      assert.equal(manyFilesQuestion(20, [], 20), undefined);
      assert.equal(manyFilesQuestion(3, [], 20), undefined);
      assert.equal(manyFilesQuestion(500, skipped(3), 0), undefined);
    });

    it('asks above the limit, naming every skipped file when there are few', () => {
      const q = manyFilesQuestion(21, skipped(3), 20);
      assert.deepEqual(q, { named: skipped(3), more: 0 });
    });

    it(`names at most ${NAMED_SKIPPED} skipped files and counts the rest`, () => {
      const q = manyFilesQuestion(40, skipped(NAMED_SKIPPED + 5), 20);
      assert.equal(q?.named.length, NAMED_SKIPPED);
      assert.deepEqual(q?.named, skipped(NAMED_SKIPPED));
      assert.equal(q?.more, 5);
    });
  });

  describe('nothing to review', () => {
    const file = { change: { path: 'a.ts' } };

    it('is nothing to say when a file is left to review', () => {
      assert.equal(nothingToReview({ files: [file], skipped: skipped(2) }, { kind: 'uncommitted' }, true), undefined);
    });

    it('says there are no changes, or names the skipped files when every changed file was skipped', () => {
      assert.deepEqual(nothingToReview({ files: [], skipped: [] }, { kind: 'staged' }, false), { skipped: [], untrackedLeftOut: false });
      assert.deepEqual(nothingToReview({ files: [], skipped: skipped(2) }, { kind: 'staged' }, false)?.skipped, skipped(2));
    });

    it('adds that untracked files were left out only for the requests that include them, when git hides them', () => {
      const none = { files: [], skipped: [] };
      assert.equal(nothingToReview(none, { kind: 'uncommitted' }, true)?.untrackedLeftOut, true);
      assert.equal(nothingToReview(none, { kind: 'ref', ref: 'main' }, true)?.untrackedLeftOut, true);
      assert.equal(nothingToReview(none, { kind: 'staged' }, true)?.untrackedLeftOut, false);
      assert.equal(nothingToReview(none, { kind: 'last-commit' }, true)?.untrackedLeftOut, false);
      assert.equal(nothingToReview(none, { kind: 'uncommitted' }, false)?.untrackedLeftOut, false);
    });
  });

  it('tells a changes review\'s panel key from a lines review\'s', () => {
    assert.equal(isChangesKey('quorum-changes:root=file%3A%2F%2F%2Fw&kind=staged'), true);
    assert.equal(isChangesKey('file:///w/a.ts#L1-L9'), false);
  });
});
