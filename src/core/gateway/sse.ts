/**
 * A server-sent-events reader that tolerates what gateways really send: chunks split anywhere (inside a line,
 * inside a UTF-8 character), `\r\n` or `\r` line ends, comment lines (keep-alives), several `data:` lines per
 * event, and a last event without its blank line.
 */

export type SseItem = { kind: 'data'; event: string | undefined; data: string } | { kind: 'comment' };

export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseItem, void, void> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let sawCr = false;

  function* lines(text: string, flush: boolean): Generator<string> {
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (ch === 10 /* \n */) {
        if (sawCr && i === start) {
          // The \n of a \r\n pair whose \r ended the previous line.
          sawCr = false;
          start = i + 1;
          continue;
        }
        sawCr = false;
        yield buffer.slice(start, i);
        start = i + 1;
      } else if (ch === 13 /* \r */) {
        yield buffer.slice(start, i);
        sawCr = true;
        start = i + 1;
      } else {
        sawCr = false;
      }
    }
    buffer = buffer.slice(start);
    if (flush && buffer.length > 0) {
      const last = buffer;
      buffer = '';
      yield last;
    }
  }

  function* take(line: string): Generator<SseItem> {
    if (line === '') {
      if (data.length > 0) yield { kind: 'data', event, data: data.join('\n') };
      data = [];
      event = undefined;
      return;
    }
    if (line.startsWith(':')) {
      yield { kind: 'comment' };
      return;
    }
    // A line that is a JSON document, not a field: Ollama writes an error that comes after content as a bare
    // `{"error":"…"}` line (ollama/ollama server/routes.go, streamResponse). It is an event of its own.
    if (line.startsWith('{') && data.length === 0 && isJson(line)) {
      yield { kind: 'data', event, data: line };
      event = undefined;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'error') {
      // llama.cpp's server sends a failure inside a stream as `error: {…}` (server_sent_event(sink, "error", …)
      // in ggml-org/llama.cpp tools/server), then `data: [DONE]`: an error event, not a field to ignore.
      event = 'error';
      data.push(value);
    }
    // `id` and `retry` fields are of no use for chat completions.
  }

  for await (const chunk of body) {
    for (const line of lines(decoder.decode(chunk, { stream: true }), false)) yield* take(line);
  }
  for (const line of lines(decoder.decode(), true)) yield* take(line);
  yield* take('');
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
