import type { Clock } from '../../src/tasks/clock.ts';

/**
 * A clock that moves only when a test says so: hours of a task's life pass in milliseconds of
 * real time, and every timer due on the way fires, in order, with the promise work it starts
 * settled before the next one.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #timers = new Map<number, { due: number; callback: () => void }>();

  constructor(start: number = Date.UTC(2026, 7, 1, 9, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, ms: number): () => void {
    if (ms === Infinity) return () => {};
    const id = ++this.#seq;
    this.#timers.set(id, { due: this.#now + Math.max(0, ms), callback });
    return () => this.#timers.delete(id);
  }

  /** Timers still to fire. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Let every promise that can settle now settle (store writes, notices, handlers). */
  async settle(): Promise<void> {
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Move `ms` forward, firing each timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    await this.settle();
    for (;;) {
      let nextId: number | undefined;
      let next: { due: number; callback: () => void } | undefined;
      for (const [id, timer] of this.#timers) {
        if (timer.due <= end && (next === undefined || timer.due < next.due)) {
          nextId = id;
          next = timer;
        }
      }
      if (next === undefined || nextId === undefined) break;
      this.#timers.delete(nextId);
      this.#now = next.due;
      next.callback();
      await this.settle();
    }
    this.#now = end;
    await this.settle();
  }
}
