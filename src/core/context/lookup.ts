import type { ContextBudget } from './budget';
import type { Definition } from './extract';
import type { ListedFile } from './listing';
import { nearestFirst } from './nearest';

/**
 * One lookup of the context: the definitions of a name near a reviewed file, or the call sites of a changed function.
 * Its candidates (the files that may define or call the name) are read nearest first, and it is done when the parsed
 * ones hold `enough` of what it looks for, or when MAX_REACHED candidates were reached (a name that reads like a
 * definition in many files that define no such thing). `next` is the candidate to parse next: the lookups of a
 * review ask for theirs together, round after round, so that the files are parsed on several threads at once.
 */

/** A definition found in the index, with its file. */
export interface FoundDefinition extends Definition {
  file: string;
  language: string;
}

/** A call site found in the index. */
export interface FoundCall {
  file: string;
  language: string;
  name: string;
  line: number;
}

/** What a lookup asks for: the definitions of a name near a reviewed file (those `keep` accepts), or the call sites of a changed function. */
export interface Asked {
  of: 'defines' | 'calls';
  name: string;
  near: string;
  keep?: (d: FoundDefinition) => boolean;
}

/** Candidates of one lookup parsed at most. */
const MAX_REACHED = 24;

export interface LookupFiles {
  /** Whether the file is parsed. */
  parsed(file: ListedFile): boolean;
  /** What the parsed file holds of what the lookup looks for. */
  count(file: ListedFile): number;
}

export class Lookup {
  /** The nearest candidates, in the order they are reached (at most MAX_REACHED, and any one more). */
  private readonly order: ListedFile[];

  constructor(
    candidates: readonly ListedFile[],
    near: string,
    of: 'defines' | 'calls',
    private readonly enough: number,
  ) {
    // A file's own calls are not its callers.
    const among = of === 'calls' ? candidates.filter((f) => f.path !== near) : candidates;
    this.order = nearestFirst(among, near, of === 'defines' ? 'definitions' : 'callers', MAX_REACHED + 1);
  }

  /** The next candidate to parse; undefined when the lookup is done. The same candidates are reached whatever was parsed before. */
  next(files: LookupFiles): ListedFile | undefined {
    return this.following(files, 1)[0];
  }

  /**
   * The next `count` candidates not parsed, nearest first; none when the lookup is done. Those after the first may
   * not be needed (the first may hold enough): parsing them changes what is parsed, never what the lookup finds.
   */
  following(files: LookupFiles, count: number): ListedFile[] {
    const out: ListedFile[] = [];
    let found = 0;
    for (const [reached, file] of this.order.entries()) {
      if (reached >= MAX_REACHED || out.length >= count) break;
      if (!files.parsed(file)) out.push(file);
      else if (out.length === 0 && (found += files.count(file)) >= this.enough) break;
    }
    return out;
  }
}

/**
 * Rounds after which a lookup not done yet asks for its next AHEAD candidates at once, not one: the few lookups that
 * go on (the callers of a changed function, one or two call sites per file) would otherwise take a round per file,
 * each waiting for the slowest file of the one before, with the threads mostly idle.
 */
const ROUNDS_ONE_BY_ONE = 2;
const AHEAD = 4;

/** A lookup under way, of one group (a batch's lookups): the group is ready when none of its lookups is left. */
interface PendingLookup {
  lookup: Lookup;
  files: LookupFiles;
  group: number;
}

/**
 * Parses, round after round, the next candidate of every lookup not done (the one it would parse next; after
 * ROUNDS_ONE_BY_ONE rounds, its next AHEAD), a round's files all at once (`parse`: on several threads), until every
 * lookup is done, MAX_REACHED rounds passed or the budget is over. What a lookup needs is then parsed, as if each had
 * been done one after the other. Between rounds, `ready` is told each group of `groups` whose lookups are all done
 * (once each, in order): its context can be chosen while the next rounds are parsed.
 */
export async function inRounds(pending: readonly PendingLookup[], groups: number, budget: ContextBudget | undefined, parse: (files: ListedFile[]) => Promise<void>, ready: (group: number) => void): Promise<void> {
  let left = pending;
  const told = new Set<number>();
  for (let round = 0; round <= MAX_REACHED && !budget?.over; round++) {
    const want = new Map<string, ListedFile>();
    const width = round < ROUNDS_ONE_BY_ONE ? 1 : AHEAD;
    left = left.filter(({ lookup, files }) => {
      const next = lookup.following(files, width);
      for (const file of next) want.set(file.hash, file);
      return next.length > 0;
    });
    const waiting = new Set(left.map((p) => p.group));
    for (let group = 0; group < groups; group++) {
      if (waiting.has(group) || told.has(group)) continue;
      told.add(group);
      ready(group);
    }
    if (want.size === 0) return;
    await parse([...want.values()]);
  }
}
