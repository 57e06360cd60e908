import { afterEach, describe, expect, test } from 'vitest';

import { ResponseCachingMiddleware } from '@parley/middleware';
import { createBookingServer } from './bookingServer.ts';
import { accepted, connect, rawToolCall, textOf, type Connected, type TestEra } from './helpers.ts';

/**
 * The caching rules on a running server: a final result of a cacheable handler is served again
 * on an identical first round; an ask is never stored; a continuation is never served from the
 * cache nor stored, because its result depends on answers that are not in the key.
 */

let connection: Connected | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

describe.each<TestEra>(['modern', 'handshake'])('ResponseCachingMiddleware (%s era)', (era) => {
  test('a final result is served from the cache on an identical first round when marked cacheable', async () => {
    const cache = new ResponseCachingMiddleware();
    const { server, runs } = createBookingServer([cache]);
    connection = await connect(server, era);
    const first = await connection.client.callTool({
      name: 'forecast',
      arguments: { city: 'Oslo' },
    });
    const second = await connection.client.callTool({
      name: 'forecast',
      arguments: { city: 'Oslo' },
    });
    expect(textOf(first)).toBe('Forecast for Oslo: 20°C (call 1)');
    expect(textOf(second)).toBe('Forecast for Oslo: 20°C (call 1)');
    expect(runs.forecast).toBe(1);
    const other = await connection.client.callTool({
      name: 'forecast',
      arguments: { city: 'Rome' },
    });
    expect(textOf(other)).toBe('Forecast for Rome: 20°C (call 2)');
    // Tools the author did not mark cacheable run every time.
    await connection.client.callTool({ name: 'explode', arguments: {} });
    await connection.client.callTool({ name: 'explode', arguments: {} });
    expect(runs.explode).toBe(2);
  });

  test('a cacheable resource is read once', async () => {
    const { server, runs } = createBookingServer([new ResponseCachingMiddleware()]);
    connection = await connect(server, era);
    const first = await connection.client.readResource({ uri: 'rates://today' });
    const second = await connection.client.readResource({ uri: 'rates://today' });
    expect(second.contents).toEqual(first.contents);
    expect(runs.rates).toBe(1);
  });
});

describe('ResponseCachingMiddleware and asking rounds', () => {
  test('an ask is never stored, nor the continuation that follows it (modern)', async () => {
    const cache = new ResponseCachingMiddleware();
    const { server, runs } = createBookingServer([cache]);
    connection = await connect(server, 'modern', () => accepted({ seat: '12A' }));
    for (let i = 0; i < 2; i++) {
      const result = await connection.client.callTool({
        name: 'pick_seat',
        arguments: { flight: 'LX1' },
      });
      expect(textOf(result)).toBe('Seat 12A on LX1');
    }
    // Two rounds per call, every time: nothing was served from the cache.
    expect(runs.pick_seat).toBe(4);
    expect(connection.asked).toEqual(['Which seat on LX1?', 'Which seat on LX1?']);
    expect(cache.size).toBe(0);
    expect(cache.stats.hits).toBe(0);
  });

  test('a continuation is never served from the cache, even after an identical first round was cached', async () => {
    const cache = new ResponseCachingMiddleware();
    const { server, runs } = createBookingServer([cache]);
    const first = await rawToolCall(server, { name: 'forecast', arguments: { city: 'Oslo' } });
    expect(textOf(first.result)).toBe('Forecast for Oslo: 20°C (call 1)');
    expect(cache.stats.stores).toBe(1);

    // The same tool and arguments, but a continuation: answers came back with the retry.
    const continuation = await rawToolCall(server, {
      name: 'forecast',
      arguments: { city: 'Oslo' },
      inputResponses: { units: accepted({ value: 'F' }) },
    });
    expect(textOf(continuation.result)).toBe('Forecast for Oslo: 68°F');
    expect(runs.forecast).toBe(2);
    // … and it was not stored: an identical first round still gets the first round's result.
    expect(cache.stats.stores).toBe(1);
    const again = await rawToolCall(server, { name: 'forecast', arguments: { city: 'Oslo' } });
    expect(textOf(again.result)).toBe('Forecast for Oslo: 20°C (call 1)');
    expect(runs.forecast).toBe(2);
  });

  test('a handshake-era call that elicited is not stored: its result depends on the answer', async () => {
    const cache = new ResponseCachingMiddleware();
    const { server, runs } = createBookingServer([cache]);
    let name = 'Ada';
    connection = await connect(server, 'handshake', () => accepted({ name }));
    const first = await connection.client.callTool({ name: 'greet_by_asking', arguments: {} });
    name = 'Grace';
    const second = await connection.client.callTool({ name: 'greet_by_asking', arguments: {} });
    expect([textOf(first), textOf(second)]).toEqual(['Hello Ada', 'Hello Grace']);
    expect(runs.greet_by_asking).toBe(2);
    expect(cache.size).toBe(0);
  });

  test('list results are cached', async () => {
    const cache = new ResponseCachingMiddleware();
    const { server } = createBookingServer([cache]);
    connection = await connect(server, 'modern');
    const first = await connection.client.listTools();
    const second = await connection.client.listTools();
    expect(second).toEqual(first);
    expect(cache.stats.hits).toBeGreaterThanOrEqual(1);
  });
});
