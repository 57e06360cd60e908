import type { HandlerInfo } from '@parley/core';
import type { BoundRequest, RequestBinding, RequestStateSealer } from '@parley/state-sealing';

import type { AskedRecord } from '../ask/asked.ts';
import type { FieldKind } from '../ask/hostProfiles.ts';
import type { WarningSource } from '../ask/schemaWarnings.ts';
import type { RequestTrace } from '../telemetry/requestTrace.ts';
import type { SingleUsePolicy } from './singleUse.ts';

/**
 * What opening a flow needs from the floors above, each through an interface of its own: the
 * server (a round's runtime is one), the handler (a round's target is one), and the request.
 */

/** What opening a flow needs from the server. */
export interface FlowRuntime {
  /** How state is sealed and opened. */
  sealer: RequestStateSealer;
  /** Single use of `requestState`, when the server enforces it. */
  singleUse: SingleUsePolicy | undefined;
  /** How many times a bad answer is asked again, unless the handler says otherwise. */
  maxReasks: number;
  /** Reports a warning (`onWarning`): an answer that was ignored, say. */
  warn(message: string, source: WarningSource): void;
  /** The clock flows are timed with (ms since the epoch). */
  now: () => number;
  /**
   * Form fields this request's host cannot draw (its host profile): the forms it was sent had
   * them adapted, and answers are read back into the forms as written before they are checked.
   */
  cannotRender?: readonly FieldKind[] | undefined;
}

/** What opening a flow needs of the handler. */
export interface FlowHandler {
  /** The handler, as warnings name it. */
  handler: HandlerInfo;
  /** Answers that may come without state: the asks the handler declared at registration. */
  declaredAsks: AskedRecord;
  /** How many times a bad answer is asked again (`undefined`: the server's `maxReasks`). */
  maxReasks: number | undefined;
}

/** What the request brought, as it came. */
export interface FlowRequest {
  inputResponses: unknown;
  requestState: unknown;
  readonly signal: AbortSignal;
  readonly trace?: RequestTrace | undefined;
}

/** Where one flow is opened: the server, the handler, and the request its state is bound to. */
export interface FlowSite {
  runtime: FlowRuntime;
  target: FlowHandler;
  binding: RequestBinding | BoundRequest;
  /** The handler's budget of re-asks, or the server's. */
  maxReasks: number;
}
