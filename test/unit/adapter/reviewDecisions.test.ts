import { strict as assert } from 'node:assert';
import type { AgentResult } from '../../../src/core/domain/result';
import type { ReviewTarget } from '../../../src/core/domain/target';
import type { AgentErrorCode } from '../../../src/shared/reviewCodes';
import {
  asksBeforeWholeFile, budgetsPassed, cancelledByClose, linesNow, rerunRoute, tellsFailures, worstFailure,
} from '../../../src/vscode/review/reviewDecisions';
import { isChangesKey } from '../../../src/vscode/changes/changesDecisions';
import { agent } from '../report/fixtures';

const failedWith = (id: string, code: AgentErrorCode): AgentResult => agent(id, { status: 'error', error: { code, message: `${code} failed` } });

const lines = (file: string, startLine: number, endLine: number): ReviewTarget => ({
  kind: 'selection',
  label: `${file}:${startLine}-${endLine}`,
  regions: [{ file, language: 'typescript', text: 'x', startLine, endLine }],
});

describe('the review controller\'s decisions, without VS Code', () => {
  describe('the whole-file question', () => {
    it('asks above the limit only, and never with a limit of 0', () => {
      assert.equal(asksBeforeWholeFile(501, 500), true);
      assert.equal(asksBeforeWholeFile(500, 500), false);
      assert.equal(asksBeforeWholeFile(10_000, 0), false);
    });
  });

  describe('budgets', () => {
    const limits = { sessionUsd: 1, monthlyUsd: 10 };

    it('passes none while the ceiling keeps both under their limits (a spend exactly at the limit is within it)', () => {
      assert.deepEqual(budgetsPassed(limits, { sessionUsd: 0.5, monthlyUsd: 5 }, 0.5), []);
    });

    it('names the session budget, with the spend before and after and the limit', () => {
      assert.deepEqual(budgetsPassed(limits, { sessionUsd: 0.9, monthlyUsd: 0 }, 0.25), [{ budget: 'session', spentUsd: 0.9, afterUsd: 1.15, limitUsd: 1 }]);
    });

    it('names both, the session first, when the review passes both', () => {
      assert.deepEqual(budgetsPassed(limits, { sessionUsd: 0.9, monthlyUsd: 9.9 }, 0.5).map((p) => p.budget), ['session', 'monthly']);
    });

    it('treats a limit of 0 as no budget', () => {
      assert.deepEqual(budgetsPassed({ sessionUsd: 0, monthlyUsd: 0 }, { sessionUsd: 100, monthlyUsd: 1000 }, 50), []);
    });
  });

  describe('a closed panel', () => {
    it('cancels the running reviews of its target that are not cancelled already, and no other', () => {
      const running = [
        { id: 'a', targetKey: 'k1', cancelled: false },
        { id: 'b', targetKey: 'k1', cancelled: true },
        { id: 'c', targetKey: 'k2', cancelled: false },
      ];
      assert.deepEqual(cancelledByClose(running, 'k1').map((s) => s.id), ['a']);
      assert.deepEqual(cancelledByClose(running, 'k3'), []);
    });
  });

  describe('Re-run', () => {
    const changesKey = 'quorum-changes:root=file%3A%2F%2F%2Fw&kind=uncommitted';

    it('reads changes again for a session of changes, or for a key that names changes (a restored panel)', () => {
      const changes: ReviewTarget = { kind: 'changes', label: 'Uncommitted changes', regions: [] };
      assert.deepEqual(rerunRoute({ uri: 'u', fullTarget: changes }, 'any', isChangesKey), { kind: 'changes' });
      assert.deepEqual(rerunRoute(undefined, changesKey, isChangesKey), { kind: 'changes' });
    });

    it('reviews the last session\'s lines again (its one region)', () => {
      assert.deepEqual(rerunRoute({ uri: 'file:///w/a.ts', fullTarget: lines('a.ts', 4, 9) }, 'file:///w/a.ts#L4-L9', isChangesKey), { kind: 'lines', uri: 'file:///w/a.ts', startLine: 4, endLine: 9 });
    });

    it('falls back to the lines the key names when there is no session (a panel restored after a reload)', () => {
      assert.deepEqual(rerunRoute(undefined, 'file:///w/a.ts#L4-L9', isChangesKey), { kind: 'key' });
    });
  });

  describe('Review Again', () => {
    it('reviews the lines where the proposal is anchored now (0-based range to 1-based lines), else the session\'s own target', () => {
      assert.deepEqual(linesNow({ range: { start: 9, end: 14 } }), { startLine: 10, endLine: 15 });
      assert.equal(linesNow(undefined), undefined);
    });
  });

  describe('failures of a finished review', () => {
    it('are told for the latest review of a target only, and not when it was cancelled', () => {
      assert.equal(tellsFailures({ cancelled: false }, true), true);
      assert.equal(tellsFailures({ cancelled: true }, true), false);
      assert.equal(tellsFailures({ cancelled: false }, false), false);
    });

    it('tell nothing when every agent answered', () => {
      assert.equal(worstFailure({ agents: [agent('analyst'), agent('security')] }), undefined);
    });

    it('tell the most actionable failure first: a refused key before a timeout before a bad answer', () => {
      const w = worstFailure({ agents: [failedWith('analyst', 'bad-response'), failedWith('security', 'timeout'), failedWith('coding', 'auth'), agent('architecture')] });
      assert.equal(w?.agent.agent, 'coding');
      assert.equal(w?.error.code, 'auth');
      assert.equal(w?.failed, 3);
    });

    it('rank the pipeline\'s own codes after the gateway\'s', () => {
      const w = worstFailure({ agents: [failedWith('analyst', 'empty-answer'), failedWith('security', 'server')] });
      assert.equal(w?.error.code, 'server');
    });

    it('do not count an agent skipped because everything it builds on failed', () => {
      const w = worstFailure({ agents: [failedWith('security', 'quota'), failedWith('coding', 'inputs-failed')] });
      assert.equal(w?.agent.agent, 'security');
      assert.equal(w?.failed, 1);
      assert.equal(worstFailure({ agents: [failedWith('coding', 'inputs-failed')] }), undefined);
    });

    it('leave the summary\'s order of agents as it was', () => {
      const agents = [failedWith('analyst', 'bad-response'), failedWith('coding', 'auth')];
      worstFailure({ agents });
      assert.deepEqual(agents.map((a) => a.agent), ['analyst', 'coding']);
    });
  });
});
