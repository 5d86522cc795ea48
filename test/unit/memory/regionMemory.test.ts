import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangesPlan } from '../../../src/core/changes/plan';
import { RegionMemory, regionKey, reviewVersion } from '../../../src/core/memory/regionMemory';
import { zeroTotals } from '../../../src/core/domain/totals';
import type { Finding } from '../../../src/core/domain/finding';
import type { Region } from '../../../src/core/domain/target';
import type { ReviewSummary } from '../../../src/core/domain/result';
import { parseSettings } from '../../../src/core/settings/parse';

const region = (file: string, startLine: number, text: string): Region => ({ file, language: 'python', text, startLine, endLine: startLine + text.split('\n').length - 1, changedLines: [{ start: startLine + 1, end: startLine + 1 }] });
const plan = (...regions: Region[]): ChangesPlan => ({ target: { kind: 'changes', label: 'Uncommitted changes', regions }, batches: [{ kind: 'changes', label: 'Uncommitted changes', regions }], files: new Set(regions.map((r) => r.file)).size, added: regions.length, removed: 0 });
const finding = (file: string, line: number, title: string, agent = 'security'): Finding => ({ id: `${agent}-${line}`, file, agents: [agent], severity: 'high', title, explanation: 'e', startLine: line, endLine: line, confidence: 0.8 });
const summary = (p: ChangesPlan, findings: Finding[]): ReviewSummary => ({ reviewId: 'r', target: { kind: 'changes', label: p.target.label, regions: p.target.regions }, agents: [], findings, totals: zeroTotals(), cancelled: false, elapsedMs: 0 });

describe('region memory: what a re-review carries over', () => {
  const settings = parseSettings({}).settings;
  const version = reviewVersion(settings, { language: 'en' });
  const dir = () => mkdtempSync(join(tmpdir(), 'quorum-memory-'));

  it('a region is known by its content and the review version, not by its lines', () => {
    const a = region('a.py', 10, 'x = 1\ny = eval(s)\nz = 3');
    assert.equal(regionKey(a, version), regionKey({ ...a, startLine: 12, endLine: 14, changedLines: [{ start: 13, end: 13 }] }, version));
    assert.notEqual(regionKey(a, version), regionKey({ ...a, text: a.text.replace('eval', 'exec') }, version));
    assert.notEqual(regionKey(a, version), regionKey({ ...a, changedLines: [{ start: 10, end: 10 }] }, version));
    assert.notEqual(regionKey(a, version), regionKey({ ...a, context: 'def eval(s): ...' }, version));
    assert.notEqual(regionKey(a, version), regionKey(a, reviewVersion(settings, { language: 'ko' })));
    assert.notEqual(version, reviewVersion(parseSettings({ agents: { security: { model: 'gpt-4o' } } }).settings, { language: 'en' }));
    assert.notEqual(version, reviewVersion(parseSettings({ review: { verify: 'off' } }).settings, { language: 'en' }));
  });

  it('carries an unchanged region\'s findings over (moved with it, marked), sends the rest, and counts what was not raised again as resolved', () => {
    const where = dir();
    const a = region('a.py', 10, 'x = 1\ny = eval(s)\nz = 3');
    const b = region('b.py', 1, 'p = 1\nq = exec(s)\nr = 3');
    const first = plan(a, b);
    const memory = new RegionMemory({ dir: where, root: '/repo' });
    const none = memory.carryOver(first, version);
    assert.deepEqual([none.reused, none.carried, none.plan.batches[0]?.regions.length], [[], [], 2]);
    memory.remember(first, none, summary(first, [finding('a.py', 11, 'Eval of input'), finding('b.py', 2, 'Exec of input')]));
    assert.equal(memory.save(), true);

    // Later, on a fresh read: a moved down two lines unchanged; b edited.
    const later = new RegionMemory({ dir: where, root: '/repo' });
    const a2 = { ...a, startLine: 12, endLine: 14, changedLines: [{ start: 13, end: 13 }] };
    const b2 = region('b.py', 1, 'p = 1\nq = run(s)\nr = 3');
    const second = plan(a2, b2);
    const carry = later.carryOver(second, version);
    assert.deepEqual(carry.reused, [0]);
    assert.deepEqual(carry.plan.batches.map((x) => x.regions.map((r) => r.file)), [['b.py']]);
    assert.deepEqual(carry.carried.map((f) => [f.file, f.startLine, f.title, f.carried]), [['a.py', 13, 'Eval of input', true]]);
    assert.deepEqual(later.withCarried(second, carry, summary(second, [finding('b.py', 2, 'Unchecked run of input')])).resolved?.map((f) => f.title), ['Exec of input']);
    assert.deepEqual(later.withCarried(second, carry, summary(second, [finding('b.py', 2, 'Exec of input here')])).resolved, [], 'raised again in other words');
    // A fresh review (not a re-run) learns but carries nothing over.
    assert.deepEqual(new RegionMemory({ dir: where, root: '/repo', reuse: false }).carryOver(second, version).reused, []);
    // Another repository's memory is its own.
    assert.deepEqual(new RegionMemory({ dir: where, root: '/other' }).carryOver(second, version).reused, []);
  });

  it('a review with a failed agent is not remembered (its regions would carry a partial review)', () => {
    const where = dir();
    const a = region('a.py', 1, 'x = 1\ny = 2');
    const p = plan(a);
    const memory = new RegionMemory({ dir: where, root: '/repo' });
    const carry = memory.carryOver(p, version);
    const failed = { ...summary(p, []), agents: [{ agent: 'security', title: 'Security', role: 'reviewer' as const, model: 'm', status: 'error' as const, text: '', findings: [], usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 }, costUsd: 0, costSource: 'none' as const, latencyMs: 0, attempts: 1, cached: false }] };
    memory.remember(p, carry, failed);
    memory.save();
    assert.deepEqual(new RegionMemory({ dir: where, root: '/repo' }).carryOver(p, version).reused, []);
  });
});
