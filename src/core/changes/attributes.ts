import pLimit from 'p-limit';
import picomatch from 'picomatch';

/**
 * What git attributes say of changed files, as far as a review of changes cares: which are generated
 * (`linguist-generated`) and which git diffs as binary (`diff` unset: `-diff`, or the `binary` macro). The
 * command line asks git (`git check-attr`); this reader is for sources that cannot (the Git extension's API)
 * and for sides git cannot be asked about (a commit, with git before 2.40). It reads every `.gitattributes`
 * from the repository's root down to each file's folder, as git does: patterns are relative to the file's
 * folder, a pattern without a slash matches a name at any depth below it, a pattern never matches the files
 * inside a folder it names (`dir/**` does), deeper files and later lines win, attribute by attribute. The
 * repository-wide files, whose patterns are relative to the root, are read when the source gives their texts, with
 * git's precedence: the `core.attributesFile` (global) below every `.gitattributes`, `$GIT_DIR/info/attributes`
 * above them all. Not read: the system-wide file, macros other than `binary`, quoted patterns.
 */
export interface ChangeAttributes {
  generated: Set<string>;
  binary: Set<string>;
}

/** An attribute's state: set, unset, a value, or unspecified again (`!attr`). */
type AttrState = true | false | string | undefined;

interface AttrRule {
  matches: (path: string) => boolean;
  assign: [string, AttrState][];
}

const WANTED = new Set(['linguist-generated', 'diff']);
/** Files read at once, unless the reader batches them itself. */
const PARALLEL = 4;

function assignments(tokens: readonly string[]): [string, AttrState][] {
  const out: [string, AttrState][] = [];
  for (const t of tokens) {
    if (t === 'binary') out.push(['diff', false]); // the built-in macro: -diff -merge -text
    else if (t.startsWith('-')) out.push([t.slice(1), false]);
    else if (t.startsWith('!')) out.push([t.slice(1), undefined]);
    else {
      const eq = t.indexOf('=');
      out.push(eq < 0 ? [t, true] : [t.slice(0, eq), t.slice(eq + 1)]);
    }
  }
  return out.filter(([name]) => WANTED.has(name));
}

/** The rules of the `.gitattributes` in folder `dir` ('' for the root). */
function rulesOf(dir: string, text: string): AttrRule[] {
  const rules: AttrRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('"') || line.startsWith('[attr]')) continue;
    const [pattern = '', ...tokens] = line.split(/\s+/);
    // Negative patterns are forbidden in attributes files; a trailing slash names a folder, never a file.
    if (pattern.startsWith('!') || pattern.endsWith('/')) continue;
    const assign = assignments(tokens);
    if (assign.length === 0) continue;
    const prefix = dir === '' ? '' : `${dir}/`;
    let matches: (path: string) => boolean;
    if (!pattern.includes('/')) {
      const name = picomatch(pattern, { dot: true });
      matches = (p) => p.startsWith(prefix) && name(p.slice(p.lastIndexOf('/') + 1));
    } else {
      const full = picomatch(pattern.replace(/^\//, ''), { dot: true });
      matches = (p) => p.startsWith(prefix) && full(p.slice(prefix.length));
    }
    rules.push({ matches, assign });
  }
  return rules;
}

/** The folders whose `.gitattributes` apply to `path`, root first. */
function foldersOf(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return ['', ...parts.map((_, i) => parts.slice(0, i + 1).join('/'))];
}

/** The texts of the attribute files that apply to the whole repository (patterns relative to its root). */
export interface RepositoryAttributeFiles {
  /** The file `core.attributesFile` names (or git's default, `~/.config/git/attributes`): lowest precedence. */
  global?: string;
  /** `$GIT_DIR/info/attributes` (the common git folder's, in a linked worktree): highest precedence. */
  info?: string;
}

/**
 * The attributes of `paths` (repository-relative, forward slashes) from the `.gitattributes` files that `read`
 * gives (`read('src/.gitattributes')`; undefined when there is none) and the repository-wide files' texts (read
 * meanwhile when given as a promise), with at most `parallel` reads at once (a reader that batches its reads, as one
 * `git cat-file`, takes them all at once).
 */
export async function attributesOf(paths: readonly string[], read: (file: string) => Promise<string | undefined>, repository: RepositoryAttributeFiles | Promise<RepositoryAttributeFiles> = {}, parallel = PARALLEL): Promise<ChangeAttributes> {
  const folders = [...new Set(paths.flatMap(foldersOf))];
  const limit = pLimit(parallel);
  const [folderRules, repositoryFiles] = await Promise.all([
    Promise.all(folders.map((dir) => limit(async () => [dir, rulesOf(dir, (await read(dir === '' ? '.gitattributes' : `${dir}/.gitattributes`).catch(() => undefined)) ?? '')] as const))),
    repository,
  ]);
  const rules = new Map(folderRules);
  const [global, info] = [rulesOf('', repositoryFiles.global ?? ''), rulesOf('', repositoryFiles.info ?? '')];
  const out: ChangeAttributes = { generated: new Set(), binary: new Set() };
  for (const path of paths) {
    const state = new Map<string, AttrState>();
    // Lowest precedence first: a later rule wins.
    const layers = [global, ...foldersOf(path).map((dir) => rules.get(dir) ?? []), info];
    for (const layer of layers) {
      for (const rule of layer) if (rule.matches(path)) for (const [name, value] of rule.assign) state.set(name, value);
    }
    const generated = state.get('linguist-generated');
    if (generated === true || generated === 'true') out.generated.add(path);
    if (state.get('diff') === false) out.binary.add(path);
  }
  return out;
}
