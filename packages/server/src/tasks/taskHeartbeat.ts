import type { CancelTimer, Clock } from './clock.ts';
import type { ReportFailure, TaskReplica } from './taskEngineTypes.ts';
import type { TaskRecord } from './taskRecord.ts';
import type { TaskStore } from './taskStore.ts';
import { withLeaseRenewed } from './taskTransitions.ts';

/**
 * The lease heartbeat of this replica's tasks. While a replica runs tasks it renews each one's
 * lease a third of the lease's length apart; a task whose lease runs out is one whose owner
 * stopped, and any replica reading it marks it `failed` instead of leaving it `working`
 * forever. Each beat also re-reads the task, so a change this replica missed is still acted on.
 */

/** How often the heartbeat beats (and how often a wait for a task's end re-reads it). */
export function heartbeatMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 3));
}

export interface TaskHeartbeatOptions extends TaskReplica {
  /** The tasks this replica runs now, by id: their leases are the ones renewed. */
  running: ReadonlyMap<string, unknown>;
  /** Act on a task as the beat found it. */
  observe(taskId: string, record: TaskRecord | undefined): void;
}

/** One timer for all of this replica's tasks: renew each lease, and re-read each task. */
export class TaskHeartbeat {
  readonly #store: TaskStore;
  readonly #clock: Clock;
  readonly #replicaId: string;
  readonly #leaseMs: number;
  readonly #report: ReportFailure;
  readonly #running: ReadonlyMap<string, unknown>;
  readonly #observe: TaskHeartbeatOptions['observe'];
  #timer: CancelTimer | undefined;
  #closed = false;

  constructor(options: TaskHeartbeatOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#replicaId = options.replicaId;
    this.#leaseMs = options.leaseMs;
    this.#report = options.report;
    this.#running = options.running;
    this.#observe = options.observe;
  }

  /** Beat from now on, while there are tasks running; does nothing if already armed or closed. */
  arm(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = undefined;
      void this.#beat().finally(() => {
        if (this.#running.size > 0) this.arm();
      });
    }, heartbeatMs(this.#leaseMs));
  }

  /** No tasks left: stop beating until the next one is armed. */
  pause(): void {
    this.#timer?.();
    this.#timer = undefined;
  }

  /** The server is stopping: stop beating, for good. */
  close(): void {
    this.#closed = true;
    this.pause();
  }

  async #beat(): Promise<void> {
    await Promise.all(
      [...this.#running.keys()].map(async (taskId) => {
        try {
          const record = await this.#store.update(taskId, (current) =>
            withLeaseRenewed(current, this.#replicaId, this.#clock.now() + this.#leaseMs),
          );
          this.#observe(taskId, record);
        } catch (error) {
          this.#report(error, { method: 'tasks', target: taskId });
        }
      }),
    );
  }
}
