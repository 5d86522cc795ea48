import { strict as assert } from 'node:assert';
import { cleanCode, stripFence, stripLineNumbers } from '../../../src/core/agents/code';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from '../../../src/core/cost/contextWindows';
import { languageFromLocale, languageName, normalizeLanguage, resolveOutputLanguage } from '../../../src/core/agents/language';
import { buildMessages, numberLines } from '../../../src/core/agents/messages';
import { type ReviewTarget, singleTarget } from '../../../src/core/domain/target';

const target: ReviewTarget = singleTarget({
  file: 'src/users.ts',
  language: 'typescript',
  text: 'function f(a) {\n  return a ``` 1;\n}',
  startLine: 98,
  endLine: 100,
});

describe('prompt building', () => {
  it('numbers lines with the file numbering, aligned', () => {
    assert.equal(numberLines('a\nb\n  c', 9), ' 9 | a\n10 | b\n11 |   c');
  });

  it('sends the code with its real line numbers, in a fence the code cannot close', () => {
    const [system, user] = buildMessages({ agent: { systemPrompt: 'Be an analyst.', output: 'findings' }, target, language: 'en' });
    assert.equal(system?.role, 'system');
    assert.match(system?.content ?? '', /^Be an analyst\./);
    assert.match(system?.content ?? '', /between 98 and 100/);
    assert.match(user?.content ?? '', / 98 \| function f\(a\) \{\n 99 \| {3}return a ``` 1;\n100 \| \}/);
    assert.match(user?.content ?? '', /\n````typescript\n/);
    assert.match(user?.content ?? '', /Reviewed lines: 98-100/);
  });

  it('sends every agent of a target the same code, and each target its own (a copy with other text is not taken for it)', () => {
    const agent = { systemPrompt: 'x', output: 'findings' as const };
    const [, first] = buildMessages({ agent, target, language: 'en' });
    const [, again] = buildMessages({ agent: { systemPrompt: 'y', output: 'code' }, target, language: 'ko' });
    assert.equal(again?.content, first?.content);
    const region = target.regions[0];
    assert.ok(region);
    const other: ReviewTarget = { ...target, regions: [{ ...region, text: 'function g(b) {\n  return b;\n}' }] };
    const [, changed] = buildMessages({ agent, target: other, language: 'en' });
    assert.match(changed?.content ?? '', / 98 \| function g\(b\) \{/);
    const [, withInputs] = buildMessages({ agent, target, language: 'en', inputs: [{ agent: 'security', title: 'Security', status: 'ok', findings: [], text: '' }] });
    assert.equal(withInputs?.content, `${first?.content}\n\nReviews of this code by the other agents:\n\n### Security (security)\nNo findings.`);
  });

  it('asks the coding agent for a replacement of exactly the reviewed range', () => {
    const [system] = buildMessages({ agent: { systemPrompt: 'Code.', output: 'code' }, target, language: 'en' });
    assert.match(system?.content ?? '', /improvedCode/);
    assert.match(system?.content ?? '', /exactly lines 98-100/);
  });

  it('names the output language and keeps code as it is', () => {
    const [system] = buildMessages({ agent: { systemPrompt: 'x', output: 'findings' }, target, language: 'ko' });
    assert.match(system?.content ?? '', /in Korean\. Keep code, identifiers/);
  });

  it('passes the inputs of a dependent agent: findings, failures and unparsed text', () => {
    const [, user] = buildMessages({
      agent: { systemPrompt: 'x', output: 'code' },
      target,
      language: 'en',
      inputs: [
        { agent: 'security', title: 'Security', status: 'ok', text: '', findings: [{ id: 's-1', file: 'src/users.ts', agents: ['security'], severity: 'high', title: 'SQLi', explanation: 'bad', startLine: 99, endLine: 99, confidence: 0.9, cwe: 'CWE-89' }] },
        { agent: 'analyst', title: 'Analyst', status: 'error', text: '', findings: [] },
        { agent: 'architecture', title: 'Architecture', status: 'ok', text: 'free text review', findings: [], unparsed: true },
      ],
    });
    assert.match(user?.content ?? '', /### Security \(security\)\n\[\n \{\n {2}"severity": "high"/);
    assert.match(user?.content ?? '', /"cwe": "CWE-89"/);
    assert.match(user?.content ?? '', /### Analyst \(analyst\)\nThis review did not finish \(error\)/);
    assert.match(user?.content ?? '', /### Architecture \(architecture\)\nfree text review/);
  });
});

describe('cleaning code from a model', () => {
  it('strips an enclosing fence', () => {
    assert.equal(stripFence('```ts\nconst a = 1;\n```'), 'const a = 1;');
    assert.equal(stripFence('~~~\nx\n~~~\n'), 'x');
    assert.equal(stripFence('no fence'), 'no fence');
  });

  it('strips our line-number column only when it counts up from the expected line', () => {
    assert.equal(stripLineNumbers('12 |   a();\n13 | b();', 12), '  a();\nb();');
    assert.equal(stripLineNumbers('12 | a\n14 | b'), '12 | a\n14 | b');
    assert.equal(stripLineNumbers('1 | 2', 40), '1 | 2', 'code that starts with a number is kept');
    assert.equal(stripLineNumbers('7: x\n\n8: y'), 'x\n\ny');
  });

  it('keeps the first line\'s indentation and drops trailing blank lines', () => {
    assert.equal(cleanCode('\n\n    indented();\n  next();\n\n\n'), '    indented();\n  next();');
    assert.equal(cleanCode('```python\n5 |     return x\n```', 5), '    return x');
  });
});

describe('output languages and context windows', () => {
  it('resolves a POSIX locale to a language code', () => {
    assert.equal(languageFromLocale({ LANG: 'ko_KR.UTF-8' }), 'ko');
    assert.equal(languageFromLocale({ LANG: 'en_US.UTF-8', LC_ALL: 'ja_JP.UTF-8' }), 'ja');
    assert.equal(languageFromLocale({ LANG: 'pt_BR.UTF-8' }), 'pt-br');
    assert.equal(languageFromLocale({ LANG: 'C.UTF-8' }), 'en');
    assert.equal(languageFromLocale({}), 'en');
  });

  it('resolves the output language the same way for both faces: a code as given, auto following the UI language', () => {
    assert.equal(resolveOutputLanguage('KO', 'en'), 'ko');
    assert.equal(resolveOutputLanguage('auto', 'ko'), 'ko');
    assert.equal(resolveOutputLanguage(undefined, languageFromLocale({ LANG: 'ja_JP.UTF-8' })), 'ja');
    // VS Code reports its display language as e.g. `zh-tw` or `de`: followed, not narrowed to en/ko.
    assert.equal(resolveOutputLanguage('auto', 'zh-TW'), 'zh-tw');
    assert.equal(resolveOutputLanguage('auto', ''), 'en');
  });

  it('normalises codes and names languages', () => {
    assert.equal(normalizeLanguage('auto'), undefined);
    assert.equal(normalizeLanguage('zh_TW'), 'zh-tw');
    assert.equal(normalizeLanguage('k'), undefined);
    assert.equal(languageName('ko'), 'Korean');
    assert.equal(languageName('de-at'), 'German');
  });

  it('knows the windows of the default models; unknown models get 128k', () => {
    // The catalogue's figure (@pydantic/genai-prices); the old table said 1,047,576.
    assert.equal(contextWindowFor('gpt-4.1'), 1_000_000);
    assert.equal(contextWindowFor('openai/gpt-4o-mini'), 128_000);
    assert.equal(contextWindowFor('claude-sonnet-4.5'), 200_000);
    assert.equal(contextWindowFor('gemini-2.5-flash'), 1_048_576);
    assert.equal(contextWindowFor('deepseek-v3.2'), 128_000);
    assert.equal(contextWindowFor('gpt-4'), 8_192);
    assert.equal(contextWindowFor('my-local-model'), DEFAULT_CONTEXT_WINDOW);
  });
});
