import type { EventSink } from './wire.ts';

/**
 * The keep-alive of an endpoint's open SSE streams: a comment now and then, so that proxies
 * which drop idle connections leave a stream alone while its call waits (on its user, say).
 * Its own module because it is the endpoint's, not a session's: one timer keeps every stream of
 * every session alive (the SDK's transport arms one per stream), and it runs only while some
 * stream is open.
 */

/** Keeps open SSE streams alive through proxies that drop idle connections. */
export class KeepAlive {
  readonly #sinks = new Set<EventSink>();
  readonly #everyMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(everyMs: number) {
    this.#everyMs = everyMs;
  }

  add(sink: EventSink): void {
    this.#sinks.add(sink);
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      for (const open of this.#sinks) open.write(': keepalive\n\n');
    }, this.#everyMs);
    this.#timer.unref?.();
  }

  delete(sink: EventSink): void {
    this.#sinks.delete(sink);
    if (this.#sinks.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** How often an open stream gets a comment, as the SDK's transport does. */
export const KEEP_ALIVE_MS = 15_000;
