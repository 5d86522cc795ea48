import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { addContext } from '../context/step';
import { createExcluder } from '../prompt/exclude';
import type { Corpus } from './corpus';

/**
 * The context of each eval case, as a review would send it: the case's folder is its repository (a case may hold
 * more files than the one it reviews: the definitions and callers the reviewed file needs). Eval sends the corpus's
 * code as it is (no redaction, no exclusion globs), the context too.
 */
export async function withCaseContext(corpus: Corpus, maxTokens: number): Promise<Corpus> {
  const cases = [];
  for (const c of corpus.cases) {
    // A case of one source file has no context to give: its folder is not indexed.
    const others = (await readdir(join(corpus.dir, c.id))).filter((f) => f !== 'expected.json' && f !== c.file);
    if (others.length === 0) {
      cases.push(c);
      continue;
    }
    const text = c.text.endsWith('\n') ? c.text.slice(0, -1) : c.text;
    const target = { kind: 'file' as const, label: c.file, regions: [{ file: c.file, language: c.language, text, startLine: 1, endLine: c.lines }] };
    const step = await addContext([target], { root: join(corpus.dir, c.id), cacheDir: undefined, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20, maxTokens, redactor: undefined });
    const context = step.targets[0]?.context ?? [];
    cases.push(context.length > 0 ? { ...c, context: context.map((s) => ({ ...s, file: `${c.id}/${s.file}`, forFile: `${c.id}/${s.forFile}` })) } : c);
  }
  return { ...corpus, cases };
}
