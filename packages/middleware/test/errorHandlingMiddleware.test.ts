import { describe, expect, test } from 'vitest';

import {
  EraMismatchError,
  InputRequiredToolResult,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  ParleyError,
  ToolResult,
  UnsupportedCapabilityError,
  inputRequired,
} from '@parley/core';
import {
  ERROR_META_KEY,
  ErrorHandlingMiddleware,
  RateLimitedError,
  runMiddleware,
  type MiddlewareContext,
} from '../src/index.ts';
import { bookingRounds, roundContext } from './helpers/fakeContext.ts';

function handling(options: { maskErrorDetails?: boolean } = {}) {
  const seen: unknown[] = [];
  const middleware = new ErrorHandlingMiddleware({
    ...options,
    onError: (error) => seen.push(error),
  });
  const run = (context: MiddlewareContext, handler: () => Promise<unknown>) =>
    runMiddleware([middleware], context, handler);
  return { seen, run };
}

const failing = (error: unknown) => async () => {
  throw error;
};

const promptRound = () =>
  roundContext({
    method: 'prompts/get',
    params: { name: 'summarize', arguments: {} },
    handler: { kind: 'prompt', name: 'summarize', cacheable: false },
  });

describe('ErrorHandlingMiddleware', () => {
  test('a tool that throws becomes an isError result with a stable code', async () => {
    const { seen, run } = handling();
    const boom = new Error('the booking service is down');
    const result = await run(roundContext(), failing(boom));
    expect(result).toBeInstanceOf(ToolResult);
    expect((result as ToolResult).toJSON()).toEqual({
      content: [{ type: 'text', text: 'the booking service is down' }],
      isError: true,
      _meta: { [ERROR_META_KEY]: { code: 'internal' } },
    });
    expect(seen).toEqual([boom]);
  });

  test('it never fires on an asking round: an ask is a result, not an error', async () => {
    const { seen, run } = handling();
    for (const context of bookingRounds().slice(0, 2)) {
      const ask = new InputRequiredToolResult(inputRequired({ requestState: 'next' }));
      await expect(run(context, async () => ask)).resolves.toBe(ask);
    }
    const final = new ToolResult({ content: [{ type: 'text', text: 'Booked' }] });
    await expect(run(bookingRounds()[2], async () => final)).resolves.toBe(final);
    expect(seen).toEqual([]);
  });

  test.each([
    new InvalidRequestStateError({ reason: 'tampered' }),
    new InvalidInputResponsesError({ reason: 'not an object' }),
    new InvalidAnswerError({ key: 'date', field: 'date', reason: 'must be a string' }),
    new EraMismatchError({
      kind: 'tool',
      name: 'book_flight',
      protocolVersion: '2025-11-25',
      used: 'inputRequired',
    }),
  ])('a protocol-level %s still goes out as a protocol error', async (error) => {
    const { seen, run } = handling();
    await expect(run(roundContext(), failing(error))).rejects.toBe(error);
    expect(seen).toEqual([error]);
  });

  test('Parley errors keep their code and message', async () => {
    const { run } = handling({ maskErrorDetails: true });
    const unsupported = new UnsupportedCapabilityError({
      feature: 'elicitation',
      requiredCapabilities: { elicitation: { form: {} } },
    });
    const result = (await run(roundContext(), failing(unsupported))) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: unsupported.message }]);
    expect(result.meta).toEqual({ [ERROR_META_KEY]: { code: 'unsupported_capability' } });

    const limited = new RateLimitedError({
      key: 'anonymous',
      maxFlows: 1,
      windowMs: 1_000,
      retryAfterMs: 500,
    });
    const refused = (await run(roundContext(), failing(limited))) as ToolResult;
    expect(refused.meta).toEqual({ [ERROR_META_KEY]: { code: 'rate_limited' } });
    expect(refused.content).toEqual([{ type: 'text', text: limited.message }]);
  });

  test('maskErrorDetails hides the message of errors that are not Parley errors', async () => {
    const { run } = handling({ maskErrorDetails: true });
    const result = (await run(
      roundContext(),
      failing(new Error('connect ECONNREFUSED db.internal:5432')),
    )) as ToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'Internal error' }]);
    const thrownString = (await run(roundContext(), failing('just a string'))) as ToolResult;
    expect(thrownString.content).toEqual([{ type: 'text', text: 'Internal error' }]);
  });

  test('prompts and resources (no isError) fail with a ParleyError of the same code', async () => {
    const { run } = handling({ maskErrorDetails: true });
    const cause = new Error('template missing');
    const failure = await run(promptRound(), failing(cause)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ParleyError);
    expect(failure).toMatchObject({ code: 'internal', message: 'Internal error', cause });

    const unmasked = handling();
    await expect(unmasked.run(promptRound(), failing(cause))).rejects.toMatchObject({
      code: 'internal',
      message: 'template missing',
    });
  });

  test('on prompts and resources, Parley errors and errors with a JSON-RPC code pass through', async () => {
    const { run } = handling({ maskErrorDetails: true });
    const parley = new UnsupportedCapabilityError({
      feature: 'sampling',
      requiredCapabilities: { sampling: {} },
    });
    await expect(run(promptRound(), failing(parley))).rejects.toBe(parley);
    const notFound = Object.assign(new Error('Resource not found'), { code: -32002 });
    const read = roundContext({
      method: 'resources/read',
      params: { uri: 'report://missing' },
      handler: { kind: 'resource', name: 'report://missing', cacheable: false },
    });
    await expect(run(read, failing(notFound))).rejects.toBe(notFound);
  });

  test('bad options are rejected when it is built', () => {
    expect(() => new ErrorHandlingMiddleware({ maskErrorDetails: 1 as never })).toThrow(
      new TypeError('ErrorHandlingMiddleware: maskErrorDetails must be a boolean.'),
    );
    expect(() => new ErrorHandlingMiddleware({ onError: 'log' as never })).toThrow(
      new TypeError('ErrorHandlingMiddleware: onError must be a function.'),
    );
  });
});
