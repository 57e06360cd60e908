// #region middleware
import { InputRequiredToolResult, type ToolResult } from '@parley/core';
import {
  Middleware,
  type CallNext,
  type MiddlewareContext,
} from '@parley/middleware';

export class GuardAwareMiddleware extends Middleware {
  override async onCallTool(
    context: MiddlewareContext,
    callNext: CallNext<ToolResult>,
  ) {
    const ctx = context.parleyContext!;
    // Either signal marks a continuation: a state-only round carries requestState with no
    // answers, so it retries with inputResponses === null.
    const isContinuation =
      ctx.inputResponses !== null || ctx.requestState !== null;

    const result = await callNext();

    const round = `round ${ctx.flow.round} (${isContinuation ? 'continuation' : 'initial'})`;
    if (result instanceof InputRequiredToolResult) {
      console.log(`${round}: asked for ${result.askedKeys.join(', ')}`); // this round asked
    } else {
      console.log(`${round}: final result`); // this round returned a final result
    }
    return result;
  }
}
// #endregion middleware
