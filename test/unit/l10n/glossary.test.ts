import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';

const root = resolve(__dirname, '..', '..', '..');
const read = (p: string): string => readFileSync(join(root, p), 'utf8');
const strings = z.record(z.string(), z.string());

const rule = { forbidden: z.string().min(1), bad: z.string().min(1), good: z.string().min(1) };
const glossarySchema = z.object({
  terms: z.array(z.object({ en: z.string().min(1), ko: z.string().min(1), insteadOf: z.string().min(1), why: z.string().min(1), ...rule })).min(1),
  keep: z.array(z.string().min(1)),
  style: z.array(z.object({ rule: z.string().min(1), ...rule })),
});
const glossary = glossarySchema.parse(JSON.parse(read('l10n/glossary.json')));
const rules = [
  ...glossary.terms.map((t) => ({ name: `${t.en} is ${t.ko}, not ${t.insteadOf}`, ...t })),
  ...glossary.style.map((s) => ({ name: s.rule, ...s })),
].map((r) => ({ ...r, pattern: new RegExp(r.forbidden, 'u') }));

const bundleKo = () => strings.parse(JSON.parse(read('l10n/bundle.l10n.ko.json')));
const nlsEn = () => strings.parse(JSON.parse(read('package.nls.json')));
const nlsKo = () => strings.parse(JSON.parse(read('package.nls.ko.json')));

/** Every Korean string of the interface, with the English it translates (a runtime string's key is its English). */
function koreanStrings(): { where: string; en: string; ko: string }[] {
  const manifestEn = nlsEn();
  return [
    ...Object.entries(bundleKo()).map(([key, ko]) => ({ where: `bundle.l10n.ko.json "${key}"`, en: key, ko })),
    ...Object.entries(nlsKo()).map(([key, ko]) => ({ where: `package.nls.ko.json ${key}`, en: manifestEn[key] ?? '', ko })),
  ];
}

const placeholders = (s: string) => [...new Set([...s.matchAll(/\{\d+\}/g)].map((m) => m[0]))].sort();

describe('l10n: the Korean glossary', () => {
  it('each rule catches the wrong wording it names and lets the right one through', () => {
    for (const r of rules) {
      assert.match(r.bad, r.pattern, `${r.name}: catches "${r.bad}"`);
      assert.doesNotMatch(r.good, r.pattern, `${r.name}: lets "${r.good}" through`);
    }
  });

  it('no Korean string (runtime bundle or manifest) uses a term or a style the glossary rules out', () => {
    const problems: string[] = [];
    for (const s of koreanStrings()) {
      for (const r of rules) {
        const m = r.pattern.exec(s.ko);
        if (m) problems.push(`${s.where}: "${m[0]}" in "${s.ko}" (${r.name})`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('every placeholder of the English string is in its Korean translation, and no other', () => {
    const problems = koreanStrings()
      .filter((s) => placeholders(s.en).join() !== placeholders(s.ko).join())
      .map((s) => `${s.where}: ${placeholders(s.en).join() || 'none'} in English, ${placeholders(s.ko).join() || 'none'} in Korean`);
    assert.deepEqual(problems, []);
  });

  it('GLOSSARY.md lists every term of glossary.json, as the test reads them', () => {
    const md = read('l10n/GLOSSARY.md');
    for (const t of glossary.terms) assert.ok(md.includes(`| ${t.en} | ${t.ko} | ${t.insteadOf} |`), `GLOSSARY.md has the row | ${t.en} | ${t.ko} | ${t.insteadOf} |`);
    for (const k of glossary.keep) assert.ok(md.includes(k), `GLOSSARY.md keeps ${k}`);
  });
});
