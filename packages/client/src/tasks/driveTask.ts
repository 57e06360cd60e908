import type { CreatedTask } from './createdTasks.ts';
import { HandshakeTaskDriver } from './handshakeTaskDriver.ts';
import { ModernTaskDriver } from './modernTaskDriver.ts';
import type { TaskDriveContext } from './taskDriver.ts';

/**
 * Driving a task from its creation to its end, so `callTool` can return the final result as
 * if the call had been synchronous. Each era has its driver: on 2026-07-28 the client hears of
 * (or polls) the task and answers its questions itself with `tasks/update`
 * (`ModernTaskDriver`); on 2025-11-25 it waits on `tasks/result`, whose stream carries the
 * server's questions as pushed requests, and polls meanwhile (`HandshakeTaskDriver`).
 *
 * A caller's cancel (its signal, or `task.cancel()`) becomes `tasks/cancel`; a handler that
 * fails or a round bound reached cancels the task too, since nobody will answer it any more.
 */

/** Drive the task a `tools/call` was answered with to its final result. */
export function driveTask(
  created: CreatedTask,
  context: TaskDriveContext,
): Promise<Record<string, unknown>> {
  return created.era === 'modern'
    ? new ModernTaskDriver(created.task, context).run()
    : new HandshakeTaskDriver(created.task, context).run();
}
