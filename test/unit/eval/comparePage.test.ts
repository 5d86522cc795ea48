import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { comparePageHtml, type ComparePageInput } from '../../../src/core/eval/comparePage';
import { f1Label, lastResultFor, parseLastResults, recordResults } from '../../../src/core/eval/lastResults';
import type { RunFigures } from '../../../src/core/eval/score';
import { COMPARE_STRINGS, compareToHostSchema, type CompareStrings } from '../../../src/shared/compareProtocol';

const root = resolve(__dirname, '..', '..', '..');

export const figures = (model: string, f1: number | null, costUsd: number, failures = 0, agent = 'security'): RunFigures => ({
  agent, model, cases: 58, precision: f1, recall: f1, f1, falsePositivesPerCleanCase: 0.25, costUsd,
  costPerTruePositiveUsd: f1 === null ? null : costUsd / 10, p50Ms: 900, p95Ms: 2100, failures,
  thresholds: [0, 0.3, 0.5, 0.7, 0.9].map((t) => ({ minConfidence: t, precision: f1, recall: f1 })),
});

export function pageInput(overrides: Partial<ComparePageInput> = {}): ComparePageInput {
  return {
    cspSource: 'https://quorum-webview.test', nonce: 'bm9uY2Vub25jZW5vbmNl', scriptUri: 'https://quorum-webview.test/dist/compare.js',
    styleUris: ['https://quorum-webview.test/media/panel.css', 'https://quorum-webview.test/media/compare.css'], lang: 'en',
    strings: { ...COMPARE_STRINGS }, agent: { id: 'security', title: 'Security' }, currentModel: 'gemini-2.5-flash',
    corpus: { label: 'shipped corpus', cases: 58, clean: 29 },
    runs: [figures('gemini-2.5-flash', 0.8, 0.12), figures('gpt-4.1-mini', 0.5, 0.05, 8)],
    failureCodes: [{}, { 'http-501': 8 }], ...overrides,
  };
}

describe('Compare Models: the page and the figures kept', () => {
  it('builds the page under the panel CSP with the eval table, chart and thresholds, escaping model ids', () => {
    const html = comparePageHtml(pageInput({ runs: [figures('gemini-2.5-flash', 0.8, 0.12), figures('"><script>alert(1)</script>', null, 0, 58)], failureCodes: [{}, { timeout: 58 }] }));
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; [^"]*script-src &#39;nonce-bm9uY2Vub25jZW5vbmNl&#39;/);
    assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script: the nonce one');
    assert.match(html, /<script nonce="bm9uY2Vub25jZW5vbmNl" src="https:\/\/quorum-webview.test\/dist\/compare.js"><\/script>/);
    assert.match(html, /<table id="figures">[\s\S]*<th>F1<\/th>[\s\S]*<th>use<\/th>/);
    assert.match(html, /<span class="current">current<\/span>/, 'the current model is marked, not offered');
    assert.match(html, /data-model="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
    assert.match(html, /<li>&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;: 58 of 58 cases failed \(timeout ×58\)<\/li>/, 'a failed model is shown with its failures');
    assert.match(html, /<svg [^>]*class="cost-f1-chart"/);
    assert.match(html, /<table id="thresholds">/);
    assert.doesNotMatch(html, /style="|<style|https?:\/\/(?!quorum-webview\.test|www\.w3\.org\/2000\/svg)/, 'no inline style, nothing from elsewhere');
    assert.throws(() => comparePageHtml(pageInput({ nonce: 'short' })));
  });

  it('localises every word of the page, the chart included', () => {
    const strings = Object.fromEntries(Object.entries(COMPARE_STRINGS).map(([k, v]) => [k, `«${v}»`])) as CompareStrings;
    const html = comparePageHtml(pageInput({ strings, stopped: { measured: 3, total: 116 } }));
    assert.ok(html.includes('«Stopped after 3 of 116 cases: '), 'the stopped notice, with what was measured');
    for (const key of ['thresholdsHeading', 'failuresHeading', 'chartHeading', 'chartTitle', 'chartY'] as const) assert.ok(html.includes(`«${COMPARE_STRINGS[key]}»`), key);
    assert.match(html, /«Compare models for Security»/);
    assert.match(html, /«total cost \(USD\)»/);
    assert.match(html, /<th>«p95»<\/th>/);
    assert.match(html, /«Use for Security»/);
  });

  it('every page string has a Korean translation with the same placeholders', () => {
    const ko = JSON.parse(readFileSync(resolve(root, 'l10n', 'bundle.l10n.ko.json'), 'utf8')) as Record<string, string>;
    const ph = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort().join();
    assert.deepEqual(Object.values(COMPARE_STRINGS).filter((e) => ko[e] === undefined || ph(ko[e]) !== ph(e)), []);
  });

  it('accepts only the page messages it knows', () => {
    assert.ok(compareToHostSchema.safeParse({ type: 'useModel', agent: 'security', model: 'gpt-4.1-mini' }).success);
    for (const bad of [{ type: 'useModel', agent: 'security' }, { type: 'useModel', agent: '', model: 'm' }, { type: 'useModel', agent: 'a', model: 'm'.repeat(201) }, { type: 'eval', code: '1' }, null]) {
      assert.equal(compareToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('keeps the last figures per agent × model, newest first, and drops stored data that does not parse', () => {
    const first = recordResults([], [figures('a', 0.5, 1), figures('b', null, 2)], 'shipped', new Date('2026-12-01T00:00:00Z'));
    const second = recordResults(parseLastResults(first), [figures('a', 0.75, 1)], 'shipped', new Date('2026-12-02T00:00:00Z'));
    assert.deepEqual(second.results.map((r) => [r.model, r.f1, r.measuredAt.slice(0, 10)]), [['a', 0.75, '2026-12-02'], ['b', null, '2026-12-01']]);
    assert.equal(lastResultFor(second.results, 'security', 'a', 'shipped')?.f1, 0.75);
    assert.equal(lastResultFor(second.results, 'analyst', 'a', 'shipped'), undefined, 'per agent');
    assert.equal(f1Label({ f1: 0.724 }), 'F1 0.72');
    assert.equal(f1Label({ f1: null }), 'F1 –');
    assert.deepEqual(parseLastResults({ version: 1, results: [{ ...second.results[0], f1: 3 }] }), []);
    assert.deepEqual(parseLastResults('garbage'), []);
    assert.deepEqual(parseLastResults(undefined), []);
  });

  it('keeps figures per corpus: a figure measured on one corpus is never the figure of another', () => {
    const shipped = recordResults([], [figures('a', 0.5, 1)], 'shipped', new Date('2026-12-01T00:00:00Z'));
    const both = recordResults(parseLastResults(shipped), [figures('a', 0.25, 1)], '/work/team-corpus', new Date('2026-12-02T00:00:00Z'));
    assert.equal(lastResultFor(both.results, 'security', 'a', 'shipped')?.f1, 0.5, 'the other corpus did not replace it');
    assert.equal(lastResultFor(both.results, 'security', 'a', '/work/team-corpus')?.f1, 0.25);
    assert.equal(lastResultFor(both.results, 'security', 'a', '/work/other-corpus'), undefined);
    // Figures kept before the corpus was noted are read, but apply to no corpus.
    const { corpus: _unknown, ...older } = both.results[1]!;
    const read = parseLastResults({ version: 1, results: [older] });
    assert.equal(read.length, 1);
    assert.equal(lastResultFor(read, 'security', 'a', 'shipped'), undefined);
  });
});
