import { describe, expect, test } from 'vitest';

import { InputRequiredToolResult, ToolResult, inputRequired } from '@parley/core';
import {
  ResponseCachingMiddleware,
  runMiddleware,
  type HandlerInfo,
  type MiddlewareContext,
} from '../src/index.ts';
import { listContext, manualClock, roundContext, type FakeRound } from './helpers/fakeContext.ts';

const cacheableTool: HandlerInfo = { kind: 'tool', name: 'quote', cacheable: true };

/** A cacheable `quote` tool round with these arguments (first round unless told otherwise). */
const quoteRound = (
  args: Record<string, unknown> = { from: 'LHR', to: 'CDG' },
  round?: FakeRound,
) =>
  roundContext({
    handler: cacheableTool,
    params: { name: 'quote', arguments: args },
    ...round,
  });

function cached(options: ConstructorParameters<typeof ResponseCachingMiddleware>[0] = {}) {
  const cache = new ResponseCachingMiddleware(options);
  let runs = 0;
  const run = (context: MiddlewareContext, result: () => unknown = () => final(`run ${runs}`)) =>
    runMiddleware([cache], context, async () => {
      runs += 1;
      return result();
    });
  return { cache, run, runs: () => runs };
}

const final = (text: string) => new ToolResult({ content: [{ type: 'text', text }] });
const ask = () =>
  new InputRequiredToolResult(
    inputRequired({
      inputRequests: {
        date: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'When?',
            requestedSchema: { type: 'object', properties: {} },
          },
        },
      },
    }),
  );

const textOf = (result: unknown) =>
  (result as ToolResult).content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('ResponseCachingMiddleware', () => {
  test('a final result of a cacheable tool is served again for the same arguments', async () => {
    const { cache, run, runs } = cached();
    const first = await run(quoteRound());
    const second = await run(quoteRound({ to: 'CDG', from: 'LHR' }));
    expect(runs()).toBe(1);
    expect(second).toBeInstanceOf(ToolResult);
    expect(second).not.toBe(first);
    expect(textOf(second)).toBe(textOf(first));
    expect(cache.stats).toEqual({ hits: 1, misses: 1, stores: 1 });
    await run(quoteRound({ from: 'LHR', to: 'JFK' }));
    expect(runs()).toBe(2);
  });

  test('what it serves is a copy: changing a served result does not change the cache', async () => {
    const { run } = cached();
    await run(quoteRound(), () => new ToolResult({ structuredContent: { price: 100 } }));
    const served = (await run(quoteRound())) as ToolResult;
    (served.structuredContent as { price: number }).price = 0;
    expect(((await run(quoteRound())) as ToolResult).structuredContent).toEqual({ price: 100 });
  });

  test('tools the author did not mark cacheable are never cached', async () => {
    const { run, runs } = cached();
    await run(roundContext());
    await run(roundContext());
    expect(runs()).toBe(2);
  });

  test('an ask is never stored', async () => {
    const { cache, run, runs } = cached();
    const first = await run(quoteRound(), ask);
    const second = await run(quoteRound(), ask);
    expect(first).toBeInstanceOf(InputRequiredToolResult);
    expect(second).toBeInstanceOf(InputRequiredToolResult);
    expect(runs()).toBe(2);
    expect(cache.size).toBe(0);
    // Nor is a prompt's or resource's ask (a plain InputRequiredResult).
    const read = roundContext({
      method: 'resources/read',
      params: { uri: 'quote://today' },
      handler: { kind: 'resource', name: 'quote://today', cacheable: true },
    });
    await run(read, () => ask().toJSON());
    await run(read, () => ask().toJSON());
    expect(runs()).toBe(4);
    expect(cache.size).toBe(0);
  });

  test('a continuation is never served from the cache, even after an identical first round was cached', async () => {
    const { cache, run, runs } = cached();
    await run(quoteRound());
    expect(cache.stats.stores).toBe(1);
    const answers = { date: { action: 'accept' as const, content: { date: '2026-08-01' } } };
    const continuations = [
      quoteRound(undefined, { inputResponses: answers }),
      quoteRound(undefined, { requestState: 'state only' }),
      quoteRound(undefined, { resumesFlow: true, flow: { id: 'f2', round: 2, startedAt: 0 } }),
    ];
    for (const context of continuations) {
      const result = await run(context, () => final('booked with the answers'));
      expect(textOf(result)).toBe('booked with the answers');
    }
    expect(runs()).toBe(4);
    // … and never stored: the next first round still gets the first round's result.
    expect(cache.stats.stores).toBe(1);
    expect(textOf(await run(quoteRound()))).toBe('run 1');
  });

  test('a handshake-era call that pushed a request while it ran is not stored', async () => {
    const { cache, run } = cached();
    const context = quoteRound(undefined, { era: 'handshake' });
    await runMiddleware([cache], context, async () => {
      // The server counts each elicitation/sampling/roots request the round sends.
      Object.defineProperty(context, 'pushedRequests', { value: 1 });
      return final('answered mid-call');
    });
    expect(cache.size).toBe(0);
    await run(quoteRound(undefined, { era: 'handshake' }));
    expect(cache.size).toBe(1);
  });

  test('error results and thrown errors are not stored', async () => {
    const { cache, run, runs } = cached();
    await run(quoteRound(), () => new ToolResult({ isError: true }));
    await expect(
      run(quoteRound(), () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    await run(quoteRound());
    expect(runs()).toBe(3);
    expect(cache.stats.stores).toBe(1);
  });

  test('results are kept per principal and per era', async () => {
    const { run, runs } = cached();
    await run(quoteRound(undefined, { principal: 'alice' }));
    await run(quoteRound(undefined, { principal: 'bob' }));
    await run(quoteRound(undefined, { principal: 'alice' }));
    expect(runs()).toBe(2);
    await run(quoteRound(undefined, { principal: 'alice', era: 'handshake' }));
    expect(runs()).toBe(3);
  });

  test('entries expire after ttlMs', async () => {
    const clock = manualClock();
    const { run, runs } = cached({ ttlMs: 1_000, now: clock.now });
    await run(quoteRound());
    clock.advance(999);
    await run(quoteRound());
    expect(runs()).toBe(1);
    clock.advance(1);
    await run(quoteRound());
    expect(runs()).toBe(2);
  });

  test('at most maxEntries are held; the least recently used goes first', async () => {
    const { cache, run, runs } = cached({ maxEntries: 2 });
    await run(quoteRound({ to: 'A' }));
    await run(quoteRound({ to: 'B' }));
    await run(quoteRound({ to: 'A' })); // a hit: A is now the most recently used
    await run(quoteRound({ to: 'C' })); // evicts B
    expect(cache.size).toBe(2);
    expect(runs()).toBe(3);
    await run(quoteRound({ to: 'A' }));
    expect(runs()).toBe(3);
    await run(quoteRound({ to: 'B' }));
    expect(runs()).toBe(4);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  test('list results are cached by method and cursor, unless lists is false', async () => {
    const { run, runs } = cached();
    await run(listContext('tools/list'), () => ({ tools: [{ name: 'quote' }] }));
    expect(await run(listContext('tools/list'))).toEqual({ tools: [{ name: 'quote' }] });
    await run(listContext('tools/list', { cursor: 'page-2' }), () => ({ tools: [] }));
    await run(listContext('prompts/list'), () => ({ prompts: [] }));
    expect(runs()).toBe(3);

    const off = cached({ lists: false });
    await off.run(listContext('tools/list'), () => ({ tools: [] }));
    await off.run(listContext('tools/list'), () => ({ tools: [] }));
    expect(off.runs()).toBe(2);
  });

  test('prompts are never cached', async () => {
    const { run, runs } = cached();
    const prompt = roundContext({
      method: 'prompts/get',
      params: { name: 'summarize', arguments: {} },
      handler: { kind: 'prompt', name: 'summarize', cacheable: true },
    });
    await run(prompt, () => ({ messages: [] }));
    await run(prompt, () => ({ messages: [] }));
    expect(runs()).toBe(2);
  });

  test('bad options are rejected when it is built', () => {
    expect(() => new ResponseCachingMiddleware({ ttlMs: 0 })).toThrow(
      new RangeError('ResponseCachingMiddleware: ttlMs must be a positive number (got 0).'),
    );
    expect(() => new ResponseCachingMiddleware({ maxEntries: 1.5 })).toThrow(
      new RangeError('ResponseCachingMiddleware: maxEntries must be a positive integer (got 1.5).'),
    );
    expect(() => new ResponseCachingMiddleware({ lists: 'yes' as never })).toThrow(
      new TypeError('ResponseCachingMiddleware: lists must be a boolean.'),
    );
  });
});
