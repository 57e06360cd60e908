import type { KeptValues } from '../flow/flow.ts';
import {
  ASK_KEY_META,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitFormParams,
  type ElicitUrlParams,
  type InputRequest,
  type ParleyError,
  type Root,
} from '@parley/core';

/** How long to wait for a pushed request's answer, and when to give up. */
export interface WaitOptions {
  timeout: number;
  signal: AbortSignal;
}

/** One push: how long to wait, and which ask it is. */
export interface PushOptions extends WaitOptions {
  /**
   * The ask's key, the same in both eras: `ctx.ask`'s key, or for the methods that take none
   * the name a task gives their question ({@link DEFAULT_ASK_KEYS}). A handshake-era request
   * carries it in `_meta[ASK_KEY_META]`; a task's question goes on the task under it.
   */
  key: string;
}

/** The key of an ask pushed by a method that takes none (`ctx.elicit`, `ctx.sample`, …). */
export const DEFAULT_ASK_KEYS: Readonly<Record<InputRequest['method'], string>> = Object.freeze({
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
});

/** A pushed request's `params` with `meta` added to their `_meta` (what it carries stays). */
export function withMeta(
  params: object | undefined,
  meta: Record<string, unknown>,
): Record<string, unknown> {
  const kept = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return { ...params, _meta: { ...kept, ...meta } };
}

/**
 * A pushed request's `params` with the ask's key in `_meta[ASK_KEY_META]`: a handshake-era
 * request says which ask it is, as a modern `inputRequests` key would.
 */
export function withAskKey(params: object, key: string): Record<string, unknown> {
  return withMeta(params, { [ASK_KEY_META]: key });
}

/**
 * The handshake era's server-initiated requests for one call, as the Context needs them. The
 * server builds one per call from the SDK's request context; modern requests have none.
 */
export interface PushChannel {
  /** The client's answer as it came: Parley checks it (so a bad one can be asked again). */
  elicit(params: ElicitFormParams | ElicitUrlParams, options: PushOptions): Promise<unknown>;
  sample(params: CreateMessageParams, options: PushOptions): Promise<CreateMessageResult>;
  listRoots(options: PushOptions): Promise<Root[]>;
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
