import { strict as assert } from 'node:assert';
import { changesScope, inputProblem, reviewScopeInput } from '../../../src/vscode/review/reviewScopeInput';

/** The problem line an input gets, or undefined when it is valid. */
function problem(input: unknown): string | undefined {
  const parsed = reviewScopeInput.safeParse(input);
  return parsed.success ? undefined : inputProblem(parsed.error);
}

describe('what the chat and the agent-mode tool may ask to review, without VS Code', () => {
  it('accepts each scope, a path, a base ref and a minimum severity', () => {
    for (const input of [{ scope: 'selection' }, { scope: 'file', path: 'src/a.ts' }, { scope: 'uncommitted' }, { scope: 'staged', minSeverity: 'high' }, { scope: 'base', base: 'origin/main' }]) {
      assert.equal(problem(input), undefined, JSON.stringify(input));
    }
    assert.deepEqual(reviewScopeInput.parse({ scope: 'base', base: '  release/1.2  ' }), { scope: 'base', base: 'release/1.2' }, 'trimmed');
  });

  it('refuses a base ref that git would read as an option, or that holds revision syntax or spaces, naming the field', () => {
    for (const base of ['--upload-pack=evil', '-x', 'main~1', 'HEAD^', 'a b', 'a:b', 'refs/*']) {
      assert.match(problem({ scope: 'base', base }) ?? '', /^Invalid input: base: a branch, tag or commit name$/, base);
    }
  });

  it('refuses an unknown scope, an unknown field and a severity that does not exist', () => {
    assert.match(problem({ scope: 'everything' }) ?? '', /^Invalid input: scope: /);
    assert.match(problem({ scope: 'file', command: 'rm -rf /' }) ?? '', /^Invalid input: /);
    assert.match(problem({ scope: 'file', minSeverity: 'urgent' }) ?? '', /^Invalid input: minSeverity: /);
    assert.match(problem({ scope: 'file', path: ' ' }) ?? '', /^Invalid input: path: /);
  });

  it('says in one line when the input is not an object at all', () => {
    assert.match(problem('review everything') ?? '', /^Invalid input: /);
    assert.equal((problem(null) ?? '').includes('\n'), false);
  });

  it('reads the words after /changes: uncommitted by default, staged, or base and a ref; anything else names no scope', () => {
    assert.deepEqual(changesScope(''), { scope: 'uncommitted' });
    assert.deepEqual(changesScope('  uncommitted '), { scope: 'uncommitted' });
    assert.deepEqual(changesScope('staged'), { scope: 'staged' });
    assert.deepEqual(changesScope('base  main'), { scope: 'base', base: 'main' });
    assert.equal(changesScope('base'), undefined);
    assert.equal(changesScope('staged please'), undefined);
    assert.equal(changesScope('last commit'), undefined);
  });
});
