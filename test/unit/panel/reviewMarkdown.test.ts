import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { PANEL_STRINGS } from '../../../src/shared/panelStrings';
import type { ReviewView } from '../../../src/shared/protocol';
import { formatMarkdown } from '../../../src/core/report/readable';
import { summaryView, toFindingView } from '../../../src/core/report/viewEvents';
import { reviewToMarkdown } from '../../../src/shared/reviewMarkdown';
import { codeSpan, escapeInline, fence } from '../../../src/shared/untrustedText';
import { agent, finding, summary } from '../report/fixtures';

const md = new MarkdownIt({ html: true, linkify: false });
const usage = { promptTokens: 1200, completionTokens: 300, cachedTokens: 0, reasoningTokens: 0 };

function review(): ReviewView {
  return {
    sessionId: 's', targetKey: 'k', target: { file: 'src/db.ts', language: 'typescript', startLine: 3, endLine: 9 },
    status: 'done', startedAt: 0, elapsedMs: 4200, live: true, dismissed: ['d'],
    totals: { costUsd: 0.0123, promptTokens: 2400, completionTokens: 600, cachedTokens: 0, requests: 2, retries: 0 },
    agents: [
      { agent: 'security', title: 'Security', model: 'gemini-2.5-flash', state: 'done', text: '', chunks: 0,
        outcome: { state: 'done', model: 'gemini-2.5-flash', text: '', cached: false, usage, costUsd: 0.004, costSource: 'reported', latencyMs: 1500, attempts: 1, findingCount: 2 } },
      { agent: 'coding', title: 'Coding', model: 'deepseek-v3.2', state: 'done', text: '', chunks: 0,
        outcome: { state: 'done', model: 'deepseek-v3.2', text: '', cached: true, usage, costUsd: 0, costSource: 'cached', latencyMs: 2, attempts: 1, findingCount: 0,
          improvedCode: 'const q = `SELECT ?`;\n```\nnot a fence end\n```', rationale: 'Use <b>parameters</b>' } },
      { agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', state: 'failed', text: '', chunks: 0,
        outcome: { state: 'failed', model: 'gpt-4.1', text: '', cached: false, usage, costUsd: 0, costSource: 'estimated', latencyMs: 9, attempts: 3, findingCount: 0, error: { code: 'auth', message: 'HTTP 401' } } },
    ],
    findings: [
      { id: 'low', agents: ['security'], severity: 'low', title: 'Low one', explanation: 'meh', startLine: 4, endLine: 4, confidence: 0.3 },
      { id: 'crit', agents: ['security'], severity: 'critical', title: '<img src=x onerror=alert(1)> [link](javascript:alert(1))', explanation: 'SQL *injection*', startLine: 5, endLine: 6, confidence: 0.9, cwe: 'CWE-89', suggestion: 'db.get(sql, [name])' },
      { id: 'd', agents: ['security'], severity: 'high', title: 'Dismissed one', explanation: '', startLine: 1, endLine: 1, confidence: 1 },
    ],
  };
}

describe('panel: Markdown export', () => {
  it('says which part of a cancelled review\'s cost is an estimate, the same figure the status bar shows', () => {
    const view = { ...review(), status: 'cancelled' as const, totals: { ...review().totals!, costUsd: 0.0284, estimatedUsd: 0.0038 } };
    const text = reviewToMarkdown(view, { ...PANEL_STRINGS }, new Date(0));
    assert.match(text, /Cost \$0\.0284 \(incl\. \$0\.0038 estimated\)/);
  });

  it('has the target, status, costs per agent, findings most severe first, and the improved code', () => {
    const text = reviewToMarkdown(review(), { ...PANEL_STRINGS }, new Date('2026-01-02T03:04:05Z'));
    assert.match(text, /^# Quorum review of src\/db\.ts \(lines 3–9\)\n/);
    assert.match(text, /Review complete/);
    assert.match(text, /Cost \$0\.0123/);
    assert.match(text, /2026-01-02T03:04:05\.000Z/);
    assert.match(text, /\| Security \| gemini-2\.5-flash \| Done \| 1\.5 s \| 1,200 in · 300 out \| \$0\.0040 \(reported by the gateway\) \|/);
    assert.match(text, /Done \(Cached\)/);
    // A failure that got no answer was billed nothing, and says so.
    const unanswered = review();
    const analyst = unanswered.agents[2]!.outcome!;
    analyst.usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };
    analyst.costSource = 'reported';
    assert.match(reviewToMarkdown(unanswered, { ...PANEL_STRINGS }, new Date(0)), /\| Analyst \| gpt-4\.1 \| Failed \|[^\n]*\$0\.00 \(nothing billed\) \|/);
    assert.match(text, /Analyst: auth — HTTP 401/);
    assert.ok(text.indexOf('Critical') < text.indexOf('Low one'), 'critical before low');
    assert.ok(text.indexOf('### CRITICAL: ') < text.indexOf('### LOW: Low one'), 'the critical finding\'s heading before the low one\'s');
    assert.doesNotMatch(text, /Dismissed one/);
    assert.match(text, /## Findings \(2\)/);
    assert.match(text, /CWE-89/);
    assert.match(text, /````typescript\nconst q = `SELECT \?`;\n```\nnot a fence end\n```\n````/);
  });

  it('names the context sent, as the header does; nothing when none was needed', () => {
    const items = [
      { file: 'src/rates.ts', startLine: 1, endLine: 4, symbol: 'applyDiscount', kind: 'definition' as const, forFile: 'src/db.ts' },
      { file: 'src/cart.ts', startLine: 8, endLine: 12, symbol: 'query', kind: 'caller' as const, forFile: 'src/db.ts' },
    ];
    const text = reviewToMarkdown({ ...review(), context: { enabled: true, items, tokens: 1234, cut: [] } }, { ...PANEL_STRINGS }, new Date(0));
    assert.match(text, /\ncontext: 1 definition, 1 caller from 2 files · 1,234 tokens\n/);
    assert.match(reviewToMarkdown({ ...review(), context: { enabled: false, items: [], tokens: 0, cut: [] } }, { ...PANEL_STRINGS }, new Date(0)), /\ncontext: off\n/);
    assert.doesNotMatch(reviewToMarkdown({ ...review(), context: { enabled: true, items: [], tokens: 0, cut: [] } }, { ...PANEL_STRINGS }, new Date(0)), /context:/);
  });

  it('leaves out what the noise controls hid and says so (count, reasons, dismissed); lists it apart when the panel shows it', () => {
    const view: ReviewView = {
      ...review(),
      findings: [
        ...review().findings,
        { id: 'quiet', agents: ['security'], severity: 'medium', title: 'Quiet one', explanation: '', startLine: 7, endLine: 7, confidence: 0.2 },
        { id: 'known', agents: ['security'], severity: 'high', title: 'Known one', explanation: '', startLine: 8, endLine: 8, confidence: 0.9 },
        { id: 'tiny', agents: ['security'], severity: 'info', title: 'Tiny one', explanation: '', startLine: 9, endLine: 9, confidence: 0.9 },
      ],
      hidden: [{ id: 'quiet', reason: 'confidence' }, { id: 'known', reason: 'dismissed' }, { id: 'tiny', reason: 'severity' }, { id: 'gone', reason: 'confidence' }],
    };
    const left = reviewToMarkdown(view, { ...PANEL_STRINGS }, new Date(0));
    assert.match(left, /## Findings \(2\)/, 'the two shown: not the dismissed one, not the three hidden');
    for (const title of ['Quiet one', 'Known one', 'Tiny one', 'Dismissed one']) assert.doesNotMatch(left, new RegExp(title));
    assert.match(left, /_3 hidden \(1 below quorum\.review\.minConfidence, 1 below quorum\.review\.minSeverity, 1 dismissed in this project\), not listed here · 1 dismissed_/);
    assert.doesNotMatch(left, /Hidden findings/);

    const listed = reviewToMarkdown(view, { ...PANEL_STRINGS }, new Date(0), true);
    assert.match(listed, /## Findings \(2\)/);
    assert.match(listed, /3 hidden \([^)]*\), listed under Hidden findings · 1 dismissed/);
    const apart = listed.slice(listed.indexOf('## Hidden findings (3)'));
    assert.ok(listed.indexOf('## Hidden findings (3)') > listed.indexOf('### LOW: Low one'), 'after the shown findings');
    assert.match(apart, /### HIGH: Known one\n\n_Line 8 · security · confidence 90% · hidden: dismissed in this project_/);
    assert.match(apart, /### MEDIUM: Quiet one\n\n_[^_]*hidden: below quorum\.review\.minConfidence_/);
    assert.match(apart, /### INFO: Tiny one\n\n_[^_]*hidden: below quorum\.review\.minSeverity_/);
    assert.doesNotMatch(apart, /Low one|Dismissed one/);
    // Nothing hidden or dismissed: no note.
    assert.doesNotMatch(reviewToMarkdown({ ...review(), dismissed: [], findings: review().findings.filter((f) => f.id !== 'd') }, { ...PANEL_STRINGS }, new Date(0)), /hidden|dismissed/i);
  });

  it('model text cannot become HTML or links in the exported document', () => {
    const html = md.render(reviewToMarkdown(review(), { ...PANEL_STRINGS }, new Date()));
    assert.doesNotMatch(html, /<img/);
    assert.doesNotMatch(html, /<b>/);
    assert.doesNotMatch(html, /href="javascript/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  it("a finding's advice is text in the export and the CLI's Markdown: no link, command link, image or HTML, bidi shown", () => {
    const advice = 'See [x](command:quorum.resetCost) ![t](https://evil.example/t.png) <img src=x onerror=alert(1)> https://user:pw@evil.example \u202Eevil';
    // As the host sends it: findings through toFindingView.
    const view = { ...review(), findings: [toFindingView(finding({ severity: 'high', title: 'T', advice }))] };
    const cli = formatMarkdown(summary([finding({ severity: 'high', title: 'T', advice })]));
    for (const doc of [reviewToMarkdown(view, { ...PANEL_STRINGS }, new Date()), cli]) {
      const html = md.render(doc);
      assert.match(html, /<strong>Advice:<\/strong> See \[x\]\(command:quorum\.resetCost\)/);
      assert.doesNotMatch(html, /<a |<img/);
      assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
      assert.match(html, /&lt;U\+202E&gt;evil/);
      assert.doesNotMatch(html, /\u202E/);
    }
  });

  it('escapes inline text and picks a fence longer than any backtick run', () => {
    assert.equal(escapeInline('a *b* <c>\nd | [x](y)'), 'a \\*b\\* \\<c\\> d \\| \\[x\\](y)');
    assert.equal(escapeInline('# not a heading'), '\\# not a heading');
    assert.equal(escapeInline('1. not a list'), '1\\. not a list');
    assert.equal(fence('x ````` y', 'ts'), '``````ts\nx ````` y\n``````');
    assert.equal(fence('plain', 'bad lang!'), '```\nplain\n```');
  });

  it('exports each finding\'s advice and the improved code per region, fenced in its file\'s language', () => {
    const changes = summary([finding({ severity: 'high', title: 'Shell built from input', file: 'src/b.go', advice: 'Pass the arguments as a list.' })], {
      target: { kind: 'changes', label: 'uncommitted changes', regions: [{ file: 'src/a.py', language: 'python', startLine: 1, endLine: 3 }, { file: 'src/b.go', language: 'go', startLine: 4, endLine: 9 }] },
      agents: [agent('security'), agent('coding', { replacements: [{ file: 'src/a.py', startLine: 2, endLine: 3, code: 'x = 1' }, { file: 'src/b.go', startLine: 5, endLine: 6, code: 'y := 2' }], rationale: 'Safer.' })],
    });
    const text = reviewToMarkdown(summaryView(changes), { ...PANEL_STRINGS }, new Date(0));
    assert.match(text, /\*\*Advice:\*\* Pass the arguments as a list\./);
    assert.match(text, /_src\/b\.go · Line 2 · analyst/);
    assert.match(text, /### src\/a\.py · Lines 2–3\n\n```python\nx = 1\n```/);
    assert.match(text, /### src\/b\.go · Lines 5–6\n\n```\ny := 2\n```/, 'the panel knows the first file\'s language only: no wrong fence for the others');
    assert.match(text, /\*\*Why:\*\* Safer\./);
    // The CLI's Markdown is the same document, fenced in each file's own language.
    const cli = formatMarkdown(changes);
    assert.match(cli, /\*\*Advice:\*\* Pass the arguments as a list\./);
    assert.match(cli, /### src\/b\.go · Lines 5–6\n\n```go\ny := 2\n```/);
    assert.match(cli, /### src\/a\.py · Lines 2–3\n\n```python\nx = 1\n```/);
  });

  it('a code span cannot be closed by the text inside it', () => {
    assert.equal(codeSpan('a`b\nc'), "`a'b c`");
  });
});
