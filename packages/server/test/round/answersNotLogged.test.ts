import { inspect } from 'node:util';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { LoggingMiddleware } from '@parley/middleware';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';

import {
  InvalidAnswerError,
  ParleyServer,
  elicitRequest,
  type RunningServer,
} from '../../src/index.ts';
import { rawModernCall } from '../helpers/rawModern.ts';
import type { TestEra } from '../helpers/sdkClients.ts';

/**
 * Issue #38: answers reach the logs only with `logAnswers`. A person keeps typing something
 * secret-looking into a date field; once the re-asks run out the call fails. The person was
 * told what was wrong with their answer, in the re-asks; `onError`, the default stderr report,
 * `LoggingMiddleware`'s lines and the client's error name the field and the problem, never the
 * answer. A real server over real HTTP, with a real SDK client, in both eras.
 */

const SECRET = 'hunter2-4417';
const askDate = elicitRequest(
  'When do you travel?',
  z.object({ date: z.iso.date().meta({ title: 'Travel date' }) }),
);
const REASON = 'expected a date such as 2026-08-01';
const WITH_ANSWER = `${REASON}, got the string "${SECRET}"`;
/** The error's message, the same in both eras: it names the ask by its key, and the field. */
const MESSAGE = `Invalid answer to 'date' in field 'date': ${REASON}`;

let running: RunningServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await running?.close({ graceMs: 0 });
  running = undefined;
});

interface Served {
  url: string;
  /** What reached `onError` (none when the server keeps its default report). */
  reported: unknown[];
}

/** A server whose tool asks for a date with `ctx.ask`, re-asking once at most. */
async function serve(options: { onError?: boolean; logging: LoggingMiddleware }): Promise<Served> {
  const reported: unknown[] = [];
  const mcp = new ParleyServer({
    name: 'travel',
    maxReasks: 1,
    onWarning: () => {},
    ...(options.onError === true ? { onError: (error: unknown) => reported.push(error) } : {}),
  });
  mcp.use(options.logging);
  mcp.tool('plan_trip', async (_args, ctx) => {
    const date = await ctx.ask('date', askDate);
    return date.action === 'accept' ? `Travelling on ${date.data.date}` : 'No trip';
  });
  running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return { url: running.url as string, reported };
}

interface Outcome {
  /** The message of every form the person saw. */
  forms: string[];
  /** What the client got: the call's error. */
  error: unknown;
}

/** A real SDK client whose person types the same wrong answer every time they are asked. */
async function callWithWrongAnswer(url: string, era: TestEra): Promise<Outcome> {
  const client = new Client(
    { name: 'traveller', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const forms: string[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    forms.push(String(request.params.message));
    return { action: 'accept', content: { date: SECRET } } as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    await client.callTool({ name: 'plan_trip', arguments: {} });
    throw new Error('expected the call to fail once the re-asks ran out');
  } catch (error) {
    return { forms, error };
  } finally {
    await client.close();
  }
}

/** Every way a value is commonly written to a log, as text. */
function logged(value: unknown): string {
  return [
    String(value),
    value instanceof Error ? (value.stack ?? '') : '',
    JSON.stringify(value) ?? '',
    inspect(value, { depth: Infinity }),
    inspect(value, { showHidden: true, getters: true, depth: Infinity }),
  ].join('\n');
}

/** The person saw the question, then once again with what was wrong, their answer quoted. */
function expectToldThePerson(forms: string[]): void {
  expect(forms).toEqual([
    'When do you travel?',
    `When do you travel?\n\nYour last answer could not be used. Travel date: ${WITH_ANSWER}.`,
  ]);
}

describe.each<TestEra>(['modern', 'handshake'])('re-asks run out (%s era)', (era) => {
  const message = MESSAGE;
  const key = { key: 'date' };
  test('onError and the log lines name the field and the problem, never the answer', async () => {
    const lines: string[] = [];
    const served = await serve({
      onError: true,
      logging: new LoggingMiddleware({ log: (line) => lines.push(line) }),
    });
    const { forms, error } = await callWithWrongAnswer(served.url, era);
    expectToldThePerson(forms);

    expect(served.reported).toHaveLength(1);
    const reported = served.reported[0] as InvalidAnswerError;
    expect(reported).toBeInstanceOf(InvalidAnswerError);
    expect(reported.message).toBe(message);
    expect(reported.data).toEqual({ ...key, field: 'date', reason: REASON });
    expect(logged(reported)).not.toContain(SECRET);
    // The reason for the person is still there, apart: it is what the re-ask quoted.
    expect(reported.reasonWithAnswer()).toBe(WITH_ANSWER);

    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^tools/call plan_trip ${era} .*error\\[InvalidAnswerError: ${escape(message)}\\] [\\d.]+ms$`,
      ),
    );
    expect(lines.join('\n')).not.toContain(SECRET);

    // The client's error: -32602 naming the key, the field and the problem.
    expect(error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_answer', ...key, field: 'date', problem: REASON },
    });
    expect((error as Error).message).toContain(message);
    expect(logged(error)).not.toContain(SECRET);
  });

  test('the default stderr report and the default log lines leave the answer out', async () => {
    const stderr: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
      stderr.push(parts.map(String).join(' '));
    });
    const served = await serve({ logging: new LoggingMiddleware() });
    const { forms } = await callWithWrongAnswer(served.url, era);
    expectToldThePerson(forms);

    expect(stderr).toContain(`[parley] tools/call plan_trip: InvalidAnswerError: ${message}`);
    expect(stderr.some((line) => line.includes(`error[InvalidAnswerError: ${message}]`))).toBe(
      true,
    );
    expect(stderr.join('\n')).not.toContain(SECRET);
  });

  test('with logAnswers the middleware logs the answers and the reason as the person read it', async () => {
    const lines: string[] = [];
    const served = await serve({
      onError: true,
      logging: new LoggingMiddleware({ log: (line) => lines.push(line), logAnswers: true }),
    });
    await callWithWrongAnswer(served.url, era);
    const last = lines.at(-1) ?? '';
    expect(last).toContain(`error[InvalidAnswerError: ${message}, got the string "${SECRET}"]`);
    // A modern round brings its answers in the request; a handshake-era call's come to the
    // requests it pushes, which the round's `inputResponses` do not hold.
    if (era === 'modern') {
      expect(last).toContain(`answers={"date":{"action":"accept","content":{"date":"${SECRET}"}}}`);
    }
    // onError is not the middleware's log: it still leaves the answer out.
    expect(logged(served.reported)).not.toContain(SECRET);
  });
});

describe('on the raw modern wire', () => {
  test("the error reply quotes no answer: the client's logs and the model see it too", async () => {
    const reported: unknown[] = [];
    const mcp = new ParleyServer({
      name: 'travel',
      maxReasks: 0,
      onError: (error) => reported.push(error),
    });
    mcp.tool('plan_trip', async (_args, ctx) => {
      const date = await ctx.ask('date', askDate);
      return date.action === 'accept' ? `Travelling on ${date.data.date}` : 'No trip';
    });
    const asked = await rawModernCall(mcp, { name: 'plan_trip' });
    const refused = await rawModernCall(mcp, {
      name: 'plan_trip',
      inputResponses: { date: { action: 'accept', content: { date: SECRET } } },
      requestState: asked.body.result?.requestState,
    });
    expect(refused.body.error).toEqual({
      code: -32602,
      message: MESSAGE,
      data: { reason: 'invalid_answer', key: 'date', field: 'date', problem: REASON },
    });
    expect(JSON.stringify(refused.body)).not.toContain(SECRET);
    expect(logged(reported)).not.toContain(SECRET);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
