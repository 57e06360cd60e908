import { ParleyError } from '@parley/core';

/**
 * A round the server itself cannot finish for reasons of the handler's making (its state is over
 * the size budget, its structured result does not match its output schema, it swallowed the
 * suspension of `ctx.ask`…): `-32603`, even from a tool, because no model can fix it by calling
 * again. Raised by the flow (sealing) and by the round (results), mapped by the round's funnel.
 */
export class RoundFault extends ParleyError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('internal', message, options);
  }
}
