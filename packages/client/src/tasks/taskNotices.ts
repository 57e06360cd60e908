import type { Client as McpClient, StandardSchemaV1 } from '@modelcontextprotocol/client';

/**
 * Hearing of a task instead of asking about it: on 2026-07-28 a server that offers it sends
 * `notifications/tasks` on a `subscriptions/listen` stream that names the task (SEP-2663), each
 * carrying the task as `tasks/get` would return it. One handler per SDK client routes them to
 * the driver of each task; a server that does not follow the task (no stream, or nothing heard)
 * leaves the driver polling.
 */

type Follower = (task: Record<string, unknown>) => void;

const ANY_PARAMS: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'parley',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'notifications/tasks params must be an object' }] },
  },
};

/** The followers of each task, per SDK client (the handler is registered on first use). */
const followersOf = new WeakMap<McpClient, Map<string, Set<Follower>>>();

function followers(sdk: McpClient): Map<string, Set<Follower>> {
  let byTask = followersOf.get(sdk);
  if (byTask !== undefined) return byTask;
  const created = new Map<string, Set<Follower>>();
  byTask = created;
  followersOf.set(sdk, created);
  sdk.setNotificationHandler('notifications/tasks', { params: ANY_PARAMS }, (params) => {
    const taskId = params.taskId;
    if (typeof taskId !== 'string') return;
    for (const follower of [...(created.get(taskId) ?? [])]) {
      try {
        follower(params);
      } catch {
        // One follower's failure is its own.
      }
    }
  });
  return byTask;
}

/** How long the server has to acknowledge a listen stream before the client gives up on it. */
const ACK_TIMEOUT_MS = 5_000;

/**
 * Listen for `taskId`'s state: `onTask` gets each notification's task. Resolves with the way
 * to stop once the stream is open, or `undefined` when there is none (another transport, an
 * older server, a refusal). Whether the server follows the task shows only in what it sends:
 * the SDK keeps no `taskIds` of the acknowledgement, so the caller polls until it hears.
 */
export async function listenForTask(
  sdk: McpClient,
  taskId: string,
  onTask: Follower,
  signal: AbortSignal,
): Promise<(() => void) | undefined> {
  const byTask = followers(sdk);
  let set = byTask.get(taskId);
  if (set === undefined) byTask.set(taskId, (set = new Set()));
  set.add(onTask);
  const forget = (): void => {
    set.delete(onTask);
    if (set.size === 0) byTask.delete(taskId);
  };
  try {
    const subscription = await sdk.listen({ taskIds: [taskId] } as never, {
      timeout: ACK_TIMEOUT_MS,
      signal,
    });
    return () => {
      forget();
      void subscription.close().catch(() => {});
    };
  } catch {
    forget();
    return undefined;
  }
}
