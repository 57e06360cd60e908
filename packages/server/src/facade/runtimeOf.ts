import { InvalidRequestStateError, type Implementation } from '@parley/core';
import type { Middleware, MiddlewareFunction } from '@parley/middleware';
import { createRequestStateSealer } from '@parley/state-sealing';

import { checkAskRoutes } from '../ask/askRoutes.ts';
import { hostProfilesOf } from '../ask/hostProfiles.ts';
import type { Registry } from '../handler/definitions.ts';
import { checkFallback } from '../handler/fallback/policy.ts';
import { createBearerGate } from '../http/bearerAuth.ts';
import { checkSessionOptions } from '../http/httpOptions.ts';
import { endpointLimits } from '../http/limits.ts';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES } from '../round/limits.ts';
import { KeptOutcomes } from '../flow/keptOutcomes.ts';
import { createMemorySingleUseStore, type SingleUsePolicy } from '../flow/singleUse.ts';
import type { ChangeNotifier } from '../runtime/changes.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';
import { TaskEngine } from '../tasks/taskEngine.ts';
import { Telemetry } from '../telemetry/telemetry.ts';
import { checkServerOptionKeys } from './optionChecks.ts';
import type { ParleyServerOptions, RequestStateSecurity } from './options.ts';
import type { ConfiguredKeys } from './requestStateKeys.ts';

/**
 * A `ParleyServer`'s options, checked and with their defaults, as the runtime every floor below
 * shares. A bad option fails here, in the constructor, never on the first request.
 */

const DEFAULT_ELICITATION_TIMEOUT_MS = 600_000;
/** A quarter of the 60 s after which common hosts give up on a call that says nothing. */
const DEFAULT_WAIT_PROGRESS_MS = 15_000;
const DEFAULT_MAX_REASKS = 3;
const DEFAULT_REPLAY_WINDOW_MS = 60_000;
const DEFAULT_ROUND_LEASE_MS = 30_000;

/** A warning on stderr: where warnings go without `onWarning`, and those about the server itself. */
export function defaultWarn(message: string): void {
  // eslint-disable-next-line no-console -- the default server log is stderr, which stdio leaves free
  console.warn(`[parley] warning: ${message}`);
}

function defaultReport(error: unknown, where: { method: string; target: string }): void {
  const detail =
    error instanceof InvalidRequestStateError
      ? `requestState rejected: ${error.data?.reason}`
      : String(error);
  // eslint-disable-next-line no-console -- the default server log is stderr, which stdio leaves free
  console.error(`[parley] ${where.method} ${where.target}: ${detail}`);
}

/** The options `new ParleyServer()` checks before anything else is built. */
export function checkServerOptions(options: ParleyServerOptions): void {
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new TypeError('ParleyServer: options.name must be a non-empty string.');
  }
  checkServerOptionKeys(options);
  // A misconfigured http.auth fails here, not on the first request…
  if (options.http?.auth !== undefined) createBearerGate(options.http.auth, () => {});
  // …and so does a bad bound.
  if (options.http !== undefined) endpointLimits(options.http);
  checkSessionOptions('ParleyServer: http', options.http);
  checkFallback('ParleyServer', options.askFallback);
  checkAskRoutes(options.askRoutes);
  hostProfilesOf(options.hostProfiles);
  const { maxReasks } = options;
  if (maxReasks !== undefined && (!Number.isSafeInteger(maxReasks) || maxReasks < 0)) {
    throw new RangeError(
      `ParleyServer: options.maxReasks must be a whole number >= 0 (got ${String(maxReasks)}).`,
    );
  }
}

/** Where warnings go: the server's `onWarning`, or a line on stderr. */
export function warningsOf(options: ParleyServerOptions): ServerRuntime['warn'] {
  return options.onWarning ?? defaultWarn;
}

/** What the runtime is built from besides the options: the server's live parts. */
export interface RuntimeParts {
  registry: Registry;
  middleware: readonly (Middleware | MiddlewareFunction)[];
  changes: ChangeNotifier;
  lintSchema: ServerRuntime['lintSchema'];
  /** The request-state key ring (`configuredKeys`: the option, else `REQUEST_STATE_KEY`). */
  keys: ConfiguredKeys;
}

/** The runtime of a server with (checked) `options`. */
export function runtimeOf(options: ParleyServerOptions, parts: RuntimeParts): ServerRuntime {
  const info: Implementation = {
    name: options.name,
    version: options.version ?? '0.0.0',
    ...(options.title !== undefined ? { title: options.title } : {}),
  };
  const security = options.requestStateSecurity ?? {};
  const report = options.onError ?? defaultReport;
  const { registry } = parts;
  const singleUse = singleUsePolicyOf(security);
  return {
    info,
    instructions: options.instructions,
    tools: registry.tools,
    prompts: registry.prompts,
    resources: registry.resources,
    templates: registry.templates,
    sealer: createRequestStateSealer({
      audience: options.name,
      ...(parts.keys.keys !== undefined ? { keys: parts.keys.keys } : {}),
      ...(security.ttlMs !== undefined ? { ttlMs: security.ttlMs } : {}),
      ...(security.maxTokenBytes !== undefined ? { maxTokenBytes: security.maxTokenBytes } : {}),
      ...(security.now !== undefined ? { now: security.now } : {}),
    }),
    elicitationTimeoutMs: options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
    waitProgressMs: waitProgressOf(options.waitProgressMs),
    report,
    lintSchema: parts.lintSchema,
    warn: warningsOf(options),
    maxReasks: options.maxReasks ?? DEFAULT_MAX_REASKS,
    singleUse,
    // The App route is single use on every server: the server's own, else in this process.
    appSingleUse: singleUse ?? singleUsePolicyOf({ ...security, singleUse: true })!,
    asking: {
      routes: checkAskRoutes(options.askRoutes),
      profiles: hostProfilesOf(options.hostProfiles),
    },
    limits: {
      maxDepth: options.limits?.maxDepth ?? DEFAULT_MAX_DEPTH,
      maxNodes: options.limits?.maxNodes ?? DEFAULT_MAX_NODES,
    },
    middleware: parts.middleware,
    telemetry: options.telemetry === false ? undefined : new Telemetry(options.telemetry),
    changes: parts.changes,
    now: security.now ?? Date.now,
    tasks: new TaskEngine({ ...options.tasks, report: (error, where) => report(error, where) }),
  };
}

/** How often a waiting call gets a progress notice: a whole number of ms, or 0 for never. */
function waitProgressOf(waitProgressMs: number | undefined): number {
  if (waitProgressMs === undefined) return DEFAULT_WAIT_PROGRESS_MS;
  // Past setInterval's own bound the timer would fire at once, every millisecond.
  if (
    !Number.isSafeInteger(waitProgressMs) ||
    waitProgressMs < 0 ||
    waitProgressMs > 2_147_483_647
  ) {
    throw new RangeError(
      `ParleyServer: waitProgressMs must be a whole number of milliseconds from 0 (none) to 2147483647 (got ${String(waitProgressMs)}).`,
    );
  }
  return waitProgressMs;
}

/** Single use, as the server's options ask for it. */
function singleUsePolicyOf(security: RequestStateSecurity): SingleUsePolicy | undefined {
  const { singleUse } = security;
  if (singleUse === undefined || singleUse === false) return undefined;
  return {
    store: singleUse === true ? createMemorySingleUseStore() : singleUse,
    leaseMs: security.roundLeaseMs ?? DEFAULT_ROUND_LEASE_MS,
    replayWindowMs: security.replayWindowMs ?? DEFAULT_REPLAY_WINDOW_MS,
    kept: new KeptOutcomes(security.now !== undefined ? { now: security.now } : {}),
  };
}
