import { strict as assert } from 'node:assert';
import { isChangesKey } from '../../../src/vscode/changes/changesDecisions';
import { changesOfKey, changesTargetKey, linesKey, linesOfKey } from '../../../src/vscode/review/targetKeys';

describe('review targets\' panel keys, without VS Code', () => {
  describe('lines of a document', () => {
    it('names the document and its 1-based lines, and reads them back', () => {
      const key = linesKey({ uri: 'file:///w/src/a.ts', startLine: 4, endLine: 19 });
      assert.equal(key, 'file:///w/src/a.ts#L4-L19');
      assert.deepEqual(linesOfKey(key), { uri: 'file:///w/src/a.ts', startLine: 4, endLine: 19 });
    });

    it('reads back a URI that itself holds a # (the last #L…-L… is the lines)', () => {
      const uri = 'untitled:Untitled-1#frag';
      assert.deepEqual(linesOfKey(linesKey({ uri, startLine: 1, endLine: 2 })), { uri, startLine: 1, endLine: 2 });
    });

    it('reads no lines from a changes key, a key without lines, or one without a URI', () => {
      assert.equal(linesOfKey(changesTargetKey({ root: 'file:///w', request: { kind: 'staged' } })), undefined);
      assert.equal(linesOfKey('file:///w/a.ts'), undefined);
      assert.equal(linesOfKey('file:///w/a.ts#L4'), undefined);
      assert.equal(linesOfKey('#L1-L2'), undefined);
    });
  });

  describe('changes of a repository', () => {
    it('reads back each kind of request, and a changes key is told from a lines key', () => {
      for (const request of [{ kind: 'uncommitted' }, { kind: 'staged' }, { kind: 'last-commit' }, { kind: 'ref', ref: 'origin/main' }] as const) {
        const key = changesTargetKey({ root: 'file:///w/repo', request });
        assert.equal(isChangesKey(key), true);
        assert.deepEqual(changesOfKey(key), { root: 'file:///w/repo', request });
      }
      assert.equal(changesOfKey('file:///w/a.ts#L1-L9'), undefined);
    });

    it('names the picked files in one order, whatever order they were picked in, and reads them back', () => {
      const a = changesTargetKey({ root: 'file:///w', request: { kind: 'uncommitted' }, only: ['b.ts', 'dir/a b.ts'] });
      const b = changesTargetKey({ root: 'file:///w', request: { kind: 'uncommitted' }, only: ['dir/a b.ts', 'b.ts'] });
      assert.equal(a, b);
      assert.deepEqual(changesOfKey(a), { root: 'file:///w', request: { kind: 'uncommitted' }, only: ['b.ts', 'dir/a b.ts'] });
      assert.notEqual(a, changesTargetKey({ root: 'file:///w', request: { kind: 'uncommitted' } }));
    });

    it('names a long list of picked files by its hash: the key stays short, and names no target to read back', () => {
      const only = Array.from({ length: 200 }, (_, i) => `src/deeply/nested/folder/file${i}.ts`);
      const key = changesTargetKey({ root: 'file:///w', request: { kind: 'staged' }, only });
      assert.ok(key.length <= 2_000, `${key.length} characters`);
      assert.notEqual(key, changesTargetKey({ root: 'file:///w', request: { kind: 'staged' }, only: only.slice(1) }));
      assert.equal(changesOfKey(key), undefined);
    });

    it('reads no target from a key with an unknown kind, no root, or a ref request without its ref', () => {
      assert.equal(changesOfKey('quorum-changes:root=file%3A%2F%2F%2Fw&kind=stash'), undefined);
      assert.equal(changesOfKey('quorum-changes:kind=staged'), undefined);
      assert.equal(changesOfKey('quorum-changes:root=file%3A%2F%2F%2Fw&kind=ref'), undefined);
    });
  });
});
