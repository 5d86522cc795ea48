import type { Gateway, StreamOptions } from '../gateway/types';

/** When a request was first sent (after any queueing) and when its last byte arrived. */
interface Span {
  sent?: number;
  ended?: number;
}

/**
 * The shared gateway, seen by one eval: notes when each request was first sent (after any queueing) and when
 * its last byte arrived, by the request's review id.
 */
export class TimedGateway implements Gateway {
  readonly spans = new Map<string, Span>();
  constructor(
    private readonly inner: Gateway,
    private readonly now: () => number,
  ) {}

  async *stream(request: Parameters<Gateway['stream']>[0], options: StreamOptions = {}): ReturnType<Gateway['stream']> {
    const id = request.tag?.reviewId ?? '';
    const span: Span = {};
    this.spans.set(id, span);
    const inner = this.inner.stream(request, {
      ...options,
      onSent: () => {
        span.sent ??= this.now();
        options.onSent?.();
      },
    });
    try {
      let step = await inner.next();
      while (!step.done) {
        yield step.value;
        step = await inner.next();
      }
      return step.value;
    } finally {
      span.ended = this.now();
    }
  }

  listModels(options?: StreamOptions): ReturnType<Gateway['listModels']> {
    return this.inner.listModels(options);
  }
}
