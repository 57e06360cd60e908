import { afterEach, describe, expect, test, vi } from 'vitest';

import {
  InputRequiredToolResult,
  InvalidAnswerError,
  ToolResult,
  inputRequired,
} from '@parley/core';
import { LoggingMiddleware, runMiddleware, type LogEntry } from '../src/index.ts';
import { bookingRounds, listContext, manualClock, roundContext } from './helpers/fakeContext.ts';

const askFor = (key: string) =>
  new InputRequiredToolResult(
    inputRequired({
      inputRequests: {
        [key]: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: `${key}?`,
            requestedSchema: { type: 'object', properties: {} },
          },
        },
      },
    }),
  );

/** A logger that keeps what it is given, and a clock each round advances by `ms`. */
function captured(options: { logAnswers?: boolean; ms?: number } = {}) {
  const lines: string[] = [];
  const entries: LogEntry[] = [];
  const clock = manualClock();
  const logging = new LoggingMiddleware({
    log: (line, entry) => {
      lines.push(line);
      entries.push(entry);
    },
    now: clock.now,
    ...(options.logAnswers !== undefined ? { logAnswers: options.logAnswers } : {}),
  });
  const run = <T>(context = roundContext(), handler: () => Promise<T>) =>
    runMiddleware([logging], context, async () => {
      clock.advance(options.ms ?? 4.1);
      return handler();
    });
  return { lines, entries, run };
}

describe('LoggingMiddleware', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('one line per round of a three-round flow: ask, ask, complete, one flow id', async () => {
    const { lines, entries, run } = captured();
    const [first, second, third] = bookingRounds();
    await run(first, async () => askFor('destination'));
    await run(second, async () => askFor('date'));
    await run(third, async () => new ToolResult({ content: [{ type: 'text', text: 'Booked' }] }));
    expect(lines).toEqual([
      'tools/call book_flight modern flow=f1 round=1 input_required[destination] 4.1ms',
      'tools/call book_flight modern flow=f1 round=2 input_required[date] 4.1ms',
      'tools/call book_flight modern flow=f1 round=3 complete 4.1ms',
    ]);
    expect(entries[1]).toEqual({
      method: 'tools/call',
      target: 'book_flight',
      era: 'modern',
      flowId: 'f1',
      round: 2,
      outcome: 'input_required',
      askedKeys: ['date'],
      answeredKeys: ['destination'],
      durationMs: 4.1,
    });
  });

  test('answers are not logged unless the author opts in', async () => {
    const [, second] = bookingRounds();
    const quiet = captured();
    await quiet.run(second, async () => askFor('date'));
    expect(quiet.lines.join('\n')).not.toContain('Paris');
    expect(quiet.entries[0]).not.toHaveProperty('answers');

    const loud = captured({ logAnswers: true });
    await loud.run(second, async () => askFor('date'));
    expect(loud.lines).toEqual([
      'tools/call book_flight modern flow=f1 round=2 input_required[date] 4.1ms answers={"destination":{"action":"accept","content":{"destination":"Paris"}}}',
    ]);
    expect(loud.entries[0]?.answers).toEqual({
      destination: { action: 'accept', content: { destination: 'Paris' } },
    });
  });

  test('a thrown error is logged as an error round and still thrown', async () => {
    const { lines, entries, run } = captured({ ms: 2 });
    const boom = new TypeError('no seats left');
    await expect(
      run(roundContext(), async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(lines).toEqual([
      'tools/call book_flight modern flow=f1 round=1 error[TypeError: no seats left] 2.0ms',
    ]);
    expect(entries[0]?.error).toEqual({ name: 'TypeError', message: 'no seats left' });
  });

  test("an invalid answer's error names the field and the problem; the answer only with logAnswers", async () => {
    const refused = () =>
      new InvalidAnswerError(
        { key: 'date', field: 'date', reason: 'expected a date (YYYY-MM-DD)' },
        { reasonWithAnswer: 'expected a date (YYYY-MM-DD), got the string "hunter2-4417"' },
      );
    const quiet = captured({ ms: 2 });
    await expect(
      quiet.run(roundContext(), async () => {
        throw refused();
      }),
    ).rejects.toBeInstanceOf(InvalidAnswerError);
    expect(quiet.lines).toEqual([
      "tools/call book_flight modern flow=f1 round=1 error[InvalidAnswerError: Invalid answer to 'date' in field 'date': expected a date (YYYY-MM-DD)] 2.0ms",
    ]);
    expect(JSON.stringify(quiet.entries)).not.toContain('hunter2');

    const loud = captured({ ms: 2, logAnswers: true });
    await expect(
      loud.run(roundContext(), async () => {
        throw refused();
      }),
    ).rejects.toBeInstanceOf(InvalidAnswerError);
    expect(loud.entries[0]?.error).toEqual({
      name: 'InvalidAnswerError',
      code: 'invalid_answer',
      message: `Invalid answer to 'date' in field 'date': expected a date (YYYY-MM-DD), got the string "hunter2-4417"`,
    });
  });

  test('an isError tool result is an error outcome', async () => {
    const { lines, run } = captured({ ms: 1 });
    await run(roundContext(), async () => new ToolResult({ isError: true }));
    expect(lines).toEqual(['tools/call book_flight modern flow=f1 round=1 error 1.0ms']);
  });

  test('prompt and resource asks are logged with their keys; lists without a flow', async () => {
    const { lines, run } = captured({ ms: 0.25 });
    await run(
      roundContext({
        method: 'prompts/get',
        params: { name: 'summarize', arguments: {} },
        handler: { kind: 'prompt', name: 'summarize', cacheable: false },
      }),
      async () => askFor('quarter').toJSON(),
    );
    await run(
      roundContext({
        method: 'resources/read',
        params: { uri: 'report://summary' },
        handler: { kind: 'resource', name: 'report://summary', cacheable: false },
        era: 'handshake',
      }),
      async () => ({ contents: [] }),
    );
    await run(listContext('tools/list'), async () => ({ tools: [] }));
    expect(lines).toEqual([
      'prompts/get summarize modern flow=f1 round=1 input_required[quarter] 0.3ms',
      'resources/read report://summary handshake flow=f1 round=1 complete 0.3ms',
      'tools/list - modern complete 0.3ms',
    ]);
  });

  test('by default it writes to stderr, never stdout (stdio servers speak on stdout)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    await runMiddleware([new LoggingMiddleware()], listContext(), async () => ({ tools: [] }));
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]?.[0]).toMatch(
      /^\[parley\] tools\/list - modern complete \d+\.\dms$/,
    );
    expect(log).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  test('bad options are rejected when it is built', () => {
    expect(() => new LoggingMiddleware({ log: 'stderr' as never })).toThrow(
      new TypeError('LoggingMiddleware: log must be a function.'),
    );
    expect(() => new LoggingMiddleware({ logAnswers: 'yes' as never })).toThrow(
      new TypeError('LoggingMiddleware: logAnswers must be a boolean.'),
    );
    expect(() => new LoggingMiddleware(null as never)).toThrow(TypeError);
  });
});
