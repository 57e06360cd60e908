import {
  InvalidInputResponsesError,
  isRecord,
  jsonRpcError,
  type InputResponse,
  type InputResponses,
  type JsonRpcErrorObject,
} from '@parley/core';

import { screenAnswers, type AskedRecord } from '../ask/asked.ts';
import { answerProblem, reaskRequest } from '../ask/reask.ts';
import { elicitRequestFor } from '../ask/versionSchemas.ts';
import {
  isFinished,
  runningStatusOf,
  type PendingInput,
  type TaskProgress,
  type TaskRecord,
  type TaskScope,
} from './taskRecord.ts';

/**
 * Every change a task goes through, as pure functions from one record to the next. A function
 * returns `undefined` when the change does not apply (the task already ended, say), so a store
 * applying it atomically writes nothing. None of them reads the clock: `now` is passed in.
 */

/** The next version of `record`: revision bumped, and `lastUpdatedAt` when something changed. */
function next(
  record: TaskRecord,
  changes: Partial<TaskRecord>,
  now: number | undefined,
): TaskRecord {
  const updated: TaskRecord = { ...record, ...changes, revision: record.revision + 1 };
  if (now !== undefined) updated.lastUpdatedAt = now;
  if (!isFinished(updated)) updated.status = runningStatusOf(updated);
  return updated;
}

/** What a new task starts with. */
export interface NewTask {
  taskId: string;
  scope: TaskScope;
  now: number;
  ttlMs: number | null;
  pollIntervalMs: number;
  owner: string;
  leaseMs: number;
  statusMessage?: string;
}

/** A task as it is created: `working`, owned by the replica that will run it. */
export function newTaskRecord(init: NewTask): TaskRecord {
  return {
    taskId: init.taskId,
    status: 'working',
    ...(init.statusMessage !== undefined ? { statusMessage: init.statusMessage } : {}),
    createdAt: init.now,
    lastUpdatedAt: init.now,
    ttlMs: init.ttlMs,
    pollIntervalMs: init.pollIntervalMs,
    scope: init.scope,
    lease: { owner: init.owner, expiresAt: init.now + init.leaseMs },
    inputRequests: {},
    answers: {},
    keysUsed: [],
    revision: 1,
  };
}

/**
 * A wire key for a question the handler calls `name`, never used before in this task: `name`
 * itself the first time, then `name-2`, `name-3`, … (keys are unique over a task's life).
 */
export function nextKey(name: string, keysUsed: readonly string[]): string {
  const used = new Set(keysUsed);
  if (!used.has(name)) return name;
  for (let n = 2; ; n++) if (!used.has(`${name}-${n}`)) return `${name}-${n}`;
}

/** One question to put on the task. */
export type NewInput = Omit<PendingInput, 'reasks'>;

/**
 * Put questions on the task: it becomes `input_required` (until every one is answered), each
 * under a key never used before. Returns the record and the key each question got, by `name`.
 */
export function withInputs(
  record: TaskRecord,
  inputs: readonly NewInput[],
  now: number,
): { record: TaskRecord; keys: Record<string, string> } | undefined {
  if (isFinished(record)) return undefined;
  const keysUsed = [...record.keysUsed];
  const inputRequests = { ...record.inputRequests };
  const keys: Record<string, string> = {};
  for (const input of inputs) {
    const key = nextKey(input.name, keysUsed);
    keysUsed.push(key);
    inputRequests[key] = { ...input, reasks: 0 };
    keys[input.name] = key;
  }
  return { record: next(record, { inputRequests, keysUsed }, now), keys };
}

/** What a `tasks/update` did with each answer. */
export interface UpdateReport {
  /** Keys whose answers were taken (delivered to the handler). */
  accepted: string[];
  /** Keys whose answers did not fit, asked again under the new key given. */
  reasked: { key: string; newKey: string; reason: string }[];
  /** Keys that are not outstanding (never asked, already answered, superseded): ignored. */
  ignored: string[];
}

/**
 * Apply a client's `inputResponses` to the outstanding questions, as the round pipeline does
 * for a retry: an answer under a key that is not outstanding is ignored (SEP-2663); an answer
 * of the wrong kind is refused; a form answer that does not fit its question is asked again
 * (under a new key, saying what was wrong) while the question's budget lasts, and otherwise
 * delivered as it is (the handler's reader then raises the `InvalidAnswerError`). A partial
 * set of answers is fine: the task stays `input_required` until every question is answered.
 *
 * @throws {InvalidInputResponsesError} when `inputResponses` is not an object, or an answer
 *   is not an object or is of the wrong kind for its question (nothing is applied then).
 */
export function withInputResponses(
  record: TaskRecord,
  responses: unknown,
  options: { now: number; maxReasks: number },
): { record: TaskRecord | undefined; report: UpdateReport } {
  if (!isRecord(responses)) {
    throw new InvalidInputResponsesError({
      reason: `inputResponses must be an object of answers by key, got ${responses === null ? 'null' : Array.isArray(responses) ? 'an array' : `a ${typeof responses}`}`,
    });
  }
  const report: UpdateReport = { accepted: [], reasked: [], ignored: [] };
  if (isFinished(record)) {
    report.ignored.push(...Object.keys(responses));
    return { record: undefined, report };
  }
  const outstanding: Record<string, PendingInput['asked']> = {};
  for (const [key, pending] of Object.entries(record.inputRequests))
    outstanding[key] = pending.asked;
  const { kept, dropped } = screenAnswers(responses, outstanding as AskedRecord);
  report.ignored.push(...dropped);
  if (Object.keys(kept).length === 0) return { record: undefined, report };

  const inputRequests = { ...record.inputRequests };
  const answers = { ...record.answers };
  const keysUsed = [...record.keysUsed];
  for (const [key, answer] of Object.entries(kept)) {
    const pending = inputRequests[key] as PendingInput;
    delete inputRequests[key];
    const question = pending.asked.question;
    const problem =
      question === undefined
        ? undefined
        : answerProblem(key, answer, question, pending.asked.digest);
    if (problem !== undefined && question !== undefined && pending.reasks < options.maxReasks) {
      const newKey = nextKey(pending.name, keysUsed);
      keysUsed.push(newKey);
      inputRequests[newKey] = {
        ...pending,
        request: elicitRequestFor(reaskRequest(question, problem), record.scope.protocolVersion),
        reasks: pending.reasks + 1,
      };
      report.reasked.push({ key, newKey, reason: problem.reason });
      continue;
    }
    answers[key] = { name: pending.name, waiter: pending.waiter, answer };
    report.accepted.push(key);
  }
  return { record: next(record, { inputRequests, answers, keysUsed }, options.now), report };
}

/**
 * The answers of one wait, once all its questions are answered: taken off the task and
 * returned by the handler's names. `undefined` while one is outstanding.
 */
export function takeAnswers(
  record: TaskRecord,
  waiter: string,
  now: number,
): { record: TaskRecord; answers: InputResponses } | undefined {
  if (Object.values(record.inputRequests).some((pending) => pending.waiter === waiter))
    return undefined;
  const answers: Record<string, InputResponse> = {};
  const left = { ...record.answers };
  for (const [key, delivered] of Object.entries(record.answers)) {
    if (delivered.waiter !== waiter) continue;
    answers[delivered.name] = delivered.answer;
    delete left[key];
  }
  return { record: next(record, { answers: left }, now), answers };
}

/** A wait that gave up (timeout, abort): its questions and answers leave the task. */
export function withoutWaiter(
  record: TaskRecord,
  waiter: string,
  now: number,
): TaskRecord | undefined {
  if (isFinished(record)) return undefined;
  const inputRequests = Object.fromEntries(
    Object.entries(record.inputRequests).filter(([, pending]) => pending.waiter !== waiter),
  );
  const answers = Object.fromEntries(
    Object.entries(record.answers).filter(([, delivered]) => delivered.waiter !== waiter),
  );
  return next(record, { inputRequests, answers }, now);
}

/** What the handler said about its work. */
export function withStatusMessage(
  record: TaskRecord,
  statusMessage: string | undefined,
  now: number,
): TaskRecord | undefined {
  if (isFinished(record)) return undefined;
  const { statusMessage: _previous, progress: _progress, ...rest } = record;
  return next(rest as TaskRecord, statusMessage === undefined ? {} : { statusMessage }, now);
}

/** Progress the handler reported; it replaces any status message it set before. */
export function withProgress(
  record: TaskRecord,
  progress: TaskProgress,
  now: number,
): TaskRecord | undefined {
  if (isFinished(record)) return undefined;
  const { statusMessage: _previous, ...rest } = record;
  return next(rest as TaskRecord, { progress }, now);
}

/** The end of a task: what a synchronous call would have answered. */
export type TaskOutcome =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; error: JsonRpcErrorObject };

/** An ended task waits on nothing. */
const ENDED: Partial<TaskRecord> = Object.freeze({ inputRequests: {}, answers: {} });

/**
 * The handler finished: `completed` with its result (a tool error too: `isError` results
 * complete), or `failed` with the JSON-RPC error. A task that already ended keeps its end.
 */
export function withOutcome(
  record: TaskRecord,
  outcome: TaskOutcome,
  now: number,
): TaskRecord | undefined {
  if (isFinished(record)) return undefined;
  const { progress: _progress, ...rest } = record;
  return outcome.kind === 'result'
    ? next(rest as TaskRecord, { ...ENDED, status: 'completed', result: outcome.result }, now)
    : next(
        rest as TaskRecord,
        {
          ...ENDED,
          status: 'failed',
          error: outcome.error,
          statusMessage: outcome.error.message,
        },
        now,
      );
}

/** Cancelled (by the client, or the server); a task that already ended keeps its end. */
export function withCancel(
  record: TaskRecord,
  statusMessage: string,
  now: number,
): TaskRecord | undefined {
  if (isFinished(record)) return undefined;
  const { progress: _progress, ...rest } = record;
  return next(rest as TaskRecord, { ...ENDED, status: 'cancelled', statusMessage }, now);
}

/** The owner's heartbeat: it is alive until `expiresAt`. Only the owner renews its own lease. */
export function withLeaseRenewed(
  record: TaskRecord,
  owner: string,
  expiresAt: number,
): TaskRecord | undefined {
  if (isFinished(record) || record.lease.owner !== owner) return undefined;
  return next(record, { lease: { owner, expiresAt } }, undefined);
}

/** True when the task is still running by its record but its owner stopped renewing the lease. */
export function hasLostOwner(record: TaskRecord, now: number): boolean {
  return !isFinished(record) && record.lease.expiresAt <= now;
}

/** The error a task whose replica died ends with. */
export function ownerLostError(record: TaskRecord): JsonRpcErrorObject {
  return jsonRpcError(
    'internalError',
    `The server process running this task (${record.lease.owner}) stopped before it finished: ` +
      `it last renewed its lease until ${new Date(record.lease.expiresAt).toISOString()}. ` +
      'The work cannot resume; call the tool again.',
    { reason: 'task_owner_lost', owner: record.lease.owner },
  );
}

/** A running task whose owner is gone, marked `failed` with the reason (on any replica). */
export function withOwnerLost(record: TaskRecord, now: number): TaskRecord | undefined {
  if (!hasLostOwner(record, now)) return undefined;
  return withOutcome(record, { kind: 'error', error: ownerLostError(record) }, now);
}
