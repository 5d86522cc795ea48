import { strict as assert } from 'node:assert';
import type { NoiseFilter } from '../../../src/core/review/noise';
import type { HiddenReason } from '../../../src/shared/reviewCodes';
import type { Region } from '../../../src/core/domain/target';
import { judgeNoise, originalLinesOf, regionIndexOf } from '../../../src/vscode/review/sessionFindings';
import { finding, summary } from '../report/fixtures';

const region = (file: string, startLine: number, endLine: number, text = ''): Region => ({ file, language: 'typescript', text, startLine, endLine });

describe('a review session\'s findings bookkeeping, without VS Code', () => {
  describe('the region of a finding', () => {
    const regions = [region('a.ts', 1, 10), region('a.ts', 20, 30), region('b.ts', 1, 5)];

    it('is the region of its file that holds all its lines', () => {
      assert.equal(regionIndexOf(regions, 'a.ts', 22, 25), 1);
      assert.equal(regionIndexOf(regions, 'b.ts', 2, 3), 2);
    });

    it('is the region holding its first line when its lines run past the region', () => {
      assert.equal(regionIndexOf(regions, 'a.ts', 8, 14), 0);
    });

    it('is none (-1) outside every region of its file, or in a file not reviewed', () => {
      assert.equal(regionIndexOf(regions, 'a.ts', 12, 14), -1);
      assert.equal(regionIndexOf(regions, 'c.ts', 1, 1), -1);
    });
  });

  describe('the original lines', () => {
    it('are the region\'s lines as they read when the review started (file line numbers, any line ending)', () => {
      const r = region('a.ts', 10, 13, 'ten\r\neleven\ntwelve\rthirteen');
      assert.equal(originalLinesOf(r, 11, 12), 'eleven\ntwelve');
      assert.equal(originalLinesOf(r, 10, 10), 'ten');
    });

    it('are empty without a region', () => {
      assert.equal(originalLinesOf(undefined, 1, 3), '');
    });
  });

  describe('the noise controls', () => {
    const noise: NoiseFilter = { minConfidence: 0.5, minSeverity: 'medium' };
    const low = finding({ id: 'low', title: 'low', severity: 'low' });
    const unsure = finding({ id: 'unsure', title: 'unsure', severity: 'high', confidence: 0.2 });
    const kept = finding({ id: 'kept', title: 'kept', severity: 'high', confidence: 0.9 });

    it('hide a streamed finding below the minimum severity or confidence, with why', () => {
      const hidden = new Map<string, HiddenReason>();
      assert.equal(judgeNoise(hidden, noise, { type: 'finding', reviewId: 'r1', agent: 'analyst', finding: low }), true);
      assert.equal(judgeNoise(hidden, noise, { type: 'finding', reviewId: 'r1', agent: 'analyst', finding: unsure }), true);
      assert.equal(judgeNoise(hidden, noise, { type: 'finding', reviewId: 'r1', agent: 'analyst', finding: kept }), false);
      assert.deepEqual([...hidden], [['low', 'severity'], ['unsure', 'confidence']]);
    });

    it('replace the streamed judgements with the review\'s split of the merged list at the end, and say whether that changed anything', () => {
      const hidden = new Map<string, HiddenReason>([['low', 'severity'], ['gone', 'confidence']]);
      const done = { type: 'review-done' as const, reviewId: 'r1', summary: summary([low, kept]), noise: { shown: [kept], hidden: [{ finding: low, reason: 'severity' as const }] } };
      assert.equal(judgeNoise(hidden, noise, done), true);
      assert.deepEqual([...hidden], [['low', 'severity']]);
      assert.equal(judgeNoise(hidden, noise, done), false, 'the same list again changes nothing');
    });

    it('take the merged list\'s split from the review, without judging it again', () => {
      const hidden = new Map<string, HiddenReason>();
      // The review's noise step hid `kept` (dismissed in the project): the editor's own controls would have shown it.
      const done = { type: 'review-done' as const, reviewId: 'r1', summary: summary([low, kept]), noise: { shown: [low], hidden: [{ finding: kept, reason: 'dismissed' as const }] } };
      assert.equal(judgeNoise(hidden, noise, done), true);
      assert.deepEqual([...hidden], [['kept', 'dismissed']]);
      assert.equal(judgeNoise(hidden, noise, { type: 'review-done', reviewId: 'r1', summary: summary([]) }), true, 'an end without a split (a review that could not run) hides nothing');
      assert.deepEqual([...hidden], []);
    });

    it('hide what the verifier refuted', () => {
      const hidden = new Map<string, HiddenReason>();
      const refuted = finding({ id: 'refuted', title: 'refuted', severity: 'critical', confidence: 1, verification: { verdict: 'refuted', by: 'm', reason: 'no' } });
      judgeNoise(hidden, noise, { type: 'finding', reviewId: 'r1', agent: 'analyst', finding: refuted });
      assert.equal(hidden.get('refuted'), 'refuted');
    });
  });
});
