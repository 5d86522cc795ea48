import type { Definition, FileSymbols } from './extract';
import { decodeEntry, encodeName, isEntry, parseCall, parseDefinition, SKIPPED } from './indexStore';

/**
 * A blob's symbols as stored (indexStore.ts), read where they lie: a lookup parses only the records of the name it
 * asks for, not every definition and call of each file it reaches (a warm review of spring-boot decoded a thousand
 * files' symbols into 50 MB of objects). The whole entry's form is checked once; an entry that does not have it is
 * not read at all (its file is parsed again).
 */
export class StoredEntry {
  private constructor(
    private readonly text: string,
    /** Where the calls' and the aliases' sections start (after their line breaks). */
    private readonly callsAt: number,
    private readonly aliasesAt: number,
  ) {}

  /** The entry of `text`; `skipped` for a file not read; undefined for text `encodeEntry` would not write. */
  static of(text: string): StoredEntry | 'skipped' | undefined {
    if (text === SKIPPED) return 'skipped';
    // A percent-encoded name may have the form and not decode: such an entry is read whole once to know.
    if (!isEntry(text) || (text.includes('%') && decodeEntry(text) === undefined)) return undefined;
    const a = text.indexOf('\n');
    return new StoredEntry(text, a + 1, text.indexOf('\n', a + 1) + 1);
  }

  /** The records of the section from `start` to `end` (exclusive of its line break) whose first field is `name`. */
  private records(name: string, start: number, end: number): string[] {
    const key = `${encodeName(name)} `;
    const out: string[] = [];
    for (let at = this.text.indexOf(key, start); at >= 0 && at < end; at = this.text.indexOf(key, at + 1)) {
      if (at !== start && this.text[at - 1] !== '\t') continue;
      const tab = this.text.indexOf('\t', at);
      out.push(this.text.slice(at, tab < 0 || tab > end ? end : tab));
    }
    return out;
  }

  definitionsNamed(name: string): Definition[] {
    return this.records(name, 0, this.callsAt - 1).flatMap((r) => parseDefinition(r) ?? []);
  }

  /** The lines that call `name`. */
  callLines(name: string): number[] {
    return this.records(name, this.callsAt, this.aliasesAt - 1).flatMap((r) => parseCall(r)?.[1] ?? []);
  }

  /** Every symbol (a reviewed file's, whose content the index holds). */
  symbols(): FileSymbols {
    const entry = decodeEntry(this.text);
    return entry && !('skipped' in entry) ? entry : { definitions: [], calls: [], aliases: [] };
  }
}
