import type { JsonRpcErrorObject } from '@parley/core';

import type { Registry } from '../handler/definitions.ts';
import type { ResolvedTaskOptions } from '../handler/taskOptions.ts';
import type { RoundReply, RoundRequest } from '../round/request.ts';
import { serveRound } from '../round/serveRound.ts';
import { decideHandshakeTask, handshakeTtl, readHandshakeTaskParam } from './handshakeWire.ts';
import { decideModernTask } from './modernWire.ts';
import { launchTask, type TaskCallEra, type TaskRuntime } from './taskLaunch.ts';

/**
 * A `tools/call`: of a tool declared with `task`, the server decides here whether it becomes a
 * task (never for a client that cannot take one), and launches it (`taskLaunch.ts`); every call
 * enters the round pipeline in one place.
 */

/** True when some tool can run as a task (the server then advertises tasks). */
export function hasTaskTools(registry: Registry): boolean {
  for (const tool of registry.tools.values()) if (tool.task !== undefined) return true;
  return false;
}

/** How the era decides a call of a tool declared with `task`. */
type TaskDecision =
  | { kind: 'sync' }
  | { kind: 'refuse'; error: JsonRpcErrorObject }
  | { kind: 'task'; ttlMs: ResolvedTaskOptions['ttlMs'] };

/** Whether the call runs as a task, by the era's rules, and for how long. */
function decideTask(req: RoundRequest, era: TaskCallEra, task: ResolvedTaskOptions): TaskDecision {
  const name = req.params.name as string;
  if (era.era === 'modern') {
    const decision = decideModernTask(name, task.support, req.request.clientCapabilities);
    return decision.kind === 'task' ? { kind: 'task', ttlMs: task.ttlMs } : decision;
  }
  const read = readHandshakeTaskParam(era.task);
  if ('problem' in read) return { kind: 'refuse', error: read.problem };
  const decision = decideHandshakeTask(name, task.support, read.requested);
  if (decision.kind !== 'task') return decision;
  return { kind: 'task', ttlMs: handshakeTtl(read.requested ? read.ttl : undefined, task.ttlMs) };
}

/**
 * Serve a `tools/call`: as a task when the tool and the client make it one, else as a round.
 * (Not an async function: most tools are not tasks, and their rounds need no frame here.)
 */
export function serveToolCall(
  runtime: TaskRuntime,
  req: RoundRequest,
  era: TaskCallEra,
): Promise<RoundReply> {
  const task = runtime.tools.get(req.params.name as string)?.task;
  const decision = task === undefined ? undefined : decideTask(req, era, task);
  if (decision?.kind === 'refuse') return Promise.resolve({ kind: 'error', error: decision.error });
  const launch =
    decision?.kind === 'task' ? launchTask(runtime, req, era, task!, decision.ttlMs) : undefined;
  return launch === undefined ? serveRound(runtime, req) : launch(serveRound);
}
