import type { LineRange } from '../domain/lines';
import { decodeUsed, encodeUsed, isUsed } from './indexStore';

/**
 * The identifiers on a reviewed file's changed lines, by blob hash and line ranges: a second review of the same
 * change needs no syntax tree of its files (tree-sitter is not even loaded).
 */
export class UsedIdentifiers {
  /** As stored, by `<blob hash> <ranges>`. */
  readonly stored: Map<string, string>;

  constructor(stored?: ReadonlyMap<string, string>) {
    this.stored = new Map(stored);
  }

  private static key(hash: string, lines: readonly LineRange[]): string {
    return `${hash} ${lines.map((r) => `${r.start}-${r.end}`).join(',')}`;
  }

  get(hash: string, lines: readonly LineRange[]): [string, number][] | undefined {
    const stored = this.stored.get(UsedIdentifiers.key(hash, lines));
    return stored === undefined ? undefined : decodeUsed(stored);
  }

  /** Keeps them; false when nothing changed. */
  keep(hash: string, lines: readonly LineRange[], identifiers: readonly (readonly [string, number])[]): boolean {
    const key = UsedIdentifiers.key(hash, lines);
    const stored = encodeUsed(identifiers);
    if (this.stored.get(key) === stored || !isUsed(stored)) return false;
    this.stored.set(key, stored);
    return true;
  }
}
