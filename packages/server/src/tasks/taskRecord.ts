import {
  isTerminalTaskStatus,
  type ClientCapabilities,
  type Era,
  type InputRequest,
  type InputResponse,
  type JsonRpcErrorObject,
  type TaskStatus,
} from '@parley/core';

import type { AskedEntry } from '../ask/asked.ts';

/**
 * One task, as every replica stores and reads it: plain JSON, so any store can hold it and any
 * replica can serve `tasks/get`, `tasks/update` and `tasks/cancel` for it, while only the
 * replica that runs the handler (the owner, holding the lease) writes its outcome.
 *
 * Changes are pure functions from one record to the next (see `taskTransitions.ts`), applied
 * by the store atomically, so two replicas writing at once can never lose an answer.
 */

/** Who may see and act on a task, and what the client that started it could answer. */
export interface TaskScope {
  /** The tool it runs. */
  tool: string;
  era: Era;
  protocolVersion: string;
  /** What the client declared on the request that started the task. */
  clientCapabilities: ClientCapabilities;
  /** The authenticated principal; when set, only it may read or change the task. */
  principal?: string;
  /** Handshake era: the HTTP session or stdio connection that started it (for `tasks/list`). */
  sessionId?: string;
}

/** A question the handler is waiting on, under its wire key. */
export interface PendingInput {
  /** The request as the client sees it (the handler's, or its re-ask after a bad answer). */
  request: InputRequest;
  /**
   * The question as the handler built it: what answers are checked against. Its shape is the
   * server's own; a store keeps it as JSON and gives it back as it was.
   *
   * @internal
   */
  asked: AskedEntry;
  /** The key the handler asked under; answers come back to it under this name. */
  name: string;
  /** Which wait of the handler this belongs to. */
  waiter: string;
  /** How many times a bad answer to this question was asked again already. */
  reasks: number;
}

/** An answer the waiting handler has not taken yet. */
export interface DeliveredAnswer {
  name: string;
  waiter: string;
  answer: InputResponse;
}

/** The replica running the handler, and until when it is presumed alive. */
export interface TaskLease {
  owner: string;
  /** Ms since the epoch; renewed by the owner's heartbeat. */
  expiresAt: number;
}

/** Progress the handler reported, shown through the task's status message. */
export interface TaskProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  /** What the handler (or the server, on failure or cancel) said about the task. */
  statusMessage?: string;
  progress?: TaskProgress;
  /** Ms since the epoch. */
  createdAt: number;
  lastUpdatedAt: number;
  /** How long after creation the task is kept; `null`: until it is deleted. */
  ttlMs: number | null;
  pollIntervalMs: number;
  scope: TaskScope;
  lease: TaskLease;
  /** Outstanding questions, by wire key. */
  inputRequests: Record<string, PendingInput>;
  /** Answers delivered and not yet taken by the handler, by wire key. */
  answers: Record<string, DeliveredAnswer>;
  /** Every wire key the task ever asked under: keys are unique over a task's life (SEP-2663). */
  keysUsed: string[];
  /** `completed`: the tool's result, as a synchronous call would have returned it. */
  result?: Record<string, unknown>;
  /** `failed`: the JSON-RPC error the call ended in. */
  error?: JsonRpcErrorObject;
  /** Bumped by every write, for stores that update with compare-and-set. */
  revision: number;
}

/** When the record may be forgotten (ms since the epoch), or `Infinity`. */
export function taskExpiresAt(record: TaskRecord): number {
  return record.ttlMs === null ? Infinity : record.createdAt + record.ttlMs;
}

/** True once the task reached `completed`, `failed` or `cancelled`. */
export function isFinished(record: TaskRecord): boolean {
  return isTerminalTaskStatus(record.status);
}

/** The status a running task has: waiting for answers, or working. */
export function runningStatusOf(record: TaskRecord): 'working' | 'input_required' {
  return Object.keys(record.inputRequests).length > 0 ? 'input_required' : 'working';
}

function percentOf(progress: TaskProgress): string {
  if (progress.total === undefined || progress.total <= 0) return `${progress.progress}`;
  return `${Math.round((progress.progress / progress.total) * 100)}%`;
}

/**
 * What the task says about itself on the wire: while it waits, the question it waits on; else
 * the latest of what the handler said (`statusMessage`) or reported (`progress`); once it
 * ended, what the server said about the end.
 */
export function statusMessageOf(record: TaskRecord): string | undefined {
  if (record.status === 'input_required') {
    const first = Object.values(record.inputRequests)[0]?.request;
    if (first?.method === 'elicitation/create')
      return `Waiting for an answer: ${first.params.message}`;
    if (first?.method === 'sampling/createMessage') return 'Waiting for the client’s model';
    if (first?.method === 'roots/list') return 'Waiting for the client’s roots';
  }
  if (record.statusMessage !== undefined) return record.statusMessage;
  if (record.progress !== undefined && !isFinished(record)) {
    const { message } = record.progress;
    return message === undefined
      ? `Progress: ${percentOf(record.progress)}`
      : `${message} (${percentOf(record.progress)})`;
  }
  return undefined;
}
