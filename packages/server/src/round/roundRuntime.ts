import type { ElicitationSchema } from '@parley/core';
import type { Middleware, MiddlewareFunction } from '@parley/middleware';

import type { AskRouting } from '../ask/askRoutes.ts';
import type { WarningSource } from '../ask/schemaWarnings.ts';
import type { FlowRuntime } from '../flow/flowRuntime.ts';
import type { SingleUsePolicy } from '../flow/singleUse.ts';
import type { Registry } from '../handler/definitions.ts';
import type { Telemetry } from '../telemetry/telemetry.ts';

/**
 * What a round needs from the server that owns it: the registered handlers, how state is
 * sealed, where failures and warnings go, and the bounds a request must keep. The floors above
 * add their own needs to it (`TaskRuntime`, `ServerRuntime`); a round sees only this.
 */
export interface RoundRuntime extends Registry, FlowRuntime {
  elicitationTimeoutMs: number;
  /** Server-side reports: rejected state (with its reason), unexpected failures. */
  report(error: unknown, where: { method: string; target: string }): void;
  /** Reports compatibility warnings about a schema, once per handler and schema. */
  lintSchema(source: WarningSource, schema: ElicitationSchema): void;
  /** Bounds on the arguments and answers a request may carry. */
  limits: { maxDepth: number; maxNodes: number };
  /** Where spans and metrics go (`undefined` when the server turned telemetry off). */
  telemetry: Telemetry | undefined;
  /** The middleware chain, in the order it was installed. */
  middleware: readonly (Middleware | MiddlewareFunction)[];
  /** Single use for rounds on the App route, where the server has none of its own. */
  appSingleUse: SingleUsePolicy;
  /** How asks reach a person: the routes allowed, in order, and the host profiles. */
  asking: AskRouting;
}
