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
    const result = await callNext();

    // `context.isContinuation`: the client answered, or state came back.
    const round = `round ${context.flow?.round} (${context.isContinuation ? 'continuation' : 'initial'})`;
    if (result instanceof InputRequiredToolResult) {
      console.log(`${round}: asked for ${result.askedKeys.join(', ')}`); // this round asked
    } else {
      console.log(`${round}: final result`); // this round returned a final result
    }
    return result;
  }
}
// #endregion middleware
