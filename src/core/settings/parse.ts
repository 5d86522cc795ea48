import { settingsSchema, type QuorumSettings } from './schema';
import { isRecord } from '../../shared/guards';

/** One invalid setting: its dotted path under `quorum.` and what is wrong with it. */
export interface SettingsIssue {
  path: string;
  message: string;
}

interface ParsedSettings {
  settings: QuorumSettings;
  issues: SettingsIssue[];
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Removes the value at `path` so that the schema's default takes its place. */
function dropPath(root: unknown, path: readonly PropertyKey[]): boolean {
  const last = path.at(-1);
  if (last === undefined) return false;
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isRecord(node) && typeof key === 'string') node = node[key];
    else return false;
  }
  if (Array.isArray(node) && typeof last === 'number') {
    node.splice(last, 1);
    return true;
  }
  if (!isRecord(node) || typeof last !== 'string' || !(last in node)) return false;
  Reflect.deleteProperty(node, last);
  return true;
}

/**
 * Parses raw settings (the nested `quorum` object). Invalid fields are reported by path and replaced by
 * their defaults; an invalid element of a list is dropped. Never throws.
 */
export function parseSettings(raw: unknown): ParsedSettings {
  const issues: SettingsIssue[] = [];
  let input = clone(raw ?? {});
  if (!isRecord(input)) {
    issues.push({ path: '', message: 'settings must be an object' });
    input = {};
  }
  for (let round = 0; round < 50; round++) {
    const result = settingsSchema.safeParse(input);
    if (result.success) return { settings: result.data, issues };
    // Drop each invalid leaf, or the whole element of a list, once, so that its default applies; list
    // elements go from the highest index down so that earlier removals do not shift later ones.
    const targets = new Map<string, PropertyKey[]>();
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      if (!issues.some((i) => i.path === path)) issues.push({ path, message: issue.message });
      const listIndex = issue.path.findIndex((p) => typeof p === 'number');
      const target = listIndex >= 0 ? issue.path.slice(0, listIndex + 1) : issue.path;
      targets.set(target.map(String).join('\u0000'), target);
    }
    let progressed = false;
    const ordered = [...targets.values()].sort((a, b) => Number(b[b.length - 1] ?? 0) - Number(a[a.length - 1] ?? 0));
    for (const target of ordered) if (dropPath(input, target)) progressed = true;
    if (!progressed) break;
  }
  return { settings: settingsSchema.parse({}), issues };
}
