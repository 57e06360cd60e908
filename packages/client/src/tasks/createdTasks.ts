import { isCreateTaskResult, isHandshakeCreateTaskResult, isRecord, type Era } from '@parley/core';
import type { Transport } from '@modelcontextprotocol/client';

/**
 * A `tools/call` can come back as a task instead of a result: `resultType: "task"` on
 * 2026-07-28, `{ task }` on 2025-11-25. The SDK has no task runtime and refuses either as an
 * invalid tool result, so Parley takes the task off the wire before the SDK decodes it: the
 * answer to a `tools/call` that carries a task reaches the SDK as an (error-flagged, so no
 * output schema applies) empty tool result holding the task under a private `_meta` key, and
 * the client's call picks it up from there and drives the task. Only answers to `tools/call`
 * are read this way: a task on any other method stays what the spec says it is, invalid.
 */

/** Where the task rides inside the stand-in result. */
const CREATED_TASK_KEY = '@parley/client/created-task';

/** A task a `tools/call` was answered with, as it came, and the era it came in. */
export interface CreatedTask {
  era: Era;
  /** The wire task: flat (2026-07-28) or the `task` member (2025-11-25). */
  task: Record<string, unknown>;
}

/** The task a `callTool` result stands in for, or `undefined` for a real result. */
export function createdTaskOf(value: unknown): CreatedTask | undefined {
  if (!isRecord(value) || !isRecord(value._meta)) return undefined;
  const created = value._meta[CREATED_TASK_KEY];
  return isRecord(created) && isRecord(created.task)
    ? (created as unknown as CreatedTask)
    : undefined;
}

function standIn(
  era: Era,
  task: Record<string, unknown>,
  modern: boolean,
): Record<string, unknown> {
  return {
    ...(modern ? { resultType: 'complete' } : {}),
    content: [],
    isError: true,
    _meta: { [CREATED_TASK_KEY]: { era, task } },
  };
}

/**
 * Watch `transport` for answers to `tools/call` that carry a task (call after the SDK
 * connected it, so its handler is the one wrapped).
 */
export function relayCreatedTasks(transport: Transport, era: Era): void {
  const send = transport.send.bind(transport);
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  const toolCalls = new Set<string | number>();
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      toolCalls.add(message.id);
    }
    return send(message, options);
  };
  transport.onmessage = (message, extra) => {
    if (!('id' in message) || !toolCalls.has(message.id as string | number)) {
      return deliver(message, extra);
    }
    if ('result' in message || 'error' in message) toolCalls.delete(message.id as string | number);
    const result = (message as { result?: unknown }).result;
    if (era === 'modern' && isCreateTaskResult(result)) {
      const { resultType: _task, ...task } = result;
      return deliver({ ...message, result: standIn(era, task, true) } as never, extra);
    }
    if (era === 'handshake' && isHandshakeCreateTaskResult(result)) {
      return deliver(
        { ...message, result: standIn(era, result.task as never, false) } as never,
        extra,
      );
    }
    return deliver(message, extra);
  };
}
