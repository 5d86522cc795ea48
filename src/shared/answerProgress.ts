import type { Severity } from './severity';
import { SEVERITIES } from './severity';
import { CODE_KEYS as CODES, SEVERITY_KEYS as SEVERITY_WORDS, TITLE_KEYS as TITLES } from './answerKeys';
import { isOneOf } from './guards';

/**
 * What a streamed JSON answer has said so far, read tolerantly and incrementally (each call costs what
 * arrived since the last one): the findings whose title is complete, with their severity when given, and for
 * an improved-code answer how many lines of code have arrived. The panel shows this while an agent streams,
 * instead of half a JSON document.
 *
 * It is a small tokenizer, not a parser: strings (with escapes), braces, brackets and colons. Every object
 * in a list that gets a title key is one finding. The JSON starts at the first `{` or `[` that opens a line (after
 * prose or a code fence's opening line), so prose before it does not confuse the count.
 */

const TITLE_KEYS: ReadonlySet<string> = new Set(TITLES);
const SEVERITY_KEYS: ReadonlySet<string> = new Set(SEVERITY_WORDS);
const CODE_KEYS: ReadonlySet<string> = new Set(CODES);
/** Longer titles are cut (the finding itself is shown in full once the agent is done). */
const MAX_TITLE = 200;
/** At most this many titles are kept (a runaway answer still counts, but the list stays short). */
const MAX_TITLES = 50;

interface ProgressFinding {
  title: string;
  severity?: Severity;
}

interface ObjectRecord {
  /** Findings are objects in a list: `[{…}, …]` or `{"findings": [{…}]}`. */
  inList: boolean;
  finding?: ProgressFinding;
  severity?: Severity;
}

function severityOf(word: string): Severity | undefined {
  const w = word.trim().toLowerCase();
  return isOneOf(SEVERITIES, w) ? w : undefined;
}

export class AnswerProgress {
  /** Findings whose title is complete, in order (at most MAX_TITLES). */
  readonly findings: ProgressFinding[] = [];
  /** Every object with a title so far (may exceed `findings.length`). */
  count = 0;
  /** Lines of code in an improved-code value so far (0 when none). */
  codeLines = 0;
  /** Whether a JSON value has started (the answer is, or contains, JSON). */
  json = false;

  private text = '';
  /** Scanned up to here. */
  private pos = 0;
  /** Where JSON was looked for last (a line start). */
  private lineStart = 0;
  private inString = false;
  private escape = false;
  private unicode = -1;
  private current = '';
  private capture = false;
  private lastString: string | undefined;
  private key: string | undefined;
  private readonly stack: ('{' | '[')[] = [];
  private readonly objects: ObjectRecord[] = [];
  private inCode = false;

  /** Reads `full` (the whole answer so far); cheap when it extends what was read. */
  update(full: string): this {
    if (!full.startsWith(this.text)) this.reset();
    this.text = full;
    if (!this.json) this.findStart();
    if (this.json) this.scan();
    return this;
  }

  private reset(): void {
    this.findings.length = 0;
    this.count = 0;
    this.codeLines = 0;
    this.json = false;
    this.text = '';
    this.pos = 0;
    this.lineStart = 0;
    this.inString = false;
    this.escape = false;
    this.unicode = -1;
    this.current = '';
    this.capture = false;
    this.lastString = undefined;
    this.key = undefined;
    this.stack.length = 0;
    this.objects.length = 0;
    this.inCode = false;
  }

  /** Looks at each complete or current line for one that opens with `{` or `[`. */
  private findStart(): void {
    const text = this.text;
    while (this.lineStart < text.length) {
      const line = /^[ \t]*/.exec(text.slice(this.lineStart, this.lineStart + 200));
      const at = this.lineStart + (line?.[0].length ?? 0);
      // `{"…` or `[{…` (a Markdown link `[text](…)` or `{braces}` in prose are not JSON); wait while undecided.
      const opening = /^(?:\{\s*(?:"|\}|$)|\[\s*(?:\{|\]|$))/.exec(text.slice(at, at + 200));
      if (opening) {
        if (!/["{}\]]/.test(opening[0].slice(1))) return;
        this.json = true;
        this.pos = at;
        return;
      }
      const nl = text.indexOf('\n', this.lineStart);
      if (nl < 0) return;
      this.lineStart = nl + 1;
    }
  }

  private scan(): void {
    const text = this.text;
    for (let i = this.pos; i < text.length; i++) {
      const c = text.charAt(i);
      if (this.inString) this.stringChar(c);
      else this.structureChar(c);
    }
    this.pos = text.length;
  }

  /** A character inside a string: escapes, the string's end, code lines, and the kept text of a title or severity. */
  private stringChar(c: string): void {
    if (this.unicode >= 0) {
      if (--this.unicode < 0 && this.capture) this.current += ' ';
      return;
    }
    if (this.escape) {
      this.escape = false;
      if (c === 'u') this.unicode = 4;
      else if (c === 'n' && this.inCode) this.codeLines++;
      else if (this.capture) this.current += c === 'n' || c === 't' || c === 'r' ? ' ' : c;
      return;
    }
    if (c === '\\') {
      this.escape = true;
    } else if (c === '"') {
      this.inString = false;
      this.endString(this.current);
    } else if (c === '\n' && this.inCode) {
      this.codeLines++;
    } else if (this.capture && this.current.length < MAX_TITLE + 1) {
      this.current += c;
    }
  }

  /** A character outside strings: a string's start, a key's colon, objects and lists opening and closing. */
  private structureChar(c: string): void {
    switch (c) {
      case '"': {
        this.inString = true;
        this.current = '';
        const key = this.key;
        // Keys (and the title and severity values) are kept; other values are only walked through.
        this.capture = key === undefined || TITLE_KEYS.has(key) || SEVERITY_KEYS.has(key);
        this.inCode = key !== undefined && CODE_KEYS.has(key);
        if (this.inCode && this.codeLines === 0) this.codeLines = 1;
        break;
      }
      case ':':
        this.key = this.lastString;
        this.lastString = undefined;
        break;
      case '{':
        this.objects.push({ inList: this.stack[this.stack.length - 1] === '[' });
        this.stack.push('{');
        this.key = undefined;
        break;
      case '[':
        this.stack.push('[');
        this.key = undefined;
        break;
      case '}':
        if (this.stack.pop() === '{') this.objects.pop();
        this.key = undefined;
        break;
      case ']':
        this.stack.pop();
        this.key = undefined;
        break;
      case ',':
        this.key = undefined;
        this.lastString = undefined;
        break;
      default:
        break;
    }
  }

  private endString(value: string): void {
    const key = this.key;
    this.inCode = false;
    if (key === undefined) {
      this.lastString = value;
      return;
    }
    this.key = undefined;
    const record = this.objects[this.objects.length - 1];
    if (!record) return;
    if (TITLE_KEYS.has(key) && record.inList && !record.finding && value.trim() !== '') {
      const title = value.trim().replace(/\s+/g, ' ');
      const finding: ProgressFinding = { title: title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title };
      if (record.severity) finding.severity = record.severity;
      record.finding = finding;
      this.count++;
      if (this.findings.length < MAX_TITLES) this.findings.push(finding);
    } else if (SEVERITY_KEYS.has(key)) {
      const severity = severityOf(value);
      if (severity) {
        record.severity ??= severity;
        if (record.finding && !record.finding.severity) record.finding.severity = severity;
      }
    }
  }
}
