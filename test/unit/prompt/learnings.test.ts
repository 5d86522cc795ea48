import { strict as assert } from 'node:assert';
import { guessApplyTo, learnedAction, learningsForWork, parseLearnings, proposeLearning, withLearning } from '../../../src/core/prompt/learnings';
import { withLearnings } from '../../../src/core/review/noise';
import type { Finding } from '../../../src/core/domain/finding';

const finding = (over: Partial<Finding> = {}): Finding => ({ id: 'f1', file: 'src/api/users.ts', agents: ['security'], severity: 'high', title: 'Missing input validation', explanation: 'x', startLine: 3, endLine: 3, confidence: 0.9, ...over });

describe('learnings: rules learned from dismissals (.quorum/learnings.md)', () => {
  it('a proposal from a dismissal: the reason as the rule, applyTo guessed from where it was dismissed, the finding\'s rule hidden', () => {
    const l = proposeLearning({ file: 'src/api/users.ts', title: 'Missing input validation', rule: 'missing-input-validation', reason: 'we validate at the boundary' });
    assert.deepEqual(l, { title: 'we validate at the boundary', applyTo: ['src/api/**/*.ts'], hides: 'missing-input-validation', body: 'Findings like "Missing input validation" were dismissed here: we validate at the boundary' });
    assert.deepEqual([guessApplyTo('gen/schema.py'), guessApplyTo('Makefile'), guessApplyTo('main.go')], ['gen/**/*.py', 'Makefile', '*.go']);
  });

  it('written and read back: each section a learning; the user\'s own text kept; a bad section reported by its title', () => {
    const first = withLearning(undefined, proposeLearning({ file: 'src/api/users.ts', title: 'Missing input validation', rule: 'missing-input-validation', reason: 'we validate at the boundary' }));
    const text = withLearning(`${first}\nNotes of ours.\n\n## Generated code\napplyTo: gen/**\nseverity: info\nhides: CWE-1\n\nThe gen/ folder is generated.\n\n## Broken\nsevere: yes\n\nbody\n`, { title: 'No scope', applyTo: [], body: 'Everywhere.' });
    const read = parseLearnings(text);
    assert.deepEqual(read.learnings.map((l) => [l.title, l.applyTo, l.hides, l.severity]), [
      ['we validate at the boundary', ['src/api/**/*.ts'], 'missing-input-validation', undefined],
      ['Generated code', ['gen/**'], 'CWE-1', 'info'],
      ['No scope', [], undefined, undefined],
    ]);
    assert.equal(read.learnings[1]?.body, 'The gen/ folder is generated.');
    assert.deepEqual(read.issues.map((i) => i.title), ['Broken']);
  });

  it('a learning hides the findings of its rule in its scope, caps a severity, and the finding says which', () => {
    const [hide] = parseLearnings('## Boundary\napplyTo: src/api/**\nhides: missing-input-validation\n\nWe validate at the boundary.\n').learnings;
    const [cap] = parseLearnings('## Generated\napplyTo: gen/**\nhides: CWE-20\nseverity: low\n\nGenerated.\n').learnings;
    assert.ok(hide && cap);
    assert.equal(learnedAction([hide], { file: 'src/api/users.ts', rule: 'missing-input-validation', severity: 'high' })?.hide, true);
    assert.equal(learnedAction([hide], { file: 'src/web/users.ts', rule: 'missing-input-validation', severity: 'high' }), undefined, 'outside its scope');
    assert.equal(learnedAction([hide], { file: 'src/api/users.ts', rule: 'sql-injection', severity: 'high' }), undefined, 'another rule');
    const marked = withLearnings([finding(), finding({ id: 'f2', file: 'gen/a.ts', cwe: 'CWE-20' }), finding({ id: 'f3', file: 'gen/b.ts', cwe: 'CWE-20', severity: 'info' })], [hide, cap]);
    assert.deepEqual(marked.map((f) => [f.id, f.severity, f.learning]), [['f1', 'high', 'Boundary'], ['f2', 'low', 'Generated'], ['f3', 'info', undefined]]);
  });

  it('a selection\'s findings: the learnings that apply to its file apply to them; none outside a repository', () => {
    const [l] = parseLearnings('## Boundary\napplyTo: src/api/**\nhides: x\n\nBody.\n').learnings;
    assert.ok(l);
    assert.deepEqual(learningsForWork([l], { relativeFile: 'src/api/a.ts' }).map((x) => x.applyTo), [[]]);
    assert.deepEqual(learningsForWork([l], { relativeFile: 'src/web/a.ts' }), []);
    assert.deepEqual(learningsForWork([l], {}), []);
    assert.deepEqual(learningsForWork([l], { changes: {} }).map((x) => x.applyTo), [['src/api/**']]);
  });
});
