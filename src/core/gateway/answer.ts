import { parseChunk, parseError, type ReportedUsage, type UsageField } from './chunks';
import { readSse } from './sse';
import { field, isRecord } from '../../shared/guards';
import { readErrorBody } from './errorBody';

/**
 * Reading one HTTP answer of the chat-completions endpoint: an SSE stream, or a whole JSON completion (with or
 * without the right content type), into what has arrived so far.
 */

/** Answers longer than this are cut off as a bad response (a runaway gateway must not fill memory). */
const MAX_ANSWER_CHARS = 4_000_000;
const MAX_JSON_BODY_BYTES = 8_000_000;

/** What an attempt has received so far. */
export interface Attempted {
  text: string;
  reasoning: string;
  usage?: ReportedUsage;
  /** Where the usage came, and in how many chunks (every chunk, or the last). */
  usageVia?: { field: UsageField; chunks: number };
  finish?: string;
  model?: string;
  requestId?: string;
}

/** An error object inside a 200 answer (`{"error": …}` or an `event: error`). */
export class StreamErrorSignal extends Error {
  constructor(readonly error: { message: string; type?: string; code?: string | number; status?: number }) {
    super(error.message);
  }
}

/** Reads a streamed (SSE) or whole (JSON) answer; `onText` gets the answer's text as it arrives. */
export async function readAnswer(response: Response, into: Attempted, onData: () => void, onText: (t: string) => void, signal: AbortSignal): Promise<'done' | 'eof'> {
  const body = response.body;
  if (!body) return 'eof';
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', cancel, { once: true });
  const bytes: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    },
  };
  const contentType = response.headers.get('content-type') ?? '';
  try {
    if (!/event-stream/i.test(contentType) && /json/i.test(contentType)) {
      const whole: unknown = JSON.parse(await readJsonBody(bytes, onData));
      throwIfError(whole);
      absorb(whole, into, onText);
      return 'done';
    }
    return await readStreamed(bytes, into, onData, onText);
  } finally {
    signal.removeEventListener('abort', cancel);
    try {
      reader.releaseLock();
    } catch {
      // a read was still pending on a cancelled stream
    }
  }
}

/**
 * An SSE answer, event by event. A body without any SSE event may be one JSON completion sent with the wrong
 * content type: its first bytes (bounded) are kept to read it as such at the end.
 */
async function readStreamed(bytes: AsyncIterable<Uint8Array>, into: Attempted, onData: () => void, onText: (t: string) => void): Promise<'done' | 'eof'> {
  const seen: { events: number; raw: Uint8Array[]; rawSize: number } = { events: 0, raw: [], rawSize: 0 };
  const teed: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      for await (const b of bytes) {
        if (seen.events === 0 && seen.rawSize + b.byteLength <= MAX_JSON_BODY_BYTES) {
          seen.raw.push(b);
          seen.rawSize += b.byteLength;
        }
        yield b;
      }
    },
  };
  for await (const item of readSse(teed)) {
    if (item.kind === 'comment') continue;
    seen.events++;
    if (item.data.trim() === '[DONE]') return 'done';
    absorb(eventJson(item, into), into, onText);
    onData(); // after absorbing, so that the watchdog knows whether the answer has finished
  }
  if (seen.events > 0 || seen.rawSize === 0) return 'eof';
  const text = new TextDecoder().decode(Buffer.concat(seen.raw)).trim();
  if (!text.startsWith('{')) throw new SyntaxError(`the answer is neither a stream nor JSON: ${text.slice(0, 80)}`);
  absorb(JSON.parse(text), into, onText);
  return 'done';
}

/** An event's JSON; an `error` event (JSON or not) ends the answer as the gateway's error. */
function eventJson(item: { event?: string; data: string }, into: Attempted): unknown {
  let json: unknown;
  try {
    json = JSON.parse(item.data);
  } catch {
    if (item.event === 'error') {
      into.finish = 'error';
      throw new StreamErrorSignal({ message: item.data.trim().slice(0, 500) || 'error event' });
    }
    throw new SyntaxError(`a stream event is not JSON: ${item.data.slice(0, 120)}`);
  }
  if (item.event === 'error') {
    into.finish = 'error';
    const err = parseError(field(json, 'error') ?? json);
    throw new StreamErrorSignal(err ?? { message: 'error event' });
  }
  return json;
}

/** A whole (non-streamed) JSON answer, bounded in size. */
async function readJsonBody(bytes: AsyncIterable<Uint8Array>, onData: () => void): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const b of bytes) {
    onData();
    size += b.byteLength;
    if (size > MAX_JSON_BODY_BYTES) throw new Error('the answer is too large');
    chunks.push(b);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * An error answered with HTTP 200 as a whole JSON body (relays do): `{"error":…}`, `{"success":false,
 * "message":…}`, or a body with a message and no choices.
 */
function throwIfError(json: unknown): void {
  if (!isRecord(json) || Array.isArray(json.choices)) return;
  const says = json.error !== undefined || json.success === false || typeof json.message === 'string' || typeof json.msg === 'string';
  if (!says) return;
  const body = readErrorBody(json);
  throw new StreamErrorSignal({ message: body?.message ?? 'error', ...(body?.type ? { type: body.type } : {}), ...(body?.code !== undefined ? { code: body.code } : {}) });
}

function absorb(json: unknown, into: Attempted, onText: (t: string) => void): void {
  const c = parseChunk(json);
  if (!c) throw new SyntaxError('a stream event is not a chat completion chunk');
  if (c.model) into.model = c.model;
  if (c.usage) {
    into.usage = c.usage; // repeated usage: the last one wins, never the sum
    into.usageVia = { field: c.usageField ?? 'usage', chunks: (into.usageVia?.chunks ?? 0) + 1 };
  }
  if (c.reasoning) into.reasoning += c.reasoning;
  if (c.content) {
    into.text += c.content;
    if (into.text.length > MAX_ANSWER_CHARS) throw new SyntaxError('the answer exceeds 4 million characters');
    onText(c.content);
  }
  if (c.finishReason) into.finish = c.finishReason;
  if (c.error) throw new StreamErrorSignal(c.error);
}
