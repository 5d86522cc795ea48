import { encoding } from './encoding';
import type { ChatMessage } from '../domain/chat';

/**
 * Token counts for pre-send estimates and for usage a gateway did not report: a real BPE tokenizer, far
 * closer than characters ÷ 2 or ÷ 4 for code and for Korean text. The encoding is `cl100k_base` (the GPT-4
 * family's). `o200k_base` (GPT-4o/4.1) would be exact for more OpenAI models, but its rank table alone zips
 * to 1.07 MB — more than the whole .vsix may weigh — while cl100k's zips to 0.44 MB. Other providers'
 * models use tokenizers of their own anyway, so every figure counted here is labelled an estimate.
 * How the encoding loads: encoding.ts.
 */

export { loadTokenizer } from './encoding';

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
  if (text.length < MEMO_MIN_CHARS || text.length > MEMO_CHARS) return encoding()(text);
  const known = memo.get(text);
  if (known !== undefined) {
    memo.delete(text);
    memo.set(text, known);
    return known;
  }
  const n = encoding()(text);
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
