import type { KeptValues } from '../flow/flow.ts';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitUrlParams,
  InputRequest,
  ParleyError,
  Root,
} from '@parley/core';

/** How long to wait for a pushed request's answer, and when to give up. */
export interface WaitOptions {
  timeout: number;
  signal: AbortSignal;
}

/**
 * The handshake era's server-initiated requests for one call, as the Context needs them. The
 * server builds one per call from the SDK's request context; modern requests have none.
 */
export interface PushChannel {
  /** The client's answer as it came: Parley checks it (so a bad one can be asked again). */
  elicit(params: ElicitFormParams | ElicitUrlParams, options: WaitOptions): Promise<unknown>;
  sample(params: CreateMessageParams, options: WaitOptions): Promise<CreateMessageResult>;
  listRoots(options: WaitOptions): Promise<Root[]>;
  completeElicitation(elicitationId: string): Promise<void>;
  /**
   * Close the call's SSE stream without ending the call (HTTP with an event store only): the
   * client reconnects with `Last-Event-ID` and gets what was sent meanwhile. `false` when the
   * call has no resumable stream.
   */
  closeStream?(): boolean;
  /**
   * Why `request` cannot be pushed on this connection regardless of what the client declared
   * (for example: no session to carry it), or `undefined` when it can.
   */
  unavailable?(request: InputRequest): ParleyError | undefined;
  /**
   * Where `ctx.remember` keeps its values when the call's record is kept for another replica to
   * take it over (`http.sessionStore`): the replica that does replays them.
   */
  kept?: KeptValues;
}

/**
 * A call whose record is kept so another replica can take it over (`http.sessionStore`): its
 * pushes are answered from the record where the call was taken over, and its `ctx.remember`
 * values are kept there.
 */
export interface KeptCall extends KeptValues {
  /**
   * The answer to the call's next push when the record has that question (answered, or still
   * pending on the client); `undefined`: push it.
   */
  replay(
    method: string,
    params: unknown,
    wait: { timeout: number; signal: AbortSignal },
  ): Promise<unknown> | undefined;
}
