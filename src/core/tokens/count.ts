import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import type { ChatMessage } from '../gateway/types';

/**
 * Token counts for pre-send estimates and for usage a gateway did not report: a real BPE tokenizer, far
 * closer than characters ÷ 2 or ÷ 4 for code and for Korean text. The encoding is `cl100k_base` (the GPT-4
 * family's). `o200k_base` (GPT-4o/4.1) would be exact for more OpenAI models, but its rank table alone zips
 * to 1.07 MB — more than the whole .vsix may weigh — while cl100k's zips to 0.44 MB. Other providers'
 * models use tokenizers of their own anyway, so every figure counted here is labelled an estimate.
 *
 * The encoding is loaded on first use, not at import (extension activation and `quorum --help` must not pay for
 * it), from `cl100k_base.json` beside this code: the library's own rank table, copied by
 * `npm run tokenizer:table`. The library ships it as a 1.1 MB JavaScript array literal that V8 parses and
 * compiles before it runs; JSON.parse reads the same table in about a third of the time, which is most of
 * a cold load (measured by `npm run bench:changes`, tokenizerLoadMs). esbuild.js copies the file beside the
 * bundles.
 */
type Counter = (text: string) => number;
let counter: Counter | undefined;

/** The table's file name, beside this module in the sources and beside the bundles in dist/. */
const RANK_TABLE_FILE = 'cl100k_base.json';

/** The rank table: each rank's token, as text or (when not valid UTF-8) as its bytes. */
function readRankTable(): RawBytePairRanks {
  const table: unknown = JSON.parse(readFileSync(join(__dirname, RANK_TABLE_FILE), 'utf8'));
  if (!Array.isArray(table) || !table.every((t) => typeof t === 'string' || Array.isArray(t))) {
    throw new Error(`${RANK_TABLE_FILE} is not a rank table: run npm run tokenizer:table`);
  }
  return table;
}

function encoder(): Counter {
  if (!counter) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deliberate lazy load (see above)
    const { GptEncoding }: typeof import('gpt-tokenizer/GptEncoding') = require('gpt-tokenizer/GptEncoding');
    // The library checks the table's size against the encoding's vocabulary.
    const api = GptEncoding.getEncodingApi('cl100k_base', () => readRankTable());
    // Text that spells a special token (`<|endoftext|>` in a tokenizer's own sources, in a model's answer) is
    // counted as the ordinary text it is when sent; by default the library throws on it.
    const plain = { disallowedSpecial: new Set<string>() };
    counter = (text) => api.countTokens(text, plain);
  }
  return counter;
}

/** Loads the encoding now: a caller that waits on something else (git) can have the load done meanwhile. */
export function loadTokenizer(): void {
  encoder();
}

/**
 * Counts of long texts, most recently used last: planning counts the same code more than once (every agent of
 * a batch is sent the same user message; an estimate is made again when the gateway's prices arrive), and a BPE
 * count costs about a millisecond per thousand tokens. Short texts are counted each time; the memo holds at most
 * MEMO_CHARS characters of text.
 */
const MEMO_MIN_CHARS = 512;
const MEMO_CHARS = 4_000_000;
const memo = new Map<string, number>();
let memoChars = 0;

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < MEMO_MIN_CHARS || text.length > MEMO_CHARS) return encoder()(text);
  const known = memo.get(text);
  if (known !== undefined) {
    memo.delete(text);
    memo.set(text, known);
    return known;
  }
  const n = encoder()(text);
  memo.set(text, n);
  memoChars += text.length;
  for (const oldest of memo.keys()) {
    if (memoChars <= MEMO_CHARS) break;
    memo.delete(oldest);
    memoChars -= oldest.length;
  }
  return n;
}

/** Per-message framing of the chat format (`<|start|>role…<|end|>`) and the reply priming, as OpenAI counts it. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_REPLY_PRIMING = 3;

/** Prompt tokens of a chat request: each message's role and content plus the chat format's framing. */
export function countChatTokens(messages: readonly ChatMessage[]): number {
  let total = TOKENS_REPLY_PRIMING;
  for (const m of messages) total += TOKENS_PER_MESSAGE + countTokens(m.role) + countTokens(m.content);
  return total;
}
