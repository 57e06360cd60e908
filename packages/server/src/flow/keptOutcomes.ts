/**
 * Outcomes a round could not record in the single-use store: the handler ran (its effects are
 * done) but the store was unreachable when the round finished. Releasing the claim then would let
 * a retry run the handler a second time; so the outcome is kept here instead, answered to a retry
 * that reaches this process, and written to the store again, with backoff, until the store takes
 * it (a retry elsewhere then gets it from the store) or the token expires.
 */

interface Held {
  outcome: string;
  expiresAt: number;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

export class KeptOutcomes {
  readonly #held = new Map<string, Held>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** The outcome kept for `tokenId`, while its token lives. */
  get(tokenId: string): string | undefined {
    const held = this.#held.get(tokenId);
    if (held === undefined) return undefined;
    if (held.expiresAt <= this.#now()) {
      this.#held.delete(tokenId);
      return undefined;
    }
    return held.outcome;
  }

  /** How many outcomes wait for the store. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Keep `outcome` for `tokenId` and call `write` again until it succeeds or the token expires.
   * The timers never keep the process alive.
   */
  keep(tokenId: string, outcome: string, expiresAt: number, write: () => Promise<void>): void {
    if (!this.#held.has(tokenId) && this.#held.size >= this.#maxEntries) {
      // The oldest goes first: a bounded memory, not an unbounded one, while a store is down.
      const oldest = this.#held.keys().next().value;
      if (oldest !== undefined) this.#held.delete(oldest);
    }
    this.#held.set(tokenId, { outcome, expiresAt });
    const attempt = (delay: number): void => {
      const timer = setTimeout(() => {
        if (this.#held.get(tokenId)?.outcome !== outcome) return;
        if (expiresAt <= this.#now()) {
          this.#held.delete(tokenId);
          return;
        }
        write().then(
          () => {
            if (this.#held.get(tokenId)?.outcome === outcome) this.#held.delete(tokenId);
          },
          () => attempt(Math.min(delay * 2, MAX_RETRY_MS)),
        );
      }, delay);
      timer.unref?.();
    };
    attempt(FIRST_RETRY_MS);
  }
}
