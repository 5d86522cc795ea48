/**
 * What a file may define and call, read off its text without parsing it: the names on lines that read like a
 * definition in one of the indexed languages (a keyword before the name, after modifiers, a type or a Go receiver;
 * a parameter list then a body, `throws`, `->` or `:` after it; a top-level `const`/`let`/`var` or assignment) and
 * the names in call position (`name(`, `name<T>(`, `name!(`, `.name`). A superset of what tree-sitter finds there,
 * as near to it as a pattern gets: the index reads every file this way (one scan, no child process) and parses only
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
/**
 * From a word's first character (the scans below try it only there: tried inside a word, a pattern would read the
 * rest of the word again at every letter): a defining word, then the chain of modifiers, types and receivers up to
 * and including the name (one line).
 */
const AFTER_KEYWORD = new RegExp(`(${DEFINING_WORDS})[ \\t]+(?=[\\w$(@<[*&]|::)((?:[\\w<>,.*&?:$@[\\]]+[ \\t]+|\\([^)\\n]*\\)[ \\t]*)*[A-Za-z_$][\\w$]*)`, 'y');
/**
 * After a name and blanks: a parameter list on the same line, then what opens a body or a return type; or `;` (a
 * method declared without a body, as in a Java or C# interface, when a type comes before the name); or the line's end.
 */
const WITH_BODY = /\([^)\n]*\)[ \t]*(?:\{|throws(?![\w$])|->|:|(;)|(\r?$))/my;
/** A top-level `const`/`let`/`var`, an assignment at the start of a line, or one of a capitalised name indented (a Go const block). */
const TOP_LEVEL = /^(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)[ \t]*=(?!=)|[ \t]+([A-Z][\w$]*)[ \t]*=(?!=))/my;
/**
 * After a name and blanks, what else puts it in call position: generics and `(` (`<Map<K, V>>(`) or a macro's `!(`
 * (besides a `(`, or a `.` before the name: `obj.name`, a Ruby call, a method reference).
 */
const CALL_TAIL = /<[^<>()\n]*(?:<[^<>()\n]*>[^<>()\n]*)*>[ \t]*\(|![ \t]*[([{]/y;
/** A Ruby singleton method: `def self.name`. */
const SINGLETON = /(?<![\w$])def[ \t]+[\w$]+\.([A-Za-z_$][\w$]*)/g;
/** A line that imports or names a package: the words on it are other files' names. */
const IMPORTING = /[ \t]*(?:import|package|use|using|from|require)[ \t]/y;
/** A type's word (then generics or `[]`, `?`) ending the line before a name. */
const TYPE_BEFORE = /([\w$]+)(?:<.*>|\[\])*\??[ \t]+$/;
/** `Type Interface<T>.` before a name: a C# explicit interface implementation, not a call on an object. */
const QUALIFIED_DEFINITION = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)[>\]?]*[ \t]+[A-Za-z_$][\w$]*(?:<.*>)?\.$/;

/** A line that is a comment (`//`, `#`, `/*`, or a doc comment's ` * `): its prose is not code ("a class to hold…"). */
const COMMENT_LINE = /(^|\n)[ \t]*(?:\/\/|\/\*(?![^\n]*\*\/[ \t]*[^\s/])|\*(?=[ \t/\r\n]|$)|#)[^\n]*/g;

/** `[\w$]` by character code (`\w` is ASCII); the scans below read the text by character code, not by pattern. */
const WORD_CHAR = new Uint8Array(128).map((_, c) => (/[\w$]/.test(String.fromCharCode(c)) ? 1 : 0));
const isWordChar = (c: number) => c < 128 && WORD_CHAR[c] === 1;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isBlank = (c: number) => c === 32 || c === 9;
/** The line breaks, as a pattern's `^` reads them. */
const LINE_BREAK = new Set(['\n', '\r', '\u2028', '\u2029'].map((c) => c.charCodeAt(0)));
/** The defining words' first characters. */
const DEFINING_START = new Set(DEFINING_WORDS.split('|').map((w) => w.charCodeAt(0)));
const [DOT, OPEN, LESS, GREATER, BANG, OPEN_BRACKET, BRACKET, QUESTION, NEWLINE] = '.(<>![]?\n'.split('').map((c) => c.charCodeAt(0));

const lineBefore = (text: string, at: number) => text.slice(text.lastIndexOf('\n', at - 1) + 1, at);

/** Whether the `<` at `at` opens type arguments that a parameter list follows (`Select<T, U>(`: a generic method's name before it). */
function genericParameters(text: string, at: number): boolean {
  let depth = 0;
  for (let k = at; k < text.length && text[k] !== '\n'; k++) {
    if (text[k] === '<') depth++;
    else if (text[k] === '>' && --depth === 0) {
      // Blanks then `(` within the next 39 characters.
      let j = k + 1;
      while (j < k + 40 && isBlank(text.charCodeAt(j))) j++;
      return j < k + 40 && text.charCodeAt(j) === OPEN;
    }
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
  IMPORTING.lastIndex = text.lastIndexOf('\n', m.index - 1) + 1;
  if (IMPORTING.test(text) && IMPORTING.lastIndex <= m.index) return;
  const chainEnd = m.index + m[0].length;
  let prev = m[1] as string;
  let depth = 0;
  let from = chainEnd - (m[2] as string).length;
  let closed = false;
  for (let at = from; at < chainEnd; at++) {
    // The chain's words, as `[A-Za-z_$][\w$]*` finds them: a digit starts none.
    const c = text.charCodeAt(at);
    if (!isWordChar(c) || isDigit(c)) continue;
    let end = at + 1;
    while (end < chainEnd && isWordChar(text.charCodeAt(end))) end++;
    const word = text.slice(at, end);
    // The chain ends with a name: the word that reaches its end is the last.
    const last = end === chainEnd;
    let colon = false;
    for (let k = from; k < at; k++) {
      const g = text[k];
      depth += g === '<' ? 1 : g === '>' ? -1 : 0;
      colon ||= g === ':';
    }
    if (depth <= 0 && ((INHERITS.has(word) && !last) || (colon && text.slice(from, at).replaceAll('::', '').includes(':')))) closed = true;
    from = end;
    const after = text[end];
    const typed = (after === ':' && text[end + 1] !== ':') || (after === '<' && genericParameters(text, end));
    const qualified = text[at - 1] === '.' || after === '.';
    if (!closed && depth <= 0 && !qualified && (NAMING.has(prev) || typed || last)) out.add(word, at);
    if (typed) closed = true;
    prev = word;
    at = end;
  }
}

/**
 * Whether `name(` at `at` reads like a call on an object (`obj.name(x)` at a line's end), not a definition: not after
 * `def self.` (a Ruby singleton method) nor `Type IFace.` (a C# explicit interface implementation), read by hand but
 * after a `>` (`QUALIFIED_DEFINITION`).
 */
function calledOnObject(text: string, at: number): boolean {
  if (text.charCodeAt(at - 1) !== DOT) return false;
  if (text.charCodeAt(at - 2) === GREATER) {
    const q = QUALIFIED_DEFINITION.exec(lineBefore(text, at));
    return !q || BEFORE_CALL.has(q[1] as string);
  }
  // The word before the `.`, and the blanks before it.
  let w = at - 1;
  while (isWordChar(text.charCodeAt(w - 1))) w--;
  let k = w;
  while (isBlank(text.charCodeAt(k - 1))) k--;
  if (k === w || w === at - 1) return true;
  if (k >= 3 && text.startsWith('def', k - 3) && !isWordChar(text.charCodeAt(k - 4))) return false;
  // `Type`, maybe `>`, `]` or `?`, then the blanks: its word starts after neither a word's character nor a `.`.
  let t = k;
  for (let c = text.charCodeAt(t - 1); c === GREATER || c === BRACKET || c === QUESTION; c = text.charCodeAt(t - 1)) t--;
  let q = t;
  while (isWordChar(text.charCodeAt(q - 1))) q--;
  const named = q < t && !isDigit(text.charCodeAt(q)) && text.charCodeAt(q - 1) !== DOT && !isDigit(text.charCodeAt(w));
  return !named || BEFORE_CALL.has(text.slice(q, t));
}

/**
 * Whether `name(…)` ending the line at `end` is a call whose statement goes on (`assertThat(x)` then `.isEqualTo(y)`,
 * a call whose arguments hold a call, an annotation): a definition there has its body's `{` or its `throws` next (C#,
 * Java in Allman style, a long Java signature).
 */
const continuedCall = (text: string, end: number) => !/^\s*(?:\{|throws(?![\w$]))/.test(text.slice(end, end + 200));

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

/**
 * Whether a type's word ends the line before `at` (`void ` in `void run() {`), not a word that starts a statement:
 * the word before `[]`, `?` and blanks, read by hand on a line without `<` before it (`TYPE_BEFORE`).
 */
function afterType(text: string, at: number): boolean {
  let k = at;
  while (isBlank(text.charCodeAt(k - 1))) k--;
  if (k === at) return false;
  let end = k;
  if (text.charCodeAt(end - 1) === QUESTION) end--;
  while (text.charCodeAt(end - 1) === BRACKET && text.charCodeAt(end - 2) === OPEN_BRACKET) end -= 2;
  let start = end;
  while (isWordChar(text.charCodeAt(start - 1))) start--;
  // Without a word there, only generics (`<…>`) may end the type.
  if (start === end && text.charCodeAt(end - 1) !== GREATER) return false;
  let line = start;
  while (line > 0 && text.charCodeAt(line - 1) !== NEWLINE && text.charCodeAt(line - 1) !== LESS) line--;
  const generic = line > 0 && text.charCodeAt(line - 1) === LESS;
  const word = generic ? TYPE_BEFORE.exec(lineBefore(text, at))?.[1] : start < end ? text.slice(start, end) : undefined;
  return word !== undefined && !BEFORE_CALL.has(word) && !KEYWORDS.has(word);
}

/** Reads the name of `TOP_LEVEL` at the start of a line, `line`. */
function topLevelAt(text: string, line: number, defines: Defined): void {
  TOP_LEVEL.lastIndex = line;
  const m = TOP_LEVEL.exec(text);
  if (m) defines.add((m[1] ?? m[2] ?? m[3]) as string);
}

/** Reads the chain of the defining word at `at` (`AFTER_KEYWORD`): where its match ends, -1 when there is none. */
function chainAt(text: string, at: number, defines: Defined): number {
  AFTER_KEYWORD.lastIndex = at;
  const m = AFTER_KEYWORD.exec(text);
  if (!m) return -1;
  chainNames(text, m, defines);
  return AFTER_KEYWORD.lastIndex;
}

/**
 * Reads the name from `at` to `end`, a parameter list at `open` after it (`WITH_BODY`): defined there when it is not
 * a keyword nor a call on an object, and a type comes before it or it ends a line that does not go on. Where the
 * match ends, -1 when there is none.
 */
function bodyAt(text: string, at: number, end: number, open: number, defines: Defined): number {
  WITH_BODY.lastIndex = open;
  const m = WITH_BODY.exec(text);
  if (!m) return -1;
  const name = text.slice(at, end);
  if (KEYWORDS.has(name) || calledOnObject(text, at)) return WITH_BODY.lastIndex;
  const typed = afterType(text, at);
  if (m[1] !== undefined ? typed : !(m[2] !== undefined && continuedCall(text, WITH_BODY.lastIndex))) defines.add(name, typed ? at : undefined);
  return WITH_BODY.lastIndex;
}

/**
 * Where the match of a name in call position ends (-1: not in call position), for the name ending at `end`, what
 * comes before it and blanks at `before`, and what follows it after blanks at `next`: after the name when a `.` comes
 * before it, after the `(` when one is next, or after `CALL_TAIL`.
 */
function callEnd(text: string, before: number, end: number, next: number): number {
  if (text.charCodeAt(before) === DOT) return end;
  const c = text.charCodeAt(next);
  if (c === OPEN) return next + 1;
  if (c !== LESS && c !== BANG) return -1;
  CALL_TAIL.lastIndex = next;
  return CALL_TAIL.test(text) ? CALL_TAIL.lastIndex : -1;
}

/**
 * Reads the text word by word, at each name's first character, as `TOP_LEVEL`, `AFTER_KEYWORD` (a chain's names),
 * `WITH_BODY` (a name defined before its parameters) and `callEnd` (a name in call position, not a keyword) scanning
 * it would find them: each from where its last match ended (a name inside one, `<a.b>(`, is not read again). Each
 * definition is read at or after the word where its match starts: those at a name are known when its call is read.
 */
function wordNames(text: string, defines: Defined, calls: Set<string>, ruby: boolean): void {
  // Where each pattern's next match may start (its last one ended there).
  let [chainFree, bodyFree, callFree] = [0, 0, 0];
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (!isWordChar(c)) continue;
    let end = at + 1;
    while (isWordChar(text.charCodeAt(end))) end++;
    let next = end;
    while (isBlank(text.charCodeAt(next))) next++;
    let before = at - 1;
    while (isBlank(text.charCodeAt(before))) before--;
    if (!isDigit(c)) {
      // `TOP_LEVEL` at the line's start, when its first word starts it or is capitalised.
      if ((before === at - 1 || (c >= 65 && c <= 90)) && (before < 0 || LINE_BREAK.has(text.charCodeAt(before)))) topLevelAt(text, before + 1, defines);
      const chain = at >= chainFree && next > end && DEFINING_START.has(c) ? chainAt(text, at, defines) : -1;
      if (chain !== -1) chainFree = chain;
      const body = at >= bodyFree && text.charCodeAt(next) === OPEN ? bodyAt(text, at, end, next, defines) : -1;
      if (body !== -1) bodyFree = body;
      const called = at >= callFree ? callEnd(text, before, end, next) : -1;
      if (called !== -1) {
        callFree = called;
        const name = text.slice(at, end);
        // Ruby calls a method without parentheses (`cleanup path`): the name of a definition stays a call there.
        if (!KEYWORDS.has(name) && (ruby || !defines.at.has(at))) calls.add(name);
      }
    }
    at = end;
  }
}

/** The names `text` may define and call (each once). About 90 MB/s on one core: the cost of a first review in a large repository. */
export function lexicalNames(source: string, language: string): LexicalNames {
  const text = source.replace(COMMENT_LINE, '$1');
  const defines = new Defined();
  const calls = new Set<string>();
  if (text.includes('def ') || text.includes('def\t')) {
    for (const m of text.matchAll(SINGLETON)) defines.add(m[1] as string, m.index + m[0].length - (m[1] as string).length);
  }
  wordNames(text, defines, calls, language === 'ruby');
  return { defines: [...defines.names], calls: [...calls] };
}
