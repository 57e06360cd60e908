import { jsonRpcError } from '@parley/core';

import type { PushChannel } from '../handler/pushChannel.ts';
import type { ResolvedTaskOptions } from '../handler/taskOptions.ts';
import type { RoundReply, RoundRequest } from '../round/request.ts';
import type { RoundRuntime } from '../round/roundRuntime.ts';
import { handshakeCreateTaskResult, handshakeStatusNotification } from './handshakeWire.ts';
import { createTaskResult } from './modernWire.ts';
import type { TaskEngine } from './taskEngine.ts';
import type { TaskIO } from './taskEngineTypes.ts';
import { taskPushChannel } from './taskPushChannel.ts';
import { isFinished, statusMessageOf, type TaskRecord, type TaskScope } from './taskRecord.ts';
import type { TaskOutcome } from './taskTransitions.ts';

/**
 * A `tools/call` the server decided to run as a task (`taskCalls.ts`), launched: the handler runs
 * detached in the {@link TaskEngine}, through the same round pipeline as any call, with a push
 * channel whose requests are questions on the task, so `ctx.ask`, `ctx.askAll`, `ctx.elicit` and
 * `ctx.sample` all *await* their answers inside a task, on both eras.
 *
 * With `start: 'by-handler'` (modern era), the call is an ordinary round until the handler
 * calls `ctx.startTask()`: what it asked before came by MRTR rounds of the call itself, and the
 * round that reaches `startTask()` answers with the `CreateTaskResult` while the handler goes on.
 *
 * The round pipeline is handed in (`ServeRound`), so the call enters it in one place.
 */

/** What the era says about the call. */
export type TaskCallEra =
  | { era: 'modern' }
  /**
   * 2025-11-25: the client's `params.task`, as it came, and the session `tasks/list` lists the
   * task under (the HTTP session, or the connection).
   */
  | {
      era: 'handshake';
      task: unknown;
      session: string;
      /**
       * Send a notification to the session (not tied to the request, which the task outlives):
       * `notifications/tasks/status` as the task's status changes.
       */
      notify?: (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;
    };

/** What a call that may run as a task needs: a round's runtime, and where tasks run. */
export interface TaskRuntime extends RoundRuntime {
  /** Where tools that run as tasks run, and their state is kept. */
  tasks: TaskEngine;
}

/** How a round is served: the round pipeline. */
export type ServeRound = (runtime: RoundRuntime, req: RoundRequest) => Promise<RoundReply>;

/** A launched task call: serve its round through `serve`, and answer the client. */
export type TaskLaunch = (serve: ServeRound) => Promise<RoundReply>;

/** What both kinds of launch know. */
interface Launch {
  runtime: TaskRuntime;
  req: RoundRequest;
  era: TaskCallEra;
  start: { scope: TaskScope; ttlMs: ResolvedTaskOptions['ttlMs']; pollIntervalMs: number };
  /** The request's log, detached: it must not fail a task that outlived the request. */
  log: RoundRequest['log'];
}

/** A round's reply as the task's outcome. */
function outcomeOf(reply: RoundReply): TaskOutcome {
  if (reply.kind === 'error') return reply;
  if (reply.result.resultType === 'input_required') {
    // A guard's ask needs a client that retries the call; a task's questions are asked with
    // ctx.ask (or ctx.elicit), which await on the task.
    return {
      kind: 'error',
      error: jsonRpcError(
        'internalError',
        'The tool returned inputRequired(...) inside a task, where no client retries the call; ask with ctx.ask inside a task.',
      ),
    };
  }
  const { resultType: _complete, ...result } = reply.result;
  return { kind: 'result', result };
}

function scopeOf(req: RoundRequest, tool: string, era: TaskCallEra): TaskScope {
  const { request } = req;
  return {
    tool,
    era: request.era,
    protocolVersion: request.protocolVersion,
    clientCapabilities: request.clientCapabilities,
    ...(request.principal !== undefined ? { principal: request.principal } : {}),
    ...(era.era === 'handshake' ? { sessionId: era.session } : {}),
  };
}

/**
 * The runtime a task's rounds run on: a question waits as long as the task lives (its TTL, a
 * cancel, or a timeout the handler gives), not the server's elicitation timeout.
 */
function taskRuntime(runtime: TaskRuntime): TaskRuntime {
  return { ...runtime, elicitationTimeoutMs: Infinity };
}

/** The answer to the call once its task exists: the task, in the era's shape. */
function created(launch: Launch, record: TaskRecord): RoundReply {
  return {
    kind: 'result',
    result: (launch.era.era === 'modern'
      ? createTaskResult(record)
      : handshakeCreateTaskResult(record)) as unknown as Record<string, unknown>,
  };
}

/**
 * Launch a task call whose TTL the era decided (`ttlMs`). The round runs when the returned launch
 * is given the round pipeline.
 */
export function launchTask(
  runtime: TaskRuntime,
  req: RoundRequest,
  era: TaskCallEra,
  task: ResolvedTaskOptions,
  ttlMs: ResolvedTaskOptions['ttlMs'],
): TaskLaunch {
  const launch: Launch = {
    runtime,
    req,
    era,
    start: {
      scope: scopeOf(req, req.params.name as string, era),
      ttlMs,
      pollIntervalMs: task.pollIntervalMs,
    },
    log: (level, data) => req.log(level, data).catch(() => undefined),
  };
  return task.start === 'by-handler' && era.era === 'modern'
    ? (serve) => startedByHandler(launch, serve)
    : (serve) => detached(launch, serve);
}

/** The task starts now; the handler runs on it, and the client gets the task at once. */
async function detached(launch: Launch, serve: ServeRound): Promise<RoundReply> {
  const { runtime, req, era } = launch;
  const completeElicitation = req.push?.completeElicitation;
  const record = await runtime.tasks.start({
    ...launch.start,
    run: async (io) =>
      outcomeOf(
        await serve(taskRuntime(runtime), {
          ...req,
          signal: io.signal,
          log: launch.log,
          push: taskPushChannel(
            io,
            completeElicitation !== undefined ? { completeElicitation } : {},
          ),
          progress: (progress, total, message) => io.reportProgress(progress, total, message),
        }),
      ),
  });
  if (era.era === 'handshake' && era.notify !== undefined) {
    announceStatus(runtime, record, era.notify);
  }
  return created(launch, record);
}

/**
 * 2025-11-25: tell the session each time its task's status (or status message) changes, with
 * `notifications/tasks/status` (optional in that revision; clients still poll). The task runs
 * on this replica, as the session does, so this replica sees every change; it stops at the
 * end, or once the session cannot be told any more.
 */
function announceStatus(
  runtime: TaskRuntime,
  record: TaskRecord,
  notify: NonNullable<Extract<TaskCallEra, { era: 'handshake' }>['notify']>,
): void {
  const shown = (task: TaskRecord): string => `${task.status}\n${statusMessageOf(task) ?? ''}`;
  let last = shown(record); // the CreateTaskResult said as much
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    unwatch();
  };
  const see = (changed: TaskRecord | undefined): void => {
    if (stopped) return;
    if (changed === undefined) return stop();
    const now = shown(changed);
    if (now !== last) {
      last = now;
      const { method, params } = handshakeStatusNotification(changed);
      notify({ method, params: params as unknown as Record<string, unknown> }).catch(stop);
    }
    if (isFinished(changed)) stop();
  };
  const unwatch = runtime.tasks.watch(record.taskId, see);
  // What changed before the watch began.
  runtime.tasks.store.get(record.taskId).then(see, () => {});
}

/**
 * `start: 'by-handler'`: a round like any other, until `ctx.startTask()` creates the task; from
 * then on the handler's signal follows the task, its questions go on the task, and its result
 * becomes the task's.
 */
async function startedByHandler(launch: Launch, serve: ServeRound): Promise<RoundReply> {
  const { runtime, req } = launch;
  const controller = new AbortController();
  const followRequest = (): void => controller.abort(req.signal.reason);
  if (req.signal.aborted) controller.abort(req.signal.reason);
  else req.signal.addEventListener('abort', followRequest, { once: true });

  let io: TaskIO | undefined;
  let record: TaskRecord | undefined;
  let settle: (outcome: TaskOutcome) => void = () => {};
  const outcome = new Promise<TaskOutcome>((resolve) => (settle = resolve));
  let announce: () => void = () => {};
  const started = new Promise<'started'>((resolve) => (announce = () => resolve('started')));
  let starting: Promise<PushChannel> | undefined;

  const startTask = (): Promise<PushChannel> =>
    (starting ??= (async () => {
      let taken: (io: TaskIO) => void = () => {};
      const given = new Promise<TaskIO>((resolve) => (taken = resolve));
      record = await runtime.tasks.start({
        ...launch.start,
        run: (taskIo) => {
          taken(taskIo);
          return outcome;
        },
      });
      io = await given;
      // The request is answered now; from here on only the task can stop the handler.
      req.signal.removeEventListener('abort', followRequest);
      if (io.signal.aborted) controller.abort(io.signal.reason);
      else io.signal.addEventListener('abort', () => controller.abort(io!.signal.reason));
      announce();
      return taskPushChannel(io);
    })());

  const round = serve(taskRuntime(runtime), {
    ...req,
    signal: controller.signal,
    log: launch.log,
    progress: (progress, total, message) =>
      io !== undefined
        ? io.reportProgress(progress, total, message)
        : (req.progress?.(progress, total, message) ?? Promise.resolve()),
    startTask,
  });
  const first = await Promise.race([round, started]);
  if (record === undefined) {
    req.signal.removeEventListener('abort', followRequest);
    return first as RoundReply;
  }
  void round.then((reply) => settle(outcomeOf(reply)));
  return created(launch, record);
}
