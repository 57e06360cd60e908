import type { Era } from '@parley/core';

import type { CallInfo, TaskHandle, TaskSnapshot } from '../types.ts';

/**
 * The handle a caller gets for a call that became a task: the latest state the driver saw,
 * change notices, and cancel (which the driver performs, so it can poll again at once).
 */
export class CallTaskHandle implements TaskHandle {
  readonly taskId: string;
  readonly call: CallInfo;
  readonly era: Era;
  #current: TaskSnapshot;
  readonly #listeners = new Set<(task: TaskSnapshot) => void>();
  readonly #cancel: () => Promise<void>;

  constructor(call: CallInfo, era: Era, first: TaskSnapshot, cancel: () => Promise<void>) {
    this.taskId = first.taskId;
    this.call = call;
    this.era = era;
    this.#current = first;
    this.#cancel = cancel;
  }

  get current(): TaskSnapshot {
    return this.#current;
  }

  onChange(listener: (task: TaskSnapshot) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('task.onChange: give a function.');
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  cancel(): Promise<void> {
    return this.#cancel();
  }

  /** The driver saw the task again; listeners hear of a new status or status message. */
  seen(snapshot: TaskSnapshot): void {
    const before = this.#current;
    this.#current = snapshot;
    if (before.status === snapshot.status && before.statusMessage === snapshot.statusMessage)
      return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(snapshot);
      } catch {
        // An observer must not change the outcome of what it observes.
      }
    }
  }
}
