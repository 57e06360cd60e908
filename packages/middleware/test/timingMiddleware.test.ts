import { afterEach, describe, expect, test, vi } from 'vitest';

import { InputRequiredToolResult, ToolResult, inputRequired } from '@parley/core';
import {
  TimingMiddleware,
  runMiddleware,
  type FlowTiming,
  type RoundTiming,
} from '../src/index.ts';
import { bookingRounds, listContext, manualClock, roundContext } from './helpers/fakeContext.ts';

const ask = () =>
  new InputRequiredToolResult(inputRequired({ requestState: 'waiting for the next round' }));

function timed() {
  const rounds: RoundTiming[] = [];
  const flows: FlowTiming[] = [];
  const clock = manualClock(1_000);
  const timing = new TimingMiddleware({
    onRound: (t) => rounds.push(t),
    onFlow: (t) => flows.push(t),
    now: clock.now,
  });
  /** Run one round whose handler takes `ms`, after `thinkMs` of the person answering. */
  const run = async <T>(
    context: ReturnType<typeof roundContext>,
    ms: number,
    handler: () => Promise<T>,
    thinkMs = 0,
  ) => {
    clock.advance(thinkMs);
    return runMiddleware([timing], context, async () => {
      clock.advance(ms);
      return handler();
    });
  };
  return { rounds, flows, run };
}

describe('TimingMiddleware', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('times each round, and the whole flow once, on its last round', async () => {
    const { rounds, flows, run } = timed();
    const [first, second, third] = bookingRounds();
    await run(first, 5, async () => ask());
    await run(second, 7, async () => ask(), 10_000);
    await run(third, 3, async () => new ToolResult(), 20_000);
    expect(rounds.map((t) => [t.round, t.outcome, t.durationMs])).toEqual([
      [1, 'input_required', 5],
      [2, 'input_required', 7],
      [3, 'complete', 3],
    ]);
    expect(rounds.every((t) => t.flowId === 'f1' && t.target === 'book_flight')).toBe(true);
    // The flow started at 1 000 (sealed into the state by the server) and ended at 31 015.
    expect(flows).toEqual([
      {
        method: 'tools/call',
        target: 'book_flight',
        era: 'modern',
        flowId: 'f1',
        rounds: 3,
        outcome: 'complete',
        startedAt: 1_000,
        durationMs: 30_015,
      },
    ]);
  });

  test('a flow that ends in an error is reported with outcome error', async () => {
    const { rounds, flows, run } = timed();
    const [, second] = bookingRounds();
    await expect(
      run(second, 2, async () => {
        throw new Error('payment failed');
      }),
    ).rejects.toThrow('payment failed');
    expect(rounds.map((t) => t.outcome)).toEqual(['error']);
    expect(flows.map((t) => [t.rounds, t.outcome])).toEqual([[2, 'error']]);
  });

  test('a handshake-era call is one round and one flow', async () => {
    const { rounds, flows, run } = timed();
    await run(roundContext({ era: 'handshake' }), 12, async () => new ToolResult());
    expect(rounds).toHaveLength(1);
    expect(flows.map((t) => [t.era, t.rounds, t.durationMs])).toEqual([['handshake', 1, 12]]);
  });

  test('lists are timed as rounds without a flow', async () => {
    const { rounds, flows, run } = timed();
    await run(listContext('prompts/list'), 1, async () => ({ prompts: [] }));
    expect(rounds).toEqual([
      {
        method: 'prompts/list',
        target: undefined,
        era: 'modern',
        flowId: undefined,
        round: undefined,
        outcome: 'complete',
        durationMs: 1,
      },
    ]);
    expect(flows).toEqual([]);
  });

  test('without callbacks it writes rounds and flows to stderr', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await runMiddleware([new TimingMiddleware()], roundContext(), async () => new ToolResult());
    expect(error.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringMatching(/^\[parley\] timing tools\/call book_flight round=1 \d+\.\dms$/),
      expect.stringMatching(/^\[parley\] timing tools\/call book_flight flow=f1 1 round -?\d+/),
    ]);
    expect(log).not.toHaveBeenCalled();
  });

  test('bad options are rejected when it is built', () => {
    expect(() => new TimingMiddleware({ onRound: 1 as never })).toThrow(
      new TypeError('TimingMiddleware: onRound must be a function.'),
    );
    expect(() => new TimingMiddleware({ onFlow: {} as never })).toThrow(
      new TypeError('TimingMiddleware: onFlow must be a function.'),
    );
    expect(() => new TimingMiddleware({ now: 0 as never })).toThrow(
      new TypeError('TimingMiddleware: now must be a function.'),
    );
  });
});
