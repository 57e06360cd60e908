import type { ReadTask } from './taskShapes.ts';

/**
 * How often a task driver asks `tasks/get`: what the server suggests, bounded below so a `0`
 * cannot spin, and seldom while the server tells of the task itself.
 */

/** Polled no faster than this, whatever the server says (a `0` would spin). */
export const MIN_POLL_INTERVAL_MS = 10;
/** When the server suggests no interval. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/**
 * While the server tells of the task, a poll now and then still catches a notice that was
 * lost (or a stream that ended quietly).
 */
export const LISTENING_POLL_INTERVAL_MS = 5000;

/** The pause before the next poll of `task`, as its server suggests it. */
export function intervalOf(task: ReadTask): number {
  return Math.max(MIN_POLL_INTERVAL_MS, task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
}
