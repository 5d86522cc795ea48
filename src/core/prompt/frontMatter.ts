/**
 * Front matter of repository Markdown files: a `---` block of `key: value` lines at the top. Values are
 * strings, quoted strings, inline lists (`[a, b]`) or block lists (`- a` lines under `key:`). That is all the
 * rules and agent files use; callers validate the result with zod, so anything else is reported, not guessed.
 */

export type FrontMatterValue = string | string[];

interface FrontMatter {
  /** Undefined when the file has no front matter. */
  data: Record<string, FrontMatterValue> | undefined;
  body: string;
  /** A line that is not `key: value` (1-based in the file), when there is one. */
  badLine?: number;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

function parseValue(raw: string): FrontMatterValue {
  const t = raw.trim();
  if (t.startsWith('[') && t.endsWith(']')) {
    const inner = t.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map(unquote).filter((s) => s !== '');
  }
  if (/^["']/.test(t)) return unquote(t);
  return t.replace(/\s+#.*$/, '');
}

export function parseFrontMatter(text: string): FrontMatter {
  const src = text.replace(/^\uFEFF/, '');
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { data: undefined, body: src };
  const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
  if (end < 0) return { data: undefined, body: src };
  const data: Record<string, FrontMatterValue> = {};
  let listKey: string | undefined;
  let badLine: number | undefined;
  for (let i = 1; i < end; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey !== undefined) {
      const current = data[listKey];
      data[listKey] = [...(Array.isArray(current) ? current : []), unquote(item[1] ?? '')];
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) {
      badLine ??= i + 1;
      continue;
    }
    const [, key = '', value = ''] = kv;
    if (value.trim() === '') {
      listKey = key;
      data[key] = [];
    } else {
      listKey = undefined;
      data[key] = parseValue(value);
    }
  }
  return { data, body: lines.slice(end + 1).join('\n'), ...(badLine !== undefined ? { badLine } : {}) };
}
