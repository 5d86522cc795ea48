import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';

/** Counts the BPE tokens of a text. */
type Counter = (text: string) => number;

/**
 * The `cl100k_base` encoding, loaded when first needed, not at import: it takes 0.1–0.15 s of CPU, which
 * extension activation and `quorum --help` must not pay. Its rank table is read from `cl100k_base.json` beside the
 * bundles in dist/ (esbuild.js copies it there), or in the repository's data/ when running from the sources or from
 * out/: the library's own table, copied by
 * `npm run tokenizer:table`. The library ships it as a 1.1 MB JavaScript array literal that V8 parses and
 * compiles before it runs; JSON.parse reads the same table in about a third of the time.
 *
 * The load is three steps (the table; the library's code; its maps). `loadTokenizer` runs them one event-loop
 * turn apart, so that a caller waiting on something else (git, before a changes review's estimate) has the load
 * done in the gaps; `encoding()` runs whatever steps remain at once.
 */
const RANK_TABLE_FILE = 'cl100k_base.json';

let table: RawBytePairRanks | undefined;
let library: typeof import('gpt-tokenizer/GptEncoding').GptEncoding | undefined;
let counter: Counter | undefined;

function rankTableFile(): string {
  const bundled = join(__dirname, RANK_TABLE_FILE);
  return existsSync(bundled) ? bundled : join(__dirname, '..', '..', '..', 'data', RANK_TABLE_FILE);
}

function readRankTable(): RawBytePairRanks {
  const parsed: unknown = JSON.parse(readFileSync(rankTableFile(), 'utf8'));
  if (!Array.isArray(parsed) || !parsed.every((t) => typeof t === 'string' || Array.isArray(t))) {
    throw new Error(`${RANK_TABLE_FILE} is not a rank table: run npm run tokenizer:table`);
  }
  return parsed;
}

/** Runs the next step of the load; false when the encoding is loaded. */
function step(): boolean {
  if (counter) return false;
  if (!table) {
    table = readRankTable();
  } else if (!library) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deliberate lazy load (see above)
    const loaded = require('gpt-tokenizer/GptEncoding') as typeof import('gpt-tokenizer/GptEncoding');
    library = loaded.GptEncoding;
  } else {
    const ranks = table;
    // The library checks the table's size against the encoding's vocabulary.
    const api = library.getEncodingApi('cl100k_base', () => ranks);
    // Text that spells a special token (`<|endoftext|>` in a tokenizer's own sources, in a model's answer) is
    // counted as the ordinary text it is when sent; by default the library throws on it.
    const plain = { disallowedSpecial: new Set<string>() };
    counter = (text) => api.countTokens(text, plain);
    table = undefined;
  }
  return true;
}

/** The encoding's counter, loading what remains of it now. */
export function encoding(): Counter {
  while (step()) {
    // each step loads a part
  }
  if (!counter) throw new Error('the tokenizer did not load');
  return counter;
}

/**
 * Loads the encoding one step per event-loop turn, in the gaps of this thread's other work (a caller that will
 * count soon and waits on git first); resolves with the milliseconds the steps took on this thread. A step that
 * fails is left for `encoding()` to run again and report.
 */
export function loadTokenizer(): Promise<number> {
  let ms = 0;
  return new Promise((resolve) => {
    const next = () => {
      const t = performance.now();
      let more: boolean;
      try {
        more = step();
      } catch {
        more = false;
      }
      ms += performance.now() - t;
      if (more) setImmediate(next);
      else resolve(ms);
    };
    setImmediate(next);
  });
}
