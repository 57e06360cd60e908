import { afterEach, describe, expect, test } from 'vitest';

import {
  ERROR_META_KEY,
  ErrorHandlingMiddleware,
  LoggingMiddleware,
  RateLimitingMiddleware,
  TimingMiddleware,
  type FlowTiming,
  type LogEntry,
  type RoundTiming,
} from '@parley/middleware';
import { createBookingServer } from './bookingServer.ts';
import { accepted, connect, rawToolCall, textOf, type Connected, type TestEra } from './helpers.ts';

/** The built-ins on a running server, with no changes to the tools: they behave on every round. */

const answers = (message: string) =>
  message.startsWith('Where')
    ? accepted({ destination: 'Paris' })
    : accepted({ date: '2026-08-01' });

let connection: Connected | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

function capturedLogging(logAnswers = false) {
  const lines: string[] = [];
  const entries: LogEntry[] = [];
  const logging = new LoggingMiddleware({
    logAnswers,
    log: (line, entry) => {
      lines.push(line);
      entries.push(entry);
    },
  });
  return { logging, lines, entries, calls: () => lines.filter((l) => l.startsWith('tools/call')) };
}

describe('LoggingMiddleware', () => {
  test('modern era: one line per round, one flow id, the asked keys, no answers', async () => {
    const { logging, calls } = capturedLogging();
    const { server } = createBookingServer([logging]);
    connection = await connect(server, 'modern', answers);
    await connection.client.callTool({ name: 'book_flight', arguments: {} });
    const lines = calls();
    expect(lines).toHaveLength(3);
    const flowId = /flow=([0-9a-f]{24})/.exec(lines[0] ?? '')?.[1];
    expect(flowId).toBeDefined();
    const pattern = (round: number, outcome: string) =>
      new RegExp(
        `^tools/call book_flight modern flow=${flowId} round=${round} ${outcome.replace(/[[\]]/g, '\\$&')} \\d+\\.\\dms$`,
      );
    expect(lines[0]).toMatch(pattern(1, 'input_required[destination]'));
    expect(lines[1]).toMatch(pattern(2, 'input_required[date]'));
    expect(lines[2]).toMatch(pattern(3, 'complete'));
    expect(lines.join('\n')).not.toMatch(/Paris|2026-08-01/);
  });

  test('handshake era: the whole call is one line, round 1', async () => {
    const { logging, calls } = capturedLogging();
    const { server } = createBookingServer([logging]);
    connection = await connect(server, 'handshake', answers);
    await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(calls()).toEqual([
      expect.stringMatching(
        /^tools\/call book_flight handshake flow=[0-9a-f]{24} round=1 complete \d+\.\dms$/,
      ),
    ]);
  });

  test('with logAnswers the answers are in the line and the entry', async () => {
    const { logging, calls, entries } = capturedLogging(true);
    const { server } = createBookingServer([logging]);
    connection = await connect(server, 'modern', answers);
    await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(calls()[1]).toContain(
      'answers={"destination":{"action":"accept","content":{"destination":"Paris"}}}',
    );
    const booking = entries.filter((entry) => entry.method === 'tools/call');
    expect(booking.map((entry) => entry.answeredKeys)).toEqual([[], ['destination'], ['date']]);
  });

  test('an error round is logged as error', async () => {
    const { logging, calls } = capturedLogging();
    const { server } = createBookingServer([logging]);
    connection = await connect(server, 'modern');
    await connection.client.callTool({ name: 'explode', arguments: {} });
    expect(calls()).toEqual([
      expect.stringMatching(
        /^tools\/call explode modern flow=\w+ round=1 error\[Error: the booking backend is down\] /,
      ),
    ]);
  });
});

describe.each<TestEra>(['modern', 'handshake'])('ErrorHandlingMiddleware (%s era)', (era) => {
  test('does not fire on asks; a thrown error becomes an isError result with a code', async () => {
    const fired: unknown[] = [];
    const { server } = createBookingServer([
      new ErrorHandlingMiddleware({
        maskErrorDetails: true,
        onError: (error) => fired.push(error),
      }),
    ]);
    connection = await connect(server, era, answers);
    const booked = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(booked)).toBe('Booked a flight to Paris on 2026-08-01');
    expect(fired).toEqual([]);

    const failed = await connection.client.callTool({ name: 'explode', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('Internal error');
    expect(failed._meta?.[ERROR_META_KEY]).toEqual({ code: 'internal' });
    expect(fired).toHaveLength(1);
  });
});

describe('ErrorHandlingMiddleware and protocol errors', () => {
  test('an answer that keeps not fitting still goes out as a JSON-RPC error, once the re-asks are spent', async () => {
    const fired: unknown[] = [];
    const { server } = createBookingServer([
      new ErrorHandlingMiddleware({ onError: (error) => fired.push(error) }),
    ]);
    let state = (await rawToolCall(server, { name: 'book_flight' })).result?.requestState;
    for (let reask = 1; reask <= 3; reask++) {
      const again = await rawToolCall(server, {
        name: 'book_flight',
        inputResponses: { destination: accepted({ destination: 42 }) },
        requestState: state as string,
      });
      expect(again.result?.resultType).toBe('input_required');
      state = again.result?.requestState;
    }
    expect(fired).toEqual([]);
    const bad = await rawToolCall(server, {
      name: 'book_flight',
      inputResponses: { destination: accepted({ destination: 42 }) },
      requestState: state as string,
    });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('destination');
    expect(fired).toHaveLength(1);
  });
});

describe('TimingMiddleware', () => {
  test('times three rounds and one flow of the modern booking, one of each on the handshake era', async () => {
    for (const [era, expectedRounds] of [
      ['modern', 3],
      ['handshake', 1],
    ] as const) {
      const rounds: RoundTiming[] = [];
      const flows: FlowTiming[] = [];
      const { server } = createBookingServer([
        new TimingMiddleware({ onRound: (t) => rounds.push(t), onFlow: (t) => flows.push(t) }),
      ]);
      connection = await connect(server, era, answers);
      await connection.client.callTool({ name: 'book_flight', arguments: {} });
      const booking = rounds.filter((t) => t.method === 'tools/call');
      expect(booking.map((t) => t.round)).toEqual(
        Array.from({ length: expectedRounds }, (_, i) => i + 1),
      );
      expect(flows.map((t) => [t.flowId, t.rounds, t.outcome])).toEqual([
        [booking[0]?.flowId, expectedRounds, 'complete'],
      ]);
      expect(flows[0]?.durationMs).toBeGreaterThanOrEqual(0);
      await connection.close();
      connection = undefined;
    }
  });
});

describe('RateLimitingMiddleware', () => {
  test('counts a three-round flow once; the next flow over the limit is refused', async () => {
    const { server, runs } = createBookingServer([
      new RateLimitingMiddleware({ maxFlows: 1, windowMs: 60_000 }),
    ]);
    connection = await connect(server, 'modern', answers);
    const booked = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(textOf(booked)).toBe('Booked a flight to Paris on 2026-08-01');
    expect(runs.book_flight).toBe(3);

    const refused = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Rate limit exceeded: at most 1 calls per 60000 ms/);
    expect(runs.book_flight).toBe(3);
  });

  test('with ErrorHandlingMiddleware outside it, a refusal carries the rate_limited code', async () => {
    const { server } = createBookingServer([
      new ErrorHandlingMiddleware(),
      new RateLimitingMiddleware({ maxFlows: 1, windowMs: 60_000 }),
    ]);
    connection = await connect(server, 'handshake', answers);
    await connection.client.callTool({ name: 'book_flight', arguments: {} });
    const refused = await connection.client.callTool({ name: 'book_flight', arguments: {} });
    expect(refused._meta?.[ERROR_META_KEY]).toEqual({ code: 'rate_limited' });
  });
});
