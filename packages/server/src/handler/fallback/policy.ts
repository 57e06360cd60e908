import type { ClientCapabilities, InputRequest, InputResponse, ToolResult } from '@parley/core';

import type { Context } from '../context.ts';

/**
 * What a tool does for a client that lacks what its asks need (no elicitation, form without URL
 * mode, no sampling): the author's choice, per tool or as the server's default.
 */

/** What a custom fallback is given: the ask the client cannot answer, and where it came from. */
export interface UnanswerableAsk {
  /** The key the handler asked under (`ctx.ask(key, ask)`). */
  key: string;
  /** The ask, as the handler built it. */
  ask: InputRequest;
  /** What the client would have to declare to answer it. */
  requiredCapabilities: ClientCapabilities;
  /** The round's context: the tool's arguments are the handler's, the client is in `requestContext`. */
  context: Context;
}

/**
 * A custom fallback: answer the ask yourself (an answer of its kind, checked exactly like the
 * client's: `{ action: 'accept', content }`, a `CreateMessageResult`, `{ roots }`), end the call
 * with a `ToolResult` of your own, or return `undefined` for the `'error'` behaviour.
 */
export type AskFallbackFunction = (
  unanswerable: UnanswerableAsk,
) => InputResponse | ToolResult | undefined | Promise<InputResponse | ToolResult | undefined>;

/**
 * The policy for a client that cannot answer a tool's asks:
 *
 * - `'error'` (the default): the ask fails the call with the typed error it always did
 *   (`UnsupportedCapabilityError`: an `isError` result on the handshake era, `-32021` on the
 *   modern one);
 * - `'hide'`: the tool is not listed to such a client, and a call anyway fails with that error
 *   before the handler runs;
 * - `'arguments'`: each declared ask the client cannot answer becomes optional arguments of the
 *   tool (listed to that client only); `ctx.ask` takes its answer from them, checked like an
 *   elicitation answer, and when they are missing the call returns what to ask the user and
 *   which arguments to call again with;
 * - a function, for anything else.
 *
 * `'hide'` and `'arguments'` need the tool to declare its asks (`asks`), so a listing knows them.
 */
export type AskFallback = 'error' | 'hide' | 'arguments' | AskFallbackFunction;

const NAMED: ReadonlySet<unknown> = new Set(['error', 'hide', 'arguments']);

/** Refuse what is not a policy, with a `TypeError` starting with `api`. */
export function checkFallback(api: string, fallback: unknown): AskFallback | undefined {
  if (fallback === undefined || typeof fallback === 'function' || NAMED.has(fallback)) {
    return fallback as AskFallback | undefined;
  }
  throw new TypeError(
    `${api}: askFallback must be 'error', 'hide', 'arguments' or a function (got ${JSON.stringify(fallback)}).`,
  );
}
