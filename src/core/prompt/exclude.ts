import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

/**
 * Files that are never sent: `.quorumignore` at the repository root (gitignore syntax) and the
 * `quorum.privacy.exclude` globs. Paths are relative to the repository root, with `/` separators.
 */

export interface ExclusionRule {
  /** Where the rule comes from. */
  source: '.quorumignore' | 'quorum.privacy.exclude';
  /** The pattern as written. */
  pattern: string;
}

export interface Excluder {
  /** The rule that keeps `relativePath` from being sent, or undefined when it may be sent. */
  match: (relativePath: string) => ExclusionRule | undefined;
}

/** A file of a changes review that is not sent, and why. */
interface SkippedFile {
  file: string;
  reason: 'excluded';
  rule: ExclusionRule;
}

interface GlobRule {
  pattern: string;
  test: (path: string) => boolean;
}

function normalize(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');
}

/** `.quorumignore` lines, each as its own matcher so that the rule that matched can be named. */
function ignoreRules(text: string): { pattern: string; ig: Ignore }[] {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\s+$/, ''));
  const out: { pattern: string; ig: Ignore }[] = [];
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    out.push({ pattern: line, ig: ignore().add(line) });
  }
  return out;
}

/**
 * Whether a path may match one of `patterns`: one regular expression for all of them (and one for the basenames of
 * those without a slash), tried before each pattern's own matcher, which then names the rule. The repository index
 * asks about each of a repository's files, and 25 matchers a path were a tenth of a warm review's context.
 */
function globPrefilter(patterns: readonly string[]): (path: string) => boolean {
  const options = { dot: true, nocase: true };
  const one = (list: readonly string[]) => (list.length === 0 ? undefined : new RegExp(list.map((p) => `(?:${picomatch.makeRe(p, options).source})`).join('|'), 'i'));
  let whole: RegExp | undefined;
  let base: RegExp | undefined;
  try {
    whole = one(patterns);
    base = one(patterns.filter((p) => !p.includes('/')));
  } catch {
    return () => true;
  }
  const literal = new Set(patterns);
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return literal.has(path) || literal.has(name) || whole?.test(path) === true || base?.test(name) === true;
  };
}

export function createExcluder(options: { quorumignore?: string; globs: readonly string[] }): Excluder {
  const whole = ignore().add(options.quorumignore ?? '');
  const single = ignoreRules(options.quorumignore ?? '');
  const globs: GlobRule[] = options.globs.map((pattern) => {
    const isMatch = picomatch(pattern, { dot: true, nocase: true });
    // A pattern without a slash matches the file name at any depth, as in .gitignore.
    const base = pattern.includes('/') ? undefined : picomatch(pattern, { dot: true, nocase: true, basename: true });
    return { pattern, test: (p) => isMatch(p) || (base !== undefined && base(p)) };
  });
  const mayMatch = globPrefilter(options.globs);
  return {
    match(relativePath) {
      const path = normalize(relativePath);
      if (path === '' || path.startsWith('../')) return undefined;
      const glob = mayMatch(path) ? globs.find((g) => g.test(path)) : undefined;
      if (glob) return { source: 'quorum.privacy.exclude', pattern: glob.pattern };
      // Without a .quorumignore rule nothing is asked of `ignore` (the repository index asks for every file).
      if (single.length > 0 && whole.ignores(path)) {
        // The last line that matches decides in gitignore; name the last positive one that ignores the path.
        const hit = [...single].reverse().find((r) => !r.pattern.startsWith('!') && r.ig.ignores(path));
        return { source: '.quorumignore', pattern: hit?.pattern ?? path };
      }
      return undefined;
    },
  };
}

/** Splits the files of a review into those that may be sent and those that are skipped, with the rule. */
export function partitionExcluded<T extends { file: string }>(items: readonly T[], excluder: Excluder, relative: (file: string) => string = (f) => f): { kept: T[]; skipped: SkippedFile[] } {
  const kept: T[] = [];
  const skipped: SkippedFile[] = [];
  for (const item of items) {
    const rule = excluder.match(relative(item.file));
    if (rule) skipped.push({ file: item.file, reason: 'excluded', rule });
    else kept.push(item);
  }
  return { kept, skipped };
}
