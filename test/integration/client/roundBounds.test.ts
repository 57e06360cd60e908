import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  Client,
  InputHandlerError,
  RoundsExceededError,
  UnsupportedCapabilityError,
  type ClientOptions,
} from '@parley/client';

import { runs } from './fixtures/bothErasServer.ts';
import { openTarget, textOf, type OpenTarget } from './helpers/targets.ts';

/**
 * Round bounds, failing handlers and missing handlers, with the Parley client against a
 * `ParleyServer` in both eras, in this process and over HTTP on 127.0.0.1 (both keep the server
 * in this process, so its handler runs can be counted).
 */

const booking: ClientOptions['elicitationHandler'] = (message, responseType) =>
  message.includes('Where')
    ? responseType({ destination: 'Oslo' })
    : message.startsWith('When')
      ? responseType({ date: '2026-10-10' })
      : responseType('x');

describe.each([
  ['in-process', 'modern'],
  ['in-process', 'handshake'],
  ['http', 'modern'],
  ['http', 'handshake'],
] as const)('%s, %s era', (via, era) => {
  let opened: OpenTarget;
  beforeAll(async () => {
    opened = await openTarget(via);
  });
  afterAll(() => opened?.close());

  async function connect(options: ClientOptions): Promise<Client> {
    const client = new Client(opened.target, { mode: era, ...options });
    await client.connect();
    return client;
  }

  test('a server that asks forever ends in RoundsExceeded after exactly N rounds', async () => {
    let asked = 0;
    await using client = await connect({
      maxRounds: 3,
      elicitationHandler: (_message, responseType) => {
        asked += 1;
        return responseType(true);
      },
    });
    const before = runs.ask_forever;
    const error = await client.callTool('ask_forever', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoundsExceededError);
    expect((error as RoundsExceededError).code).toBe('rounds_exceeded');
    expect((error as RoundsExceededError).data?.maxRounds).toBe(3);
    expect(
      Object.values((error as RoundsExceededError).data?.lastResult.inputRequests ?? {}),
    ).toMatchObject([{ method: 'elicitation/create', params: { message: 'Again?' } }]);
    expect(asked).toBe(3);
    // Modern: the handler ran once per round and once more for the ask that went unanswered.
    // Handshake: one run, suspended in ctx.elicit, pushing four asks (the fourth refused).
    expect(runs.ask_forever - before).toBe(era === 'modern' ? 4 : 1);
    // The connection is still good.
    await using again = await connect({ elicitationHandler: booking });
    expect((await again.callTool('book_flight', {})).data).toBe(
      'Booked a flight to Oslo on 2026-10-10',
    );
  });

  test('the default bound is 10 rounds; a call can lower or raise it', async () => {
    let asked = 0;
    await using client = await connect({
      elicitationHandler: (_m, responseType) => {
        asked += 1;
        return responseType(true);
      },
    });
    await expect(client.callTool('ask_forever', {})).rejects.toBeInstanceOf(RoundsExceededError);
    expect(asked).toBe(10);
    asked = 0;
    await expect(client.callTool('ask_forever', {}, { maxRounds: 1 })).rejects.toThrow(
      /after 1 round \(/,
    );
    expect(asked).toBe(1);
    asked = 0;
    await expect(client.callTool('ask_forever', {}, { maxRounds: 12 })).rejects.toThrow(
      /after 12 rounds/,
    );
    expect(asked).toBe(12);
  });

  test('an elicitation handler that throws stops the flow with a clear error', async () => {
    await using client = await connect({
      elicitationHandler: (message) => {
        throw new Error(`no answer to "${message}"`);
      },
    });
    const error = await client.callTool('book_flight', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect((error as InputHandlerError).data).toMatchObject({
      handler: 'elicitationHandler',
      call: { method: 'tools/call', name: 'book_flight' },
      round: 1,
    });
    expect((error as Error).message).toMatch(/no answer to "Where would you like to fly\?"$/);
  });

  test('a sampling handler or roots provider that throws does the same', async () => {
    await using client = await connect({
      elicitationHandler: () => 'an audit',
      samplingHandler: () => {
        throw new Error('model offline');
      },
      roots: () => [{ uri: 'file:///w' }],
    });
    const error = await client.callTool('survey_workspace', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect((error as InputHandlerError).data?.handler).toBe('samplingHandler');
    expect((error as Error).cause).toEqual(new Error('model offline'));

    await using other = await connect({
      elicitationHandler: () => 'an audit',
      samplingHandler: () => 'fine',
      roots: () => {
        throw new Error('no disk');
      },
    });
    const rootsError = await other.callTool('survey_workspace', {}).catch((e: unknown) => e);
    expect((rootsError as InputHandlerError).data?.handler).toBe('roots');
  });

  test('without an elicitation handler the capability is not declared, and the server knows it', async () => {
    await using client = await connect({ samplingHandler: () => 'text' });
    if (era === 'modern') {
      // The server refuses the round with -32021 rather than ask what cannot be answered.
      const error = await client.callTool('book_flight', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedCapabilityError);
      expect((error as UnsupportedCapabilityError).data?.requiredCapabilities).toMatchObject({
        elicitation: {},
      });
    } else {
      // ctx.elicit() raises the capability error inside the tool, which reports it.
      const result = await client.callTool('pattern_example', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('elicitation not supported by this client');
    }
  });

  test('a prompt and a resource that need elicitation fail with the typed capability error on both eras', async () => {
    await using client = await connect({ samplingHandler: () => 'text' });
    // Modern: -32021. Handshake: -32600 with the same data (a 2026-only code never goes there,
    // and the refusal is the client's doing, not an internal error); the client types both.
    for (const failing of [
      client.getPrompt('summarize', {}),
      client.readResource('report://summary'),
    ]) {
      const error = await failing.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedCapabilityError);
      expect((error as UnsupportedCapabilityError).data).toMatchObject({
        feature: 'elicitation',
        requiredCapabilities: { elicitation: {} },
      });
      expect((error as { cause?: { code?: unknown } }).cause?.code).toBe(
        era === 'modern' ? -32021 : -32600,
      );
    }
  });
});

describe('handshake era: concurrent calls', () => {
  // Nothing on the wire says which call a pushed request serves, so it counts for every call in
  // flight: a call can reach its bound early when another call asks at the same time, never late.
  let opened: OpenTarget;
  beforeAll(async () => {
    opened = await openTarget('in-process');
  });

  const answers: ClientOptions['elicitationHandler'] = (message, responseType) => {
    if (message === 'Enter your name:') return responseType('Alice');
    if (message === "What's the meeting title?") return responseType('Standup');
    if (message === 'Duration in minutes?') return responseType(15);
    return responseType('no');
  };

  test('each call sees its own asks and those of the calls beside it', async () => {
    // Ordered, whatever order the server schedules them in: the meeting's title, then the
    // greeting's name (both calls in flight), then, once the greeting is done, the meeting's
    // other two questions.
    let titleAsked!: () => void;
    const meetingStarted = new Promise<void>((resolve) => (titleAsked = resolve));
    let greetingDone!: () => void;
    const greeted = new Promise<void>((resolve) => (greetingDone = resolve));
    await using client = new Client(opened.target, {
      mode: 'handshake',
      elicitationHandler: async (message, responseType, params, ctx) => {
        if (message === "What's the meeting title?") titleAsked();
        if (message === 'Enter your name:') await meetingStarted;
        if (message === 'Duration in minutes?') await greeted;
        return answers(message, responseType, params, ctx);
      },
      maxRounds: 3,
    });
    await client.connect();
    const meetingCall = client.callTool('plan_meeting', {});
    await meetingStarted;
    const greetingCall = client.callTool('pattern_example', {}).finally(() => greetingDone());
    const [meeting, greeting] = await Promise.allSettled([meetingCall, greetingCall]);
    // plan_meeting asks three times and pattern_example once while plan_meeting runs: four.
    expect(meeting.status).toBe('rejected');
    expect((meeting as PromiseRejectedResult).reason).toBeInstanceOf(RoundsExceededError);
    expect(greeting.status).toBe('fulfilled');
    expect(textOf((greeting as PromiseFulfilledResult<{ content: unknown[] }>).value)).toBe(
      'Hello Alice!',
    );
  });

  test('with room for both, both finish', async () => {
    await using client = new Client(opened.target, {
      mode: 'handshake',
      elicitationHandler: answers,
      maxRounds: 4,
    });
    await client.connect();
    const [meeting, greeting] = await Promise.all([
      client.callTool('plan_meeting', {}),
      client.callTool('pattern_example', {}),
    ]);
    expect(textOf(meeting)).toBe("Meeting 'Standup' for 15 minutes (Urgent: false)");
    expect(textOf(greeting)).toBe('Hello Alice!');
  });
});
