import { DEFINITION_KINDS, type Definition, type FileSymbols } from './extract';

/**
 * How a blob's symbols are kept in the index file (segment.ts): compact text, decoded when a lookup reaches the blob
 * by `decodeEntry`, which refuses anything it would not write (that blob is parsed again).
 *
 * An entry: `-` for a file that is indexed but not read (binary, generated, too large); else three sections
 * separated by `\n` — definitions, calls, aliases — each a list of records separated by `\t`, each record's fields
 * by a space. A definition is `name kind startLine endLine signatureEnd [container]` (kind: its index in
 * DEFINITION_KINDS), a call `name line`, an alias `alias original`. A name with a space, tab, line break or `%`
 * (or an empty one) is written percent-encoded.
 */

export const INDEX_VERSION = 4;

/** What the index keeps per blob: its symbols, or that it is not read. */
export type IndexEntry = FileSymbols | { skipped: true };

export const SKIPPED = '-';
/** The form of an entry (what `encodeEntry` writes); a percent-encoded name may still not decode (`decodeEntry` says). */
const NAME = '[^\\s%]*(?:%[0-9A-F]{2}[^\\s%]*)*';
const LINE = '\\d{1,9}';
const DEF = `${NAME} [0-${DEFINITION_KINDS.length - 1}] ${LINE} ${LINE} ${LINE}(?: ${NAME})?`;
const CALL = `${NAME} ${LINE}`;
const ALIAS = `${NAME} ${NAME}`;
const list = (record: string) => `(?:${record}(?:\\t${record})*)?`;
const ENTRY = new RegExp(`^(?:${SKIPPED}|${list(DEF)}\\n${list(CALL)}\\n${list(ALIAS)})$`);

/** Identifiers as stored: `name line` records separated by tabs (a name holds no white space). */
const USED = /^(?:\S+ \d{1,9}(?:\t\S+ \d{1,9})*)?$/;
export const isUsed = (text: string) => USED.test(text);
export const encodeUsed = (identifiers: readonly (readonly [string, number])[]) => identifiers.map(([n, l]) => `${n} ${l}`).join('\t');
export function decodeUsed(text: string): [string, number][] {
  if (text === '') return [];
  return text.split('\t').map((r) => {
    const cut = r.lastIndexOf(' ');
    return [r.slice(0, cut), Number(r.slice(cut + 1))];
  });
}

/** Whether `text` has the form of an entry; one that does not is left out on its own (its file is parsed again). */
export const isEntry = (text: string) => ENTRY.test(text);
const PLAIN = /^[^\s%]+$/;
const NUMBER = /^\d{1,9}$/;

export const encodeName = (name: string) => (PLAIN.test(name) ? name : encodeURIComponent(name));

function decodeName(field: string | undefined): string | undefined {
  if (field === undefined || !field.includes('%')) return field;
  try {
    return decodeURIComponent(field);
  } catch {
    return undefined;
  }
}

const line = (field: string | undefined) => (field !== undefined && NUMBER.test(field) ? Number(field) : undefined);

/** The entry as stored; undefined when a name cannot be written (a lone surrogate): the blob is then not kept. */
export function encodeEntry(entry: IndexEntry): string | undefined {
  if ('skipped' in entry) return SKIPPED;
  try {
    const definitions = entry.definitions.map((d) =>
      [encodeName(d.name), DEFINITION_KINDS.indexOf(d.kind), d.startLine, d.endLine, d.signatureEnd, ...(d.container !== undefined ? [encodeName(d.container)] : [])].join(' '),
    );
    const calls = entry.calls.map(([name, at]) => `${encodeName(name)} ${at}`);
    const aliases = entry.aliases.map(([alias, original]) => `${encodeName(alias)} ${encodeName(original)}`);
    return [definitions.join('\t'), calls.join('\t'), aliases.join('\t')].join('\n');
  } catch {
    return undefined;
  }
}

const records = (section: string) => (section === '' ? [] : section.split('\t'));

/** A definition record as `encodeEntry` writes it; undefined for one it would not write. */
export function parseDefinition(record: string): Definition | undefined {
  const [name, kind, start, end, signature, container, ...rest] = record.split(' ');
  const d = { name: decodeName(name), kind: DEFINITION_KINDS[line(kind) ?? DEFINITION_KINDS.length], startLine: line(start), endLine: line(end), signatureEnd: line(signature) };
  const holder = decodeName(container);
  if (rest.length > 0 || d.name === undefined || d.kind === undefined || d.startLine === undefined || d.endLine === undefined || d.signatureEnd === undefined) return undefined;
  if (container !== undefined && holder === undefined) return undefined;
  return { name: d.name, kind: d.kind, startLine: d.startLine, endLine: d.endLine, signatureEnd: d.signatureEnd, ...(holder !== undefined ? { container: holder } : {}) };
}

/** A call record (`name line`) as `encodeEntry` writes it; undefined for one it would not write. */
export function parseCall(record: string): [string, number] | undefined {
  const [name, at, ...rest] = record.split(' ');
  const n = decodeName(name);
  const l = line(at);
  return rest.length > 0 || n === undefined || l === undefined ? undefined : [n, l];
}

/** The entry `encodeEntry` wrote; undefined for any text it would not have written. */
export function decodeEntry(text: string): IndexEntry | undefined {
  if (text === SKIPPED) return { skipped: true };
  const sections = text.split('\n');
  if (sections.length !== 3) return undefined;
  const definitions: Definition[] = [];
  for (const record of records(sections[0] ?? '')) {
    const d = parseDefinition(record);
    if (!d) return undefined;
    definitions.push(d);
  }
  const calls: [string, number][] = [];
  for (const record of records(sections[1] ?? '')) {
    const c = parseCall(record);
    if (!c) return undefined;
    calls.push(c);
  }
  const aliases: [string, string][] = [];
  for (const record of records(sections[2] ?? '')) {
    const [alias, original, ...rest] = record.split(' ');
    const a = decodeName(alias);
    const o = decodeName(original);
    if (rest.length > 0 || a === undefined || o === undefined) return undefined;
    aliases.push([a, o]);
  }
  return { definitions, calls, aliases };
}
