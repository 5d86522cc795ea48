/**
 * What a file may define and call, read off its text without parsing it: the names on lines that read like a
 * definition in one of the indexed languages (a keyword before the name, after modifiers, a type or a Go receiver;
 * a parameter list then a body, `throws`, `->` or `:` after it; a top-level `const`/`let`/`var` or assignment) and
 * the names in call position (`name(`, `name<T>(`, `name!(`, `.name`). A superset of what tree-sitter finds there:
 * the index reads every file this way (one pass, no child process) and parses only the files a lookup reaches.
 */

interface LexicalNames {
  /** Names the file may define. */
  defines: string[];
  /** Names the file may call. */
  calls: string[];
}

/** Words that start a definition; a name after one of them (and after modifiers, types, a receiver) may be defined there. */
const DEFINING_WORDS = 'def|function|func|fn|class|struct|interface|type|enum|trait|module|impl|record|static|public|private|protected|internal|macro_rules';
/** Words that never name what a file defines or calls. */
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'typeof', 'sizeof', 'await', 'new', 'super', 'this']);
const WORD = /[A-Za-z_$][\w$]*/g;
// Each pattern starts only at a word's first character (the look-behind): tried inside a word, it would read the
// rest of the word again at every letter.
/** A defining word, then the chain of modifiers, types and receivers up to and including the name (one line). */
const AFTER_KEYWORD = new RegExp(`(?<![\\w$])(?:${DEFINING_WORDS})[ \\t]+((?:[\\w<>,.*&?:$]+[ \\t]+|\\([^)\\n]*\\)[ \\t]*)*[A-Za-z_$][\\w$]*)`, 'g');
/** A name, a parameter list on the same line, then what opens a body or a return type. */
const WITH_BODY = /(?<![\w$])([A-Za-z_$][\w$]*)[ \t]*\([^)\n]*\)[ \t]*(?:\{|throws(?![\w$])|->|:|\r?$)/gm;
/** A top-level `const`/`let`/`var`, an assignment at the start of a line, or of a capitalised name indented (a Go const block). */
const TOP_LEVEL = /^(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)[ \t]*=(?!=)|[ \t]+([A-Z][\w$]*)[ \t]*=(?!=))/gm;
/** A name before `(`, generics and `(` (`<Map<K, V>>(`) or a macro's `!(`; or after a `.` (`obj.name`: a Ruby call, a method reference). */
const CALLED = /(?<![\w$])([A-Za-z_$][\w$]*)[ \t]*(?:\(|<[^<>()\n]*(?:<[^<>()\n]*>[^<>()\n]*)*>[ \t]*\(|![ \t]*[([{])|\.[ \t]*([A-Za-z_$][\w$]*)/g;

/** The names `text` may define and call (each once). About 40 MB/s: the cost of a first review in a large repository. */
export function lexicalNames(text: string): LexicalNames {
  const defines = new Set<string>();
  const calls = new Set<string>();
  for (const m of text.matchAll(TOP_LEVEL)) defines.add((m[1] ?? m[2] ?? m[3]) as string);
  for (const m of text.matchAll(AFTER_KEYWORD)) for (const [w] of (m[1] as string).matchAll(WORD)) defines.add(w);
  for (const m of text.matchAll(WITH_BODY)) if (!KEYWORDS.has(m[1] as string)) defines.add(m[1] as string);
  for (const m of text.matchAll(CALLED)) {
    const name = (m[1] ?? m[2]) as string;
    if (!KEYWORDS.has(name)) calls.add(name);
  }
  return { defines: [...defines], calls: [...calls] };
}
