import type { ChatMessage } from '../gateway/types';

/**
 * Token counts for pre-send estimates and for usage a gateway did not report. The `o200k_base` encoding
 * (GPT-4o / GPT-4.1 family) is exact for OpenAI models and a close estimate for the others, far closer than
 * characters ÷ 2 or ÷ 4 for code and for Korean text.
 *
 * The encoding is loaded on first use, not at import: building its tables takes about a second of CPU, which
 * extension activation and `quorum --help` must not pay.
 */
type Counter = (text: string) => number;
let counter: Counter | undefined;

function encoder(): Counter {
  if (!counter) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deliberate lazy load (see above)
    const mod = require('gpt-tokenizer/encoding/o200k_base') as { countTokens: Counter };
    counter = mod.countTokens;
  }
  return counter;
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return encoder()(text);
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
