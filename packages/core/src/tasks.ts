import type { JsonRpcErrorObject } from './errors/codes.ts';
import type { InputRequests } from './inputRequired.ts';
import type { ClientCapabilities, Meta } from './wireTypes.ts';

/**
 * The vocabulary of tasks, in both eras: a `tools/call` answered with a durable handle that the
 * client polls, answers questions on, and cancels.
 *
 * - 2026-07-28: the `io.modelcontextprotocol/tasks` extension (SEP-2663). The server decides
 *   when a call becomes a task, for clients that declared the extension on the request; the
 *   result is flat (`resultType: "task"`), `tasks/get` inlines questions, result or error, and
 *   answers go back with `tasks/update`.
 * - 2025-11-25: the core spec's experimental tasks. The client asks for a task with
 *   `params.task`; the result wraps it (`{ task }`); `tasks/result` blocks and carries the
 *   questions as real requests tagged with the related-task metadata.
 */

/** The extension's identifier, in capabilities on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `_meta` key that ties a 2025-11-25 message to its task. */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** Where a task is in its life. The last three are terminal: they never change again. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Every task status, in lifecycle order. */
export const TASK_STATUSES: readonly TaskStatus[] = Object.freeze([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
]);

const TERMINAL: ReadonlySet<unknown> = new Set(['completed', 'failed', 'cancelled']);

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalTaskStatus(
  status: unknown,
): status is 'completed' | 'failed' | 'cancelled' {
  return TERMINAL.has(status);
}

/** True for a string that is one of the five statuses. */
export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);
}

/** True when the client declared the tasks extension in these (per-request) capabilities. */
export function declaresTasksExtension(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    Object.hasOwn(extensions, TASKS_EXTENSION) &&
    typeof extensions[TASKS_EXTENSION] === 'object' &&
    extensions[TASKS_EXTENSION] !== null
  );
}

/** The `requiredCapabilities` of a `-32021` for a request that can only be served as a task. */
export function tasksRequiredCapabilities(): ClientCapabilities {
  return { extensions: { [TASKS_EXTENSION]: {} } };
}

// ---------------------------------------------------------------------------------------------
// 2026-07-28: the extension
// ---------------------------------------------------------------------------------------------

/** A task's metadata, as the extension puts it on the wire. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  /** What is going on, for a person or a model: progress, what is awaited, why it failed. */
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** How long the task is kept after its creation, in whole milliseconds; `null`: no limit. */
  ttlMs: number | null;
  /** How often to poll, in whole milliseconds. */
  pollIntervalMs?: number;
}

/** The answer to a `tools/call` the server turned into a task: the task, flat. */
export interface CreateTaskResult extends Task {
  resultType: 'task';
  _meta?: Meta;
}

/** A task with what its status carries inline: `tasks/get` and `notifications/tasks`. */
export type DetailedTask =
  | (Task & { status: 'working' })
  | (Task & { status: 'input_required'; inputRequests: InputRequests })
  | (Task & { status: 'completed'; result: Record<string, unknown> })
  | (Task & { status: 'failed'; error: JsonRpcErrorObject })
  | (Task & { status: 'cancelled' });

/** True for a `CreateTaskResult` (a result with `resultType: "task"` and a task id). */
export function isCreateTaskResult(value: unknown): value is CreateTaskResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'task' &&
    typeof (value as { taskId?: unknown }).taskId === 'string'
  );
}

// ---------------------------------------------------------------------------------------------
// 2025-11-25: core tasks
// ---------------------------------------------------------------------------------------------

/** A task as 2025-11-25 puts it on the wire (`ttl` and `pollInterval`, in milliseconds). */
export interface HandshakeTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/** What a 2025-11-25 client sends in `params.task` to ask for a task. */
export interface HandshakeTaskRequest {
  /** The lifetime the client would like, in milliseconds; the server may choose another. */
  ttl?: number;
}

/** True for a 2025-11-25 `CreateTaskResult`: `{ task: { taskId, status, … } }`. */
export function isHandshakeCreateTaskResult(
  value: unknown,
): value is { task: HandshakeTask; _meta?: Meta } {
  if (typeof value !== 'object' || value === null) return false;
  const task = (value as { task?: unknown }).task;
  return (
    typeof task === 'object' &&
    task !== null &&
    typeof (task as { taskId?: unknown }).taskId === 'string' &&
    isTaskStatus((task as { status?: unknown }).status)
  );
}
