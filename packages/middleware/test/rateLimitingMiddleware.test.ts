import { describe, expect, test } from 'vitest';

import { ParleyError, ToolResult, toJsonRpcError } from '@parley/core';
import {
  RateLimitedError,
  RateLimitingMiddleware,
  runMiddleware,
  type MiddlewareContext,
} from '../src/index.ts';
import { bookingRounds, listContext, manualClock, roundContext } from './helpers/fakeContext.ts';

function limited(options: Partial<ConstructorParameters<typeof RateLimitingMiddleware>[0]> = {}) {
  const clock = manualClock();
  const limiter = new RateLimitingMiddleware({
    maxFlows: 2,
    windowMs: 60_000,
    now: clock.now,
    ...options,
  });
  let runs = 0;
  const run = (context: MiddlewareContext) =>
    runMiddleware([limiter], context, async () => {
      runs += 1;
      return new ToolResult();
    });
  return { clock, run, runs: () => runs };
}

describe('RateLimitingMiddleware', () => {
  test('a three-round flow counts once: its later rounds pass even at the limit', async () => {
    const { run, runs } = limited({ maxFlows: 1 });
    for (const round of bookingRounds()) await run(round);
    expect(runs()).toBe(3);
    // The one allowed flow is spent: a new first round is refused before the handler runs.
    await expect(run(roundContext())).rejects.toBeInstanceOf(RateLimitedError);
    expect(runs()).toBe(3);
    // A round resuming a sealed flow still passes.
    await run(bookingRounds()[2]);
    expect(runs()).toBe(4);
  });

  test('answers without sealed state cannot dodge the limit: they start a new flow', async () => {
    const { run } = limited({ maxFlows: 1 });
    await run(roundContext());
    const faked = roundContext({
      inputResponses: { date: { action: 'accept', content: { date: 'x' } } },
      flow: { id: 'fresh', round: 2, startedAt: 0 },
    });
    expect(faked.isContinuation).toBe(true);
    await expect(run(faked)).rejects.toBeInstanceOf(RateLimitedError);
  });

  test('the window slides, and the error says when to retry', async () => {
    const { clock, run } = limited();
    await run(roundContext());
    clock.advance(10_000);
    await run(roundContext());
    clock.advance(20_000);
    const error = await run(roundContext()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({
      name: 'RateLimitedError',
      code: 'internal',
      message: 'Rate limit exceeded: at most 2 calls per 60000 ms; retry in 30 s.',
      data: { key: 'anonymous', maxFlows: 2, windowMs: 60_000, retryAfterMs: 30_000 },
    });
    expect(toJsonRpcError(error)).toEqual({
      code: -32603,
      message: 'Rate limit exceeded: at most 2 calls per 60000 ms; retry in 30 s.',
    });
    clock.advance(30_000);
    await run(roundContext());
  });

  test('each principal has its own count; a custom key can group differently', async () => {
    const { run } = limited({ maxFlows: 1 });
    await run(roundContext({ principal: 'alice' }));
    await run(roundContext({ principal: 'bob' }));
    await expect(run(roundContext({ principal: 'alice' }))).rejects.toThrow(RateLimitedError);

    const perTool = limited({ maxFlows: 1, key: (context) => String(context.params.name) });
    await perTool.run(roundContext({ params: { name: 'a', arguments: {} } }));
    await perTool.run(roundContext({ params: { name: 'b', arguments: {} } }));
    await expect(
      perTool.run(roundContext({ params: { name: 'a', arguments: {} } })),
    ).rejects.toThrow(RateLimitedError);
  });

  test('lists are not counted', async () => {
    const { run, runs } = limited({ maxFlows: 1 });
    for (let i = 0; i < 5; i++) await run(listContext('tools/list'));
    await run(roundContext());
    expect(runs()).toBe(6);
  });

  test('prompts and resource reads are counted like tool calls', async () => {
    const { run } = limited({ maxFlows: 2 });
    await run(roundContext({ method: 'prompts/get', params: { name: 'p', arguments: {} } }));
    await run(roundContext({ method: 'resources/read', params: { uri: 'r://x' } }));
    await expect(run(roundContext())).rejects.toThrow(RateLimitedError);
  });

  test('memory is bounded by maxKeys (the least recently seen key is forgotten)', async () => {
    const { run } = limited({ maxFlows: 1, maxKeys: 2 });
    await run(roundContext({ principal: 'a' }));
    await run(roundContext({ principal: 'b' }));
    await run(roundContext({ principal: 'c' })); // forgets a
    await run(roundContext({ principal: 'a' }));
    await expect(run(roundContext({ principal: 'c' }))).rejects.toThrow(RateLimitedError);
  });

  test('bad options are rejected when it is built', () => {
    expect(() => new RateLimitingMiddleware(undefined as never)).toThrow(
      new TypeError(
        'RateLimitingMiddleware: options must be an object with maxFlows and windowMs.',
      ),
    );
    expect(() => new RateLimitingMiddleware({ maxFlows: 0, windowMs: 1 })).toThrow(
      new RangeError('RateLimitingMiddleware: maxFlows must be a positive integer (got 0).'),
    );
    expect(() => new RateLimitingMiddleware({ maxFlows: 1, windowMs: -1 })).toThrow(
      new RangeError('RateLimitingMiddleware: windowMs must be a positive number (got -1).'),
    );
    expect(
      () => new RateLimitingMiddleware({ maxFlows: 1, windowMs: 1, key: 'principal' as never }),
    ).toThrow(new TypeError('RateLimitingMiddleware: key must be a function.'));
  });
});
