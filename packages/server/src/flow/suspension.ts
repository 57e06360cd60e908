import type { InputRequest, InputRequests, ToolResult } from '@parley/core';

/**
 * The two ways a handler's run ends early, thrown through the author's code:
 *
 * - {@link AskSuspension}: `ctx.ask` ends a modern round at a question that has no answer yet.
 *   The round pipeline catches it where the handler returns (inside the middleware chain, so
 *   middleware sees an ordinary asking round), and the round ends with an `InputRequiredResult`
 *   for the pending questions. The handler runs again from the top when the client answers, and
 *   `ctx.ask` then returns the answers.
 * - {@link CallEnded}: a tool's `askFallback` ends the call with a result for the model.
 *
 * They are thrown, not returned, so `await ctx.ask(...)` needs no `if` around it. A handler that
 * catches one and carries on would otherwise finish with a result built on an answer it never
 * got; so the {@link Flow} keeps what ended its run (`flow.suspension`, `flow.ended`), and a
 * round that ends any other way after one is a `RoundFault` that says what happened
 * (`round/runHandler.ts`).
 */

const MESSAGE =
  'ctx.ask() ended this round to put a question to the user; the handler runs again with ' +
  'the answer. This is not an error: let it propagate (rethrow what you do not handle).';

/**
 * The signal `ctx.ask` throws to end the round at a question with no answer yet. An `Error` to
 * whoever catches it (`instanceof Error`, a `name`, a `message`, a `stack` that says what it
 * is), but never built by the `Error` constructor: it is made on every asking round, and
 * capturing a stack trace (or even switching it off for one construction) would be most of its
 * cost. A swallowed one is reported by a `RoundFault`, which has a stack of its own.
 */
export class AskSuspension {
  declare readonly name: 'AskSuspension';
  declare readonly message: string;
  declare readonly stack: string;
  /** The questions this round ends with, by key (asks made after it join it: see `add`). */
  readonly pending: InputRequests = {};

  /**
   * Add a question. Asks made while the round is already suspended (the other branches of a
   * `Promise.all`, say) are asked in the same round.
   */
  add(key: string, request: InputRequest): void {
    this.pending[key] = request;
  }

  /** The keys this round asks. */
  get keys(): string[] {
    return Object.keys(this.pending);
  }
}

Object.setPrototypeOf(AskSuspension.prototype, Error.prototype);
Object.defineProperties(AskSuspension.prototype, {
  name: { value: 'AskSuspension', configurable: true, writable: true },
  message: { value: MESSAGE, configurable: true, writable: true },
  stack: { value: `AskSuspension: ${MESSAGE}`, configurable: true, writable: true },
});

/** Thrown through the handler to end the call with `result` (its `askFallback`'s). */
export class CallEnded {
  constructor(readonly result: ToolResult) {}
}
