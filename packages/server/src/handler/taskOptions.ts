import { checkOptionKeys, optionKeys } from '@parley/core';

/**
 * How an author declares that a tool runs as a task:
 *
 * ```ts
 * mcp.tool('deploy', { task: 'required' }, handler);              // only as a task
 * mcp.tool('report', { task: 'optional' }, handler);              // a task when the client can take one
 * mcp.tool('approve', { task: { support: 'required', start: 'by-handler', ttlMs: 86_400_000 } }, handler);
 * ```
 *
 * The server alone decides when a call becomes a task (SEP-2663): `optional` tools become
 * tasks for every client that declared the extension (2026-07-28) or asked with `params.task`
 * (2025-11-25), and run as plain calls for the others; `required` tools refuse the others
 * (`-32021` naming the extension, or `-32601` on 2025-11-25, as each revision says).
 */

/** Whether a tool can run as a task, or only as one. */
export type TaskSupport = 'optional' | 'required';

/** When the task starts. */
export type TaskStartMode =
  /** As the call arrives: the whole handler runs as the task (the default). */
  | 'at-call'
  /**
   * When the handler calls `ctx.startTask()`: what it asks before that are rounds of the call
   * itself (the MRTR exchange the spec says to finish before creating the task), and what it
   * asks after are questions on the task.
   */
  | 'by-handler';

export interface ToolTaskOptions {
  support: TaskSupport;
  /** Default `'at-call'`. */
  start?: TaskStartMode;
  /**
   * How long a task is kept after it starts, waiting for answers included, in whole
   * milliseconds; `null` for no limit. Default 24 hours. (A 2025-11-25 client may ask for
   * less with `params.task.ttl`.)
   */
  ttlMs?: number | null;
  /** How often clients should poll, in whole milliseconds. Default 1000. */
  pollIntervalMs?: number;
}

/** What a tool's `task` option takes. */
export type ToolTaskOption = TaskSupport | ToolTaskOptions;

/** A tool's task options with the defaults applied. */
export interface ResolvedTaskOptions {
  support: TaskSupport;
  start: TaskStartMode;
  ttlMs: number | null;
  pollIntervalMs: number;
}

export const DEFAULT_TASK_TTL_MS: number = 24 * 60 * 60 * 1000;
export const DEFAULT_POLL_INTERVAL_MS = 1000;

const SUPPORTS: ReadonlySet<unknown> = new Set(['optional', 'required']);
const STARTS: ReadonlySet<unknown> = new Set(['at-call', 'by-handler']);
const KNOWN_KEYS = optionKeys<ToolTaskOptions>()(['support', 'start', 'ttlMs', 'pollIntervalMs']);

function wholeMs(api: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `${api}: task.${name} must be a whole, positive number of milliseconds (got ${String(value)}).`,
    );
  }
  return value;
}

/**
 * A tool's `task` option, checked where the tool is registered; `undefined` when the tool
 * never runs as a task.
 *
 * @throws {TypeError} for an option that is not one of the forms above.
 * @throws {RangeError} for a TTL or poll interval that is not a positive whole number of ms.
 */
export function resolveTaskOptions(
  api: string,
  option: ToolTaskOption | undefined,
): ResolvedTaskOptions | undefined {
  if (option === undefined) return undefined;
  const given: Partial<ToolTaskOptions> =
    typeof option === 'string' ? { support: option } : (option as Partial<ToolTaskOptions>);
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new TypeError(
      `${api}: task must be 'optional', 'required' or { support, start?, ttlMs?, pollIntervalMs? }.`,
    );
  }
  checkOptionKeys(api, 'options.task', given, KNOWN_KEYS);
  if (!SUPPORTS.has(given.support)) {
    throw new TypeError(
      `${api}: task support must be 'optional' or 'required' (got ${JSON.stringify(given.support)}).`,
    );
  }
  if (given.start !== undefined && !STARTS.has(given.start)) {
    throw new TypeError(
      `${api}: task.start must be 'at-call' or 'by-handler' (got ${JSON.stringify(given.start)}).`,
    );
  }
  return {
    support: given.support as TaskSupport,
    start: given.start ?? 'at-call',
    ttlMs:
      given.ttlMs === undefined
        ? DEFAULT_TASK_TTL_MS
        : given.ttlMs === null
          ? null
          : wholeMs(api, 'ttlMs', given.ttlMs),
    pollIntervalMs:
      given.pollIntervalMs === undefined
        ? DEFAULT_POLL_INTERVAL_MS
        : wholeMs(api, 'pollIntervalMs', given.pollIntervalMs),
  };
}
