import type { InputRequests, InputResponses } from '@parley/core';

import type { Clock } from './clock.ts';
import type { TaskScope } from './taskRecord.ts';
import type { TaskStore } from './taskStore.ts';
import type { TaskOutcome } from './taskTransitions.ts';

/**
 * The shapes the task engine's callers use (who asks, what a handler gets, what starting a task
 * needs, the engine's options and their defaults). They live apart from `TaskEngine` so that
 * the engine's own parts (its local tasks, their waiters and heartbeat) can name them without
 * importing the engine, which imports those parts.
 */

/** Who is asking about a task. */
export interface TaskAccess {
  /** The authenticated principal, if any: a task started by a principal is only its own. */
  principal?: string;
  /** Handshake era: the session asking, for `tasks/list`. */
  sessionId?: string;
}

/** What a task's handler gets: its id, its signal, and the way to ask and to report. */
export interface TaskIO {
  readonly taskId: string;
  /** Aborted when the task is cancelled, expires, fails elsewhere, or the server closes. */
  readonly signal: AbortSignal;
  /**
   * Put questions on the task and wait for every answer, by the keys given. Questions of a
   * kind the client cannot answer fail with `UnsupportedCapabilityError` (optional asks are
   * left out instead). A bad form answer has already been asked again, up to the budget.
   */
  ask(
    inputs: InputRequests,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<InputResponses>;
  /** What the task is doing, for the client to show; `undefined` clears it. */
  setStatusMessage(message: string | undefined): Promise<void>;
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
}

/** What starting a task needs. */
export interface TaskStart {
  scope: TaskScope;
  /** How long the task is kept after it starts; `null`: no limit. */
  ttlMs: number | null;
  pollIntervalMs: number;
  statusMessage?: string;
  /** The work. Its outcome is the task's; a throw is an internal error (`failed`). */
  run(io: TaskIO): Promise<TaskOutcome>;
}

/** Where the engine tells of a failure of its own machinery. */
export type ReportFailure = (error: unknown, where: { method: string; target: string }) => void;

/** This replica, as the parts of the engine that run and watch its tasks know it. */
export interface TaskReplica {
  store: TaskStore;
  clock: Clock;
  replicaId: string;
  leaseMs: number;
  report: ReportFailure;
}

export interface TaskEngineOptions {
  store?: TaskStore;
  clock?: Clock;
  /** This replica's name in task leases. Default: a random id. */
  replicaId?: string;
  /** How long a replica's hold on its tasks lasts without a heartbeat. Default 30 s. */
  leaseMs?: number;
  /** How many times a bad answer to one question is asked again. Default 3. */
  maxReasks?: number;
  /** Failures of the engine's own machinery (a store outage during a heartbeat, …). */
  report?: ReportFailure;
}

/** What `tasks/cancel` found. */
export type CancelOutcome = 'cancelled' | 'already-ended' | 'unknown';

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_MAX_REASKS = 3;
