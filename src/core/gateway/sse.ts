/**
 * A server-sent-events reader that tolerates what gateways really send: chunks split anywhere (inside a line,
 * inside a UTF-8 character), `\r\n` or `\r` line ends, comment lines (keep-alives), several `data:` lines per
 * event, and a last event without its blank line.
 */

export type SseItem = { kind: 'data'; event: string | undefined; data: string } | { kind: 'comment' };

export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseItem, void, void> {
  const decoder = new TextDecoder('utf-8');
  const lines = new LineSplitter();
  const events = new EventAssembler();
  for await (const chunk of body) {
    for (const line of lines.push(decoder.decode(chunk, { stream: true }), false)) yield* events.take(line);
  }
  for (const line of lines.push(decoder.decode(), true)) yield* events.take(line);
  yield* events.take('');
}

/** Splits decoded text into lines at `\n`, `\r\n` or `\r`, a line end split across chunks included. */
class LineSplitter {
  private buffer = '';
  private sawCr = false;

  *push(text: string, flush: boolean): Generator<string> {
    this.buffer += text;
    const buffer = this.buffer;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (ch === 10 /* \n */) {
        const pairedLf = this.sawCr && i === start; // the \n of a \r\n pair whose \r ended the previous line
        this.sawCr = false;
        if (!pairedLf) yield buffer.slice(start, i);
        start = i + 1;
      } else if (ch === 13 /* \r */) {
        yield buffer.slice(start, i);
        this.sawCr = true;
        start = i + 1;
      } else {
        this.sawCr = false;
      }
    }
    this.buffer = buffer.slice(start);
    if (flush && this.buffer.length > 0) {
      const last = this.buffer;
      this.buffer = '';
      yield last;
    }
  }
}

/** Assembles lines into events: `data:` lines joined, `event:` kept, a blank line ends an event. */
class EventAssembler {
  private data: string[] = [];
  private event: string | undefined;

  *take(line: string): Generator<SseItem> {
    if (line === '') {
      if (this.data.length > 0) yield { kind: 'data', event: this.event, data: this.data.join('\n') };
      this.data = [];
      this.event = undefined;
      return;
    }
    if (line.startsWith(':')) {
      yield { kind: 'comment' };
      return;
    }
    // A line that is a JSON document, not a field: Ollama writes an error that comes after content as a bare
    // `{"error":"…"}` line (ollama/ollama server/routes.go, streamResponse). It is an event of its own.
    if (line.startsWith('{') && this.data.length === 0 && isJson(line)) {
      yield { kind: 'data', event: this.event, data: line };
      this.event = undefined;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'error') {
      // llama.cpp's server sends a failure inside a stream as `error: {…}` (server_sent_event(sink, "error", …)
      // in ggml-org/llama.cpp tools/server), then `data: [DONE]`: an error event, not a field to ignore.
      this.event = 'error';
      this.data.push(value);
    }
    // `id` and `retry` fields are of no use for chat completions.
  }
}

/** A whole JSON document on one line (a pretty-printed body's first line `{` is not). */
function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
