import { checkOptionKeys, optionKeys, type OptionKeys } from '@parley/core';

import { HTTP_OPTIONS } from '../http/httpOptions.ts';
import type { ArgumentLimits } from '../round/limits.ts';
import { checkTelemetryOptions } from '../telemetry/options.ts';
import type {
  ParleyServerOptions,
  RequestStateSecurity,
  StdioRunOptions,
  TasksOptions,
} from './options.ts';

/**
 * The keys `new ParleyServer(options)` takes, at every depth: a key it does not know fails the
 * constructor, naming it (see `checkOptionKeys` in `@parley/core`), rather than being ignored.
 */

const SERVER_OPTIONS = optionKeys<ParleyServerOptions>()(
  [
    'name',
    'version',
    'title',
    'instructions',
    'requestStateSecurity',
    'elicitationTimeoutMs',
    'waitProgressMs',
    'maxReasks',
    'limits',
    'onError',
    'onWarning',
    'http',
    'askFallback',
    'askRoutes',
    'hostProfiles',
    'tasks',
    'telemetry',
  ],
  {
    eraBridge:
      'it was removed: ctx.ask serves both eras from one handler (a request to the client on ' +
      'handshake-era connections, sealed replay on the modern protocol)',
  },
);

const SECURITY_OPTIONS = optionKeys<RequestStateSecurity>()(
  [
    'keys',
    'allowEphemeralKeys',
    'ttlMs',
    'maxTokenBytes',
    'singleUse',
    'replayWindowMs',
    'roundLeaseMs',
    'now',
  ],
  {
    ttlSeconds:
      'use requestStateSecurity.ttlMs, in milliseconds like every duration (ttlSeconds: 600 is ' +
      'ttlMs: 600_000)',
    replayStore:
      'use requestStateSecurity.singleUse instead (true for this process, or a store every ' +
      'replica shares, such as createRedisSingleUseStore): it replaced replayStore, and without ' +
      'it a requestState can be replayed',
  },
);

const TASKS_OPTIONS = optionKeys<TasksOptions>()(['store', 'replicaId', 'leaseMs', 'clock']);

const LIMITS_OPTIONS = optionKeys<ArgumentLimits>()(['maxDepth', 'maxNodes']);

/** `run({ transport: 'stdio' })` takes nothing else. */
export const STDIO_OPTIONS: OptionKeys = optionKeys<StdioRunOptions>()(['transport']);

/** Refuse a key the server's options cannot have, at any depth (`http.auth` is the gate's). */
export function checkServerOptionKeys(options: ParleyServerOptions): void {
  const api = 'ParleyServer';
  checkOptionKeys(api, 'options', options, SERVER_OPTIONS);
  checkOptionKeys(
    api,
    'options.requestStateSecurity',
    options.requestStateSecurity,
    SECURITY_OPTIONS,
  );
  checkOptionKeys(api, 'options.tasks', options.tasks, TASKS_OPTIONS);
  checkOptionKeys(api, 'options.limits', options.limits, LIMITS_OPTIONS);
  checkOptionKeys(api, 'options.http', options.http, HTTP_OPTIONS);
  checkTelemetryOptions(api, 'options.telemetry', options.telemetry);
}
