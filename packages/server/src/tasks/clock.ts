/**
 * Time, as tasks see it. A task may wait hours for a person, so everything about its time (its
 * timestamps, its TTL, its owner's heartbeat, a question's timeout) goes through one clock that
 * tests replace, never through `Date.now` or `setTimeout` directly.
 */

/** Cancels a scheduled callback; calling it again does nothing. */
export type CancelTimer = () => void;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Run `callback` once, `ms` from now. `Infinity` schedules nothing. */
  setTimer(callback: () => void, ms: number): CancelTimer;
}

/** The longest delay `setTimeout` takes; longer ones are slept in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/** The real clock. Its timers never keep the process alive on their own. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    if (ms === Infinity) return () => {};
    const due = Date.now() + Math.max(0, ms);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      const left = due - Date.now();
      timer = setTimeout(
        left > MAX_TIMER_MS ? arm : callback,
        Math.min(Math.max(left, 0), MAX_TIMER_MS),
      );
      timer.unref?.();
    };
    arm();
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    };
  },
};
