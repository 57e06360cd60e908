import { declaresTasksExtension, isRecord } from '@parley/core';
import type { ServerNotifier } from '@modelcontextprotocol/server';

import { errorReply } from '../modern/errorReply.ts';
import type { CheckedRequest } from '../modern/messages.ts';
import { SERVER_INFO_KEY } from '../modern/envelope.ts';
import { capabilitiesOf, type ServerRuntime } from '../runtime/serverRuntime.ts';
import { missingTasksExtension, taskNotification } from '../tasks/modernWire.ts';
import { hasTaskTools } from '../tasks/taskCalls.ts';
import type { TaskAccess } from '../tasks/taskEngineTypes.ts';
import { isFinished, type TaskRecord } from '../tasks/taskRecord.ts';
import { KEEP_ALIVE_MS, KeepAlive } from './keepAlive.ts';
import type { EventSink, Reply } from './wire.ts';

/**
 * The 2026-07-28 `subscriptions/listen` streams (SEP-2575) of an HTTP endpoint, with the tasks
 * extension's `notifications/tasks` (SEP-2663): a client names the tasks it wants to hear of
 * (`notifications.taskIds`) beside the list changes and resource updates, and is told of each
 * change of their state as it happens, whichever replica made it (the task store's change
 * notices), as the `DetailedTask` that `tasks/get` would return at that moment.
 *
 * Change notices may be lost (Redis pub/sub is at most once), and a replica that dies writes
 * nothing: every stream also re-reads its tasks now and then (`recheckMs`), which is also what
 * marks a task whose owner died `failed`, so its listeners hear of it.
 */

export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

/** What a client may ask to hear of on one stream. */
export interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  taskIds?: string[];
}

export interface ListenStreamsOptions {
  /** Streams open at once; one more is refused (`-32603`). Default 1024. */
  maxStreams?: number;
  /** Task ids one stream may name. Default 1000. */
  maxTaskIds?: number;
  /** Comment lines that keep idle streams open through proxies. Default 15 000 ms. */
  keepAliveMs?: number;
  /** How often a stream re-reads its unfinished tasks. Default 5 000 ms. */
  recheckMs?: number;
}

/** One stream being opened: the checked request, the caller, and its end. */
export interface ListenRequest {
  request: CheckedRequest;
  principal: string | undefined;
  signal: AbortSignal;
  /** Starts the `text/event-stream` answer (only once the request is accepted). */
  events(): EventSink;
}

type ChangeEvent = { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string };

const CHANGE_METHODS = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const;

function frame(message: Record<string, unknown>): string {
  return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`;
}

/** The filter a listen request asks for, or what is wrong with it. */
export function readListenFilter(
  params: Record<string, unknown>,
  maxTaskIds: number,
): ListenFilter | { problem: string } {
  const asked = params.notifications;
  if (!isRecord(asked)) return { problem: 'params.notifications (an object) is required' };
  const filter: ListenFilter = {};
  for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    const value = asked[key];
    if (value !== undefined && typeof value !== 'boolean') {
      return { problem: `notifications.${key} must be a boolean` };
    }
    if (value === true) filter[key] = true;
  }
  for (const key of ['resourceSubscriptions', 'taskIds'] as const) {
    const value = asked[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) {
      return { problem: `notifications.${key} must be an array of non-empty strings` };
    }
    if (key === 'taskIds' && value.length > maxTaskIds) {
      return {
        problem: `notifications.taskIds names ${value.length} tasks; at most ${maxTaskIds}`,
      };
    }
    if (value.length > 0) filter[key] = [...new Set(value as string[])];
  }
  return filter;
}

export class ListenStreams {
  readonly #runtime: ServerRuntime;
  readonly #maxStreams: number;
  readonly #maxTaskIds: number;
  readonly #keepAlive: KeepAlive;
  readonly #recheckMs: number;
  /** Each open stream, by the way to end it (gracefully: with the listen request's result). */
  readonly #open = new Set<(graceful: boolean) => void>();
  readonly #listeners = new Set<(event: ChangeEvent) => void>();

  constructor(runtime: ServerRuntime, options: ListenStreamsOptions = {}) {
    this.#runtime = runtime;
    this.#maxStreams = options.maxStreams ?? 1024;
    this.#maxTaskIds = options.maxTaskIds ?? 1000;
    this.#keepAlive = new KeepAlive(options.keepAliveMs ?? KEEP_ALIVE_MS);
    this.#recheckMs = options.recheckMs ?? 5_000;
  }

  /** Announces list changes and resource updates on every stream that asked for them. */
  get notify(): ServerNotifier {
    const publish = (event: ChangeEvent): void => {
      for (const listener of [...this.#listeners]) listener(event);
    };
    return {
      toolsChanged: () => publish({ kind: 'tools' }),
      promptsChanged: () => publish({ kind: 'prompts' }),
      resourcesChanged: () => publish({ kind: 'resources' }),
      resourceUpdated: (uri) => publish({ kind: 'resource', uri }),
    };
  }

  /** Streams open now. */
  get size(): number {
    return this.#open.size;
  }

  /** End every stream with its result (the client knows to listen again, elsewhere). */
  closeAll(): void {
    for (const end of [...this.#open]) end(true);
  }

  /**
   * Open one stream: the acknowledgement with what the server agreed to send, the current
   * state of each task named, then every change. A reply instead when the request is refused.
   */
  async open(listen: ListenRequest): Promise<Reply | undefined> {
    const { id, params, envelope } = listen.request;
    if (this.#open.size >= this.#maxStreams) {
      return errorReply('internalError', 'Subscription limit reached', { id });
    }
    const filter = readListenFilter(params, this.#maxTaskIds);
    if ('problem' in filter) {
      return errorReply('invalidParams', `Invalid params: ${filter.problem}`, { id });
    }
    if (filter.taskIds !== undefined && !declaresTasksExtension(envelope.clientCapabilities)) {
      const error = missingTasksExtension('Task status notifications (notifications.taskIds)');
      return errorReply('missingRequiredClientCapability', error.message, { id, data: error.data });
    }
    const access: TaskAccess =
      listen.principal === undefined ? {} : { principal: listen.principal };
    const honored = await this.#honored(filter, access);
    this.#stream(listen, honored, access);
    return undefined;
  }

  /** The part of the filter this server can deliver: what it declares, tasks the caller may see. */
  async #honored(
    filter: ListenFilter,
    access: TaskAccess,
  ): Promise<{
    filter: ListenFilter;
    tasks: Map<string, TaskRecord>;
  }> {
    const capabilities = capabilitiesOf(this.#runtime);
    const honored: ListenFilter = {};
    if (filter.toolsListChanged && capabilities.tools?.listChanged) honored.toolsListChanged = true;
    if (filter.promptsListChanged && capabilities.prompts?.listChanged)
      honored.promptsListChanged = true;
    if (filter.resourcesListChanged && capabilities.resources?.listChanged)
      honored.resourcesListChanged = true;
    if (filter.resourceSubscriptions !== undefined && capabilities.resources?.subscribe)
      honored.resourceSubscriptions = filter.resourceSubscriptions;
    const tasks = new Map<string, TaskRecord>();
    if (filter.taskIds !== undefined && hasTaskTools(this.#runtime)) {
      const engine = this.#runtime.tasks;
      const found = await Promise.all(
        filter.taskIds.map((taskId) => engine.get(taskId, access).catch(() => undefined)),
      );
      for (const record of found) if (record !== undefined) tasks.set(record.taskId, record);
      // Unknown tasks, expired ones and other principals' are left out of the acknowledgement.
      honored.taskIds = [...tasks.keys()];
    }
    return { filter: honored, tasks };
  }

  #stream(
    listen: ListenRequest,
    honored: { filter: ListenFilter; tasks: Map<string, TaskRecord> },
    access: TaskAccess,
  ): void {
    const { id } = listen.request;
    const { filter, tasks } = honored;
    const stamp = { [SUBSCRIPTION_ID_KEY]: id };
    const sink = listen.events();
    const stops: (() => void)[] = [];
    let ended = false;
    const end = (graceful: boolean): void => {
      if (ended) return;
      ended = true;
      this.#open.delete(end);
      for (const stop of stops) stop();
      if (graceful) {
        sink.write(
          frame({
            id,
            result: {
              resultType: 'complete',
              _meta: { ...stamp, [SERVER_INFO_KEY]: this.#runtime.info },
            },
          }),
        );
      }
      sink.end();
    };
    const notify = (method: string, params: Record<string, unknown> = {}): void => {
      if (ended) return;
      const meta = isRecord(params._meta) ? params._meta : {};
      sink.write(frame({ method, params: { ...params, _meta: { ...meta, ...stamp } } }));
    };

    notify('notifications/subscriptions/acknowledged', { notifications: filter });
    const wantsChanges =
      filter.toolsListChanged ||
      filter.promptsListChanged ||
      filter.resourcesListChanged ||
      filter.resourceSubscriptions !== undefined;
    if (!wantsChanges && (filter.taskIds === undefined || filter.taskIds.length === 0)) {
      end(true); // nothing to send: the stream ends at once, as the spec says
      return;
    }
    this.#open.add(end);

    if (wantsChanges) {
      const listener = (event: ChangeEvent): void => {
        if (event.kind === 'resource') {
          if (filter.resourceSubscriptions?.includes(event.uri))
            notify('notifications/resources/updated', { uri: event.uri });
          return;
        }
        const wanted =
          event.kind === 'tools'
            ? filter.toolsListChanged
            : event.kind === 'prompts'
              ? filter.promptsListChanged
              : filter.resourcesListChanged;
        if (wanted) notify(CHANGE_METHODS[event.kind]);
      };
      this.#listeners.add(listener);
      stops.push(() => this.#listeners.delete(listener));
    }

    if (tasks.size > 0) this.#followTasks(tasks, access, notify, stops);

    this.#keepAlive.add(sink);
    stops.push(() => this.#keepAlive.delete(sink));
    const onAbort = (): void => end(false);
    if (listen.signal.aborted) return end(false);
    listen.signal.addEventListener('abort', onAbort, { once: true });
    stops.push(() => listen.signal.removeEventListener('abort', onAbort));
  }

  /**
   * Send each task's state now, then on every change the client can see (status, message,
   * questions, outcome), until it ends or disappears.
   */
  #followTasks(
    tasks: Map<string, TaskRecord>,
    access: TaskAccess,
    notify: (method: string, params: Record<string, unknown>) => void,
    stops: (() => void)[],
  ): void {
    const engine = this.#runtime.tasks;
    const lastSent = new Map<string, string>();
    const unwatch = new Map<string, () => void>();
    const forget = (taskId: string): void => {
      unwatch.get(taskId)?.();
      unwatch.delete(taskId);
    };
    const see = (taskId: string, record: TaskRecord | undefined): void => {
      if (!unwatch.has(taskId)) return;
      // A principal's task stays its own, whatever a notice carries.
      if (
        record === undefined ||
        (record.scope.principal ?? access.principal) !== access.principal
      ) {
        forget(taskId);
        return;
      }
      const params = taskNotification(record).params as unknown as Record<string, unknown>;
      // What changed for the client: a write that only moved lastUpdatedAt (answers taken,
      // a lease renewed) is not news.
      const { lastUpdatedAt: _when, ...news } = params;
      const text = JSON.stringify(news);
      if (lastSent.get(taskId) !== text) {
        lastSent.set(taskId, text);
        notify('notifications/tasks', params);
      }
      if (isFinished(record)) forget(taskId);
    };
    for (const taskId of tasks.keys()) {
      unwatch.set(
        taskId,
        engine.watch(taskId, (record) => see(taskId, record)),
      );
    }
    for (const [taskId, record] of tasks) see(taskId, record);

    const recheck = setInterval(() => {
      for (const taskId of unwatch.keys()) {
        engine.get(taskId, access).then(
          (record) => see(taskId, record),
          () => {}, // the store is down: the next recheck, or a notice, tells
        );
      }
    }, this.#recheckMs);
    recheck.unref?.();
    stops.push(() => {
      clearInterval(recheck);
      for (const taskId of [...unwatch.keys()]) forget(taskId);
    });
  }
}
