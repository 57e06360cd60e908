/**
 * The wait between two looks at a task. A driver sleeps in it, and is woken early when there is
 * news (a notice came, a cancel was sent, the result arrived) so it looks again at once rather
 * than at the end of the interval; the call's signal ends it with the call.
 */

/** A pause that ends early when woken, and rejects when `signal` aborts. */
export class Pauser {
  #wake: (() => void) | undefined;

  wake(): void {
    this.#wake?.();
  }

  pause(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#wake = undefined;
        resolve();
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        reject(signal.reason);
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
