import ignore from 'ignore';

/**
 * Which paths a `.gitattributes` text marks `linguist-generated`, for sources that cannot ask git
 * (`git check-attr`): the Git extension's API. Patterns follow gitignore's matching; the last line that
 * matches a path decides (`-linguist-generated` or `=false` unsets). Only the repository root's file is read.
 */
export function generatedByAttributes(text: string, paths: readonly string[]): Set<string> {
  const rules: { matches: (path: string) => boolean; set: boolean }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern, ...attrs] = line.split(/\s+/);
    if (!pattern || pattern.startsWith('!')) continue;
    let set: boolean | undefined;
    for (const a of attrs) {
      if (a === 'linguist-generated' || a === 'linguist-generated=true') set = true;
      else if (a === '-linguist-generated' || a === '!linguist-generated' || a === 'linguist-generated=false') set = false;
    }
    if (set === undefined) continue;
    const ig = ignore().add(pattern);
    rules.push({ matches: (p) => ig.ignores(p), set });
  }
  const out = new Set<string>();
  if (rules.length === 0) return out;
  for (const p of paths) {
    let generated = false;
    for (const r of rules) if (r.matches(p)) generated = r.set;
    if (generated) out.add(p);
  }
  return out;
}
