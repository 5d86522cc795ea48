import { strict as assert } from 'node:assert';
import { decideOutcomes, dismissOutcome, outcomeKeys, threadOutcomes, type ObservedFile, type RaisedFinding } from '../../../src/core/outcomes/decide';
import type { OutcomeRecord } from '../../../src/core/outcomes/record';
import { outcomeStats } from '../../../src/core/outcomes/stats';
import { fingerprintsOf } from '../../../src/core/memory/fingerprint';

/** A file's text from its lines; findings are raised on lines of it (1-based). */
const text = (...lines: string[]) => lines.join('\n');
const SRC = text('import os', '', 'def run(cmd):', '    return os.system(cmd)', '', 'def ok():', '    return 1');

function raised(file: string, body: string, start: number, end: number, title: string, agents: string[] = ['security'], extra: Partial<RaisedFinding['finding']> = {}): RaisedFinding {
  const finding = { file, agents, title, severity: 'high' as const, startLine: start, endLine: end, ...extra };
  const [print] = fingerprintsOf(finding, body, 1);
  return { finding, rule: print?.rule ?? '', code: print?.code ?? '', lines: print?.lines ?? 0, agents: agents.map((agent) => ({ agent, model: `${agent}-model`, costUsd: 0.01 })) };
}
const whole = (file: string, body: string | null): ObservedFile => ({ file, text: body, whole: true, reviewed: body === null ? [] : [{ start: 1, end: body.split('\n').length }] });

/** Applies snapshots the way the store folds them: the last snapshot of an id wins. */
function fold(records: readonly OutcomeRecord[], next: readonly OutcomeRecord[]): OutcomeRecord[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const r of next) byId.set(r.id, r);
  return [...byId.values()];
}

function history(...steps: { at: number; files: ObservedFile[]; raised: RaisedFinding[] }[]): OutcomeRecord[] {
  return steps.reduce<OutcomeRecord[]>((records, step) => fold(records, decideOutcomes(records, step)), []);
}

describe('the outcome rule: what became of each finding', () => {
  it('a finding raised is open; raised again on the same code it stays one open finding', () => {
    const first = raised('a.py', SRC, 4, 4, 'Command injection');
    const records = history({ at: 1, files: [whole('a.py', SRC)], raised: [first] }, { at: 2, files: [whole('a.py', SRC)], raised: [first] });
    assert.deepEqual(records.map((r) => [r.status, r.startLine, r.raisedAt]), [['open', 4, 1]]);
  });

  it('addressed: its lines changed and it was not raised again', () => {
    const fixed = text('import os', 'import shlex', '', 'def run(cmd):', '    return os.system(shlex.quote(cmd))', '', 'def ok():', '    return 1');
    const records = history({ at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }, { at: 2, files: [whole('a.py', fixed)], raised: [] });
    assert.deepEqual(records.map((r) => [r.status, r.by]), [['addressed', 'review']]);
  });

  it('not addressed when its lines did not change, even if this review did not raise it', () => {
    const records = history({ at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }, { at: 2, files: [whole('a.py', SRC)], raised: [] });
    assert.deepEqual(records.map((r) => r.status), ['open']);
  });

  it('moved code: lines added above move the finding with its code (raised again, or not)', () => {
    const movedSrc = text('# header', '# more', SRC);
    const again = history({ at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }, { at: 2, files: [whole('a.py', movedSrc)], raised: [raised('a.py', movedSrc, 6, 6, 'Command injection')] });
    assert.deepEqual(again.map((r) => [r.status, r.startLine]), [['open', 6]]);
    const silent = history({ at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }, { at: 2, files: [whole('a.py', movedSrc)], raised: [] });
    assert.deepEqual(silent.map((r) => [r.status, r.startLine]), [['open', 6]]);
  });

  it('a renamed title on the same code by the same agent is the same finding; another agent with another title is a new one', () => {
    const records = history(
      { at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] },
      { at: 2, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Shell reached with user input'), raised('a.py', SRC, 6, 7, 'Dead helper', ['architecture'])] },
    );
    assert.deepEqual(records.map((r) => [r.status, r.title, r.agents.map((a) => a.agent).join('+')]), [['open', 'Command injection', 'security'], ['open', 'Dead helper', 'architecture']]);
  });

  it('gone: its file deleted, or its code still there but outside what a review of the changes covers', () => {
    const deleted = history({ at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }, { at: 2, files: [whole('a.py', null)], raised: [] });
    assert.deepEqual(deleted.map((r) => r.status), ['gone']);
    const outside = history(
      { at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] },
      { at: 2, files: [{ file: 'a.py', text: SRC, whole: true, reviewed: [{ start: 6, end: 7 }] }], raised: [] },
    );
    assert.deepEqual(outside.map((r) => r.status), ['gone']);
    // Raised again later: open again.
    const back = fold(outside, decideOutcomes(outside, { at: 3, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }));
    assert.deepEqual(back.map((r) => r.status), ['open']);
  });

  it('a selection elsewhere in the file decides nothing about a finding outside it', () => {
    const records = history(
      { at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] },
      { at: 2, files: [{ file: 'a.py', text: text('x', 'y', 'z', 'changed', 'w', 'def ok():', '    return 1'), whole: false, reviewed: [{ start: 6, end: 7 }] }], raised: [] },
    );
    assert.deepEqual(records.map((r) => r.status), ['open']);
  });

  it('files the review did not look at are left alone', () => {
    const records = history({ at: 1, files: [whole('a.py', SRC)], raised: [raised('a.py', SRC, 4, 4, 'Command injection')] }, { at: 2, files: [whole('b.py', 'x = 1')], raised: [] });
    assert.deepEqual(records.map((r) => r.status), ['open']);
  });

  it('dismissed: by the project (hidden by .quorum/dismissed.json), or in the editor with its reason; final either way', () => {
    const f = raised('a.py', SRC, 4, 4, 'Command injection');
    const project = history({ at: 1, files: [whole('a.py', SRC)], raised: [f] }, { at: 2, files: [whole('a.py', SRC)], raised: [{ ...f, dismissed: true }] });
    assert.deepEqual(project.map((r) => [r.status, r.by]), [['dismissed', 'project']]);
    const open = history({ at: 1, files: [whole('a.py', SRC)], raised: [f] });
    const editor = dismissOutcome(open, f, 2, '  we validate at the boundary ');
    assert.deepEqual([editor?.status, editor?.by, editor?.reason], ['dismissed', 'editor', 'we validate at the boundary']);
    const after = fold(fold(open, editor ? [editor] : []), []);
    const later = decideOutcomes(after, { at: 3, files: [whole('a.py', 'changed = 1')], raised: [] });
    assert.deepEqual(later, [], 'a dismissed finding is not decided again');
    assert.deepEqual(decideOutcomes(after, { at: 3, files: [whole('a.py', SRC)], raised: [f] }), [], 'raised again, it is still the one dismissed finding');
  });

  it('pull-request threads: resolved by a push is addressed; by a person with no change to its lines, dismissed with the reason', () => {
    const a = raised('a.py', SRC, 4, 4, 'Command injection');
    const b = raised('a.py', SRC, 6, 7, 'Dead helper', ['architecture']);
    const records = history({ at: 1, files: [whole('a.py', SRC)], raised: [a, b] });
    const [ra, rb] = records;
    assert.ok(ra && rb);
    const next = threadOutcomes(records, [{ keys: outcomeKeys(ra), by: 'push' }, { keys: outcomeKeys(rb).slice(0, 1), by: 'person', linesChanged: false, reason: 'generated code' }], 2);
    assert.deepEqual(next.map((r) => [r.title, r.status, r.by, r.reason]), [['Command injection', 'addressed', 'thread-push', undefined], ['Dead helper', 'dismissed', 'thread-person', 'generated code']]);
  });

  it('stats: distinct findings, one told by two agents counted once under each, cost split as spent, refuted counted', () => {
    const both = raised('a.py', SRC, 4, 4, 'Command injection', ['security', 'analyst'], { verification: { verdict: 'refuted', by: 'v', reason: 'no' } });
    const records = history({ at: 10, files: [whole('a.py', SRC)], raised: [both, raised('a.py', SRC, 6, 7, 'Dead helper', ['architecture'], { severity: 'low' })] });
    const stats = outcomeStats(records);
    assert.equal(stats.findings, 2);
    assert.deepEqual(stats.byAgent.security, { raised: 1, addressed: 0, dismissed: 0, open: 1, gone: 0, refuted: 1, costUsd: 0.01 });
    assert.deepEqual(stats.byAgent.analyst, { raised: 1, addressed: 0, dismissed: 0, open: 1, gone: 0, refuted: 1, costUsd: 0.01 });
    assert.deepEqual(Object.keys(stats.bySeverity), ['high', 'low']);
    assert.equal(stats.bySeverity.high?.costUsd, 0.02);
    assert.deepEqual(Object.keys(stats.byModel).sort(), ['analyst-model', 'architecture-model', 'security-model']);
    assert.equal(outcomeStats(records, { since: 11 }).findings, 0);
    // One agent's part (Compare Models): the findings it told, under its own model only.
    const security = outcomeStats(records, { agent: 'security' });
    assert.deepEqual([security.findings, Object.keys(security.byModel), security.byModel['security-model']?.costUsd], [1, ['security-model'], 0.01]);
  });
});
