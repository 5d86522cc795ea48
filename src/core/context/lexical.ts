/**
 * What a file may define and call, read off its text without parsing it: the names on lines that read like a
 * definition in one of the indexed languages (a keyword before the name, after modifiers, a type or a Go receiver;
 * a parameter list then a body, `throws`, `->` or `:` after it; a top-level `const`/`let`/`var` or assignment) and
 * the names in call position (`name(`, `name<T>(`, `name!(`, `.name`). A superset of what tree-sitter finds there,
 * as near to it as a pattern gets: the index reads every file this way (one pass, no child process) and parses only
 * the files a lookup reaches, so each name read as defined where it is not costs a parse (a type in a Java field's
 * declaration read as defined made `String` a candidate in most files of a Java repository).
 */

interface LexicalNames {
  /** Names the file may define. */
  defines: string[];
  /** Names the file may call. */
  calls: string[];
}

/** Words that start a definition; a name after one of them (and after modifiers, types, a receiver) may be defined there. */
const DEFINING_WORDS = 'def|function|func|fn|class|struct|interface|type|enum|trait|module|impl|record|static|public|private|protected|internal|macro_rules';
/** Defining words that the defined name follows (the others are modifiers: a type or another modifier follows them). */
const NAMING = new Set(['def', 'function', 'func', 'fn', 'class', 'struct', 'interface', 'type', 'enum', 'trait', 'module', 'record', 'macro_rules']);
/** Words that never name what a file defines or calls. */
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'typeof', 'sizeof', 'await', 'new', 'super', 'this']);
/** Words after which a declaration names its bases: what follows is not defined there. */
const INHERITS = new Set(['extends', 'implements', 'with', 'for', 'where', 'throws']);
/** Words before `obj.name(` that make it a call however the line ends (`return self.run(x)`). */
const BEFORE_CALL = new Set([
  'return', 'await', 'yield', 'throw', 'raise', 'new', 'else', 'not', 'and', 'or', 'in', 'is', 'if', 'elif', 'unless', 'while', 'until', 'case', 'when', 'match',
  'with', 'assert', 'lambda', 'except', 'do', 'then', 'puts', 'echo', 'print', 'go', 'defer', 'let', 'var', 'const', 'val',
]);
const WORD = /[A-Za-z_$][\w$]*/g;
// Each pattern starts only at a word's first character (the look-behind): tried inside a word, it would read the
// rest of the word again at every letter.
/** A defining word, then the chain of modifiers, types and receivers up to and including the name (one line). */
const AFTER_KEYWORD = new RegExp(`(?<![\\w$])(${DEFINING_WORDS})[ \\t]+(?=[\\w$(@<[*&]|::)((?:[\\w<>,.*&?:$@[\\]]+[ \\t]+|\\([^)\\n]*\\)[ \\t]*)*[A-Za-z_$][\\w$]*)`, 'g');
/**
 * A name, a parameter list on the same line, then what opens a body or a return type; or `;` (a method declared
 * without a body, as in a Java or C# interface, when a type comes before the name).
 */
const WITH_BODY = /(?<![\w$])([A-Za-z_$][\w$]*)[ \t]*\([^)\n]*\)[ \t]*(?:\{|throws(?![\w$])|->|:|(;)|\r?$)/gm;
/** A top-level `const`/`let`/`var`, an assignment at the start of a line, or of a capitalised name indented (a Go const block). */
const TOP_LEVEL = /^(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)[ \t]*=(?!=)|[ \t]+([A-Z][\w$]*)[ \t]*=(?!=))/gm;
/** A name before `(`, generics and `(` (`<Map<K, V>>(`) or a macro's `!(`; or after a `.` (`obj.name`: a Ruby call, a method reference). */
const CALLED = /(?<![\w$])([A-Za-z_$][\w$]*)[ \t]*(?:\(|<[^<>()\n]*(?:<[^<>()\n]*>[^<>()\n]*)*>[ \t]*\(|![ \t]*[([{])|\.[ \t]*([A-Za-z_$][\w$]*)/g;
/** A Ruby singleton method: `def self.name`. */
const SINGLETON = /(?<![\w$])def[ \t]+[\w$]+\.([A-Za-z_$][\w$]*)/g;
/** A line that imports or names a package: the words on it are other files' names. */
const IMPORTING = /^[ \t]*(?:import|package|use|using|from|require)[ \t]/;
/** `Type Interface.` before a name: a C# explicit interface implementation, not a call on an object. */
const QUALIFIED_DEFINITION = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)[>\]?]*[ \t]+[A-Za-z_$][\w$]*(?:<.*>)?\.$/;

/** A line that is a comment (`//`, `#`, `/*`, or a doc comment's ` * `): its prose is not code ("a class to hold…"). */
const COMMENT_LINE = /(^|\n)[ \t]*(?:\/\/|\/\*(?![^\n]*\*\/[ \t]*[^\s/])|\*(?=[ \t/\r\n]|$)|#)[^\n]*/g;

const lineBefore = (text: string, at: number) => text.slice(text.lastIndexOf('\n', at - 1) + 1, at);

/** Whether the `<` at `at` opens type arguments that a parameter list follows (`Select<T, U>(`: a generic method's name before it). */
function genericParameters(text: string, at: number): boolean {
  let depth = 0;
  for (let k = at; k < text.length && text[k] !== '\n'; k++) {
    if (text[k] === '<') depth++;
    else if (text[k] === '>' && --depth === 0) return /^[ \t]*\(/.test(text.slice(k + 1, k + 40));
  }
  return false;
}

/**
 * The names of a defining word's chain that may be what it defines: the word after a naming keyword (`class Foo`),
 * one before a type annotation (`static COUNT: usize`) or type parameters and a parameter list (`Select<T>(`), and
 * the chain's last word — never a word inside generic arguments, nor a part of a qualified name (`import static
 * org.x.Y`), nor a modifier or type, nor anything after a type annotation or a base (`extends Base`, `: Base`).
 */
function chainNames(text: string, m: RegExpExecArray, out: Defined): void {
  const at0 = m.index;
  if (IMPORTING.test(lineBefore(text, at0))) return;
  const chain = m[2] as string;
  const chainAt = at0 + m[0].length - chain.length;
  const words = [...chain.matchAll(WORD)];
  let prev = m[1] as string;
  let depth = 0;
  let from = 0;
  let closed = false;
  words.forEach((w, i) => {
    const at = w.index;
    for (let k = from; k < at; k++) depth += chain[k] === '<' ? 1 : chain[k] === '>' ? -1 : 0;
    if (depth <= 0 && ((INHERITS.has(w[0]) && i < words.length - 1) || chain.slice(from, at).replaceAll('::', '').includes(':'))) closed = true;
    from = at + w[0].length;
    const after = text[chainAt + from];
    const typed = (after === ':' && text[chainAt + from + 1] !== ':') || (after === '<' && genericParameters(text, chainAt + from));
    const qualified = chain[at - 1] === '.' || after === '.';
    if (!closed && depth <= 0 && !qualified && (NAMING.has(prev) || typed || i === words.length - 1)) out.add(w[0], chainAt + at);
    if (typed) closed = true;
    prev = w[0];
  });
}

/** Whether `name(` at `at` reads like a call on an object (`obj.name(x)` at a line's end), not a definition. */
function calledOnObject(text: string, at: number): boolean {
  if (text[at - 1] !== '.') return false;
  const before = lineBefore(text, at);
  // `def self.name(`: a Ruby singleton method; `Type IFace.Name(`: a C# explicit interface implementation.
  if (/(?:^|[^\w$])def[ \t]+[\w$]+\.$/.test(before)) return false;
  const q = QUALIFIED_DEFINITION.exec(before);
  return !q || BEFORE_CALL.has(q[1] as string);
}

/**
 * Whether `name(…)` at a line's end is a call whose statement goes on (`assertThat(x)` then `.isEqualTo(y)`, a call
 * whose arguments hold a call, an annotation): a definition there has its body's `{` or its `throws` next (C#, Java in
 * Allman style, a long Java signature).
 */
function continuedCall(text: string, m: RegExpExecArray): boolean {
  // Ended by a body, `throws`, `->` or `:`: not at the line's end.
  if (!m[0].trimEnd().endsWith(')')) return false;
  const end = m.index + m[0].length;
  return !/^\s*(?:\{|throws(?![\w$]))/.test(text.slice(end, end + 200));
}

/**
 * The names read as defined, and where a definition is certain (after a defining word or a type): a name in call
 * position there (`void run() {`) is not also a call. One that may be a call (`if ok(x):`, Ruby's `get(path) {`) is
 * both.
 */
class Defined {
  readonly names = new Set<string>();
  readonly at = new Set<number>();
  add(name: string, at?: number): void {
    this.names.add(name);
    if (at !== undefined) this.at.add(at);
  }
}

/** Whether a type's word ends the line before `at` (`void ` in `void run() {`), not a word that starts a statement. */
function afterType(text: string, at: number): boolean {
  const word = /([\w$]+)(?:<.*>|\[\])*\??[ \t]+$/.exec(lineBefore(text, at))?.[1];
  return word !== undefined && !BEFORE_CALL.has(word) && !KEYWORDS.has(word);
}

/** The names `text` may define and call (each once). About 40 MB/s: the cost of a first review in a large repository. */
export function lexicalNames(source: string, language: string): LexicalNames {
  const text = source.replace(COMMENT_LINE, '$1');
  const defines = new Defined();
  const calls = new Set<string>();
  for (const m of text.matchAll(TOP_LEVEL)) {
    const name = (m[1] ?? m[2] ?? m[3]) as string;
    defines.add(name);
  }
  for (const m of text.matchAll(AFTER_KEYWORD)) chainNames(text, m, defines);
  for (const m of text.matchAll(SINGLETON)) defines.add(m[1] as string, m.index + m[0].length - (m[1] as string).length);
  for (const m of text.matchAll(WITH_BODY)) {
    const name = m[1] as string;
    const at = m.index;
    if (KEYWORDS.has(name) || calledOnObject(text, at)) continue;
    const typed = afterType(text, at);
    if (m[2] !== undefined ? typed : !continuedCall(text, m)) defines.add(name, typed ? at : undefined);
  }
  for (const m of text.matchAll(CALLED)) {
    const name = (m[1] ?? m[2]) as string;
    const at = m[1] !== undefined ? m.index : m.index + m[0].length - name.length;
    // Ruby calls a method without parentheses (`cleanup path`): the name of a definition stays a call there.
    if (!KEYWORDS.has(name) && (language === 'ruby' || !defines.at.has(at))) calls.add(name);
  }
  return { defines: [...defines.names], calls: [...calls] };
}
