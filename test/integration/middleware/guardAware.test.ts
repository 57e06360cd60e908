import { afterEach, expect, test } from 'vitest';

import { InputRequiredToolResult, type ToolResult } from '@parley/core';
import { Middleware, type CallNext, type MiddlewareContext } from '@parley/middleware';
import { createBookingServer } from './bookingServer.ts';
import { accepted, connect, textOf, type Connected } from './helpers.ts';

/**
 * The seeds' `GuardAwareMiddleware`, in TypeScript: it tells an initial round from a
 * continuation by the two signals on the author's context, and an ask from a final result with
 * an `instanceof` check.
 */
class GuardAwareMiddleware extends Middleware {
  readonly rounds: { isContinuation: boolean; asked: string[] | 'final' }[] = [];

  override async onCallTool(
    context: MiddlewareContext,
    callNext: CallNext<ToolResult>,
  ): Promise<ToolResult> {
    // Either signal marks a continuation: a state-only round carries requestState with no
    // answers, so it retries with inputResponses === null.
    const isContinuation = context.inputResponses !== null || context.requestState !== null;

    const result = await callNext();

    if (result instanceof InputRequiredToolResult) {
      // this round asked the client for input
      this.rounds.push({ isContinuation, asked: result.askedKeys });
    } else {
      // this round returned a final result
      this.rounds.push({ isContinuation, asked: 'final' });
    }
    return result;
  }
}

let connection: Connected | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

test('GuardAwareMiddleware sees an initial asking round, an asking continuation, a final continuation', async () => {
  const guardAware = new GuardAwareMiddleware();
  const { server } = createBookingServer([guardAware]);
  connection = await connect(server, 'modern', (message) =>
    message.startsWith('Where') ? accepted({ destination: 'Paris' }) : accepted({ date: 'today' }),
  );
  const result = await connection.client.callTool({ name: 'book_flight', arguments: {} });
  expect(textOf(result)).toBe('Booked a flight to Paris on today');
  expect(guardAware.rounds).toEqual([
    { isContinuation: false, asked: ['destination'] },
    { isContinuation: true, asked: ['date'] },
    { isContinuation: true, asked: 'final' },
  ]);
});

test('GuardAwareMiddleware counts a state-only round as a continuation', async () => {
  const guardAware = new GuardAwareMiddleware();
  const { server } = createBookingServer([guardAware]);
  connection = await connect(server, 'modern');
  await connection.client.callTool({ name: 'countdown', arguments: {} });
  expect(guardAware.rounds).toEqual([
    { isContinuation: false, asked: [] },
    { isContinuation: true, asked: [] },
    { isContinuation: true, asked: 'final' },
  ]);
});

test('on the handshake era the whole call is one initial round with a final result', async () => {
  const guardAware = new GuardAwareMiddleware();
  const { server } = createBookingServer([guardAware]);
  connection = await connect(server, 'handshake', (message) =>
    message.startsWith('Where') ? accepted({ destination: 'Paris' }) : accepted({ date: 'today' }),
  );
  await connection.client.callTool({ name: 'book_flight', arguments: {} });
  expect(guardAware.rounds).toEqual([{ isContinuation: false, asked: 'final' }]);
});
