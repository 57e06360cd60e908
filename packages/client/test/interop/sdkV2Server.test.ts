import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';

import {
  Client,
  InputHandlerError,
  RoundsExceededError,
  UnsupportedCapabilityError,
  type ClientOptions,
  type RoundEvent,
} from '../../src/index.ts';
import { freshSeen, sdkV2Target, type SeenBySdkServer } from '../helpers/sdkV2Server.ts';

/**
 * The Parley client against a server written only with the raw MCP SDK v2, in both eras:
 * modern requests answered with `inputRequired(...)`, and handshake sessions on which the SDK's
 * legacy shim pushes each of those rounds as real requests (plus `elicitInput` pushes).
 */

const textOf = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('');

let client: Client | undefined;
let seen: SeenBySdkServer;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(mode: 'modern' | 'handshake', options: ClientOptions = {}): Promise<Client> {
  seen = freshSeen();
  client = new Client(sdkV2Target(seen), { mode, ...options });
  await client.connect();
  return client;
}

const travel: ClientOptions['elicitationHandler'] = (message, responseType) => {
  if (message === 'Where to?') return responseType({ destination: 'Lisbon' });
  if (message.startsWith('When to')) return responseType({ date: '2026-09-01' });
  if (message === 'Purpose?') return { purpose: 'audit' };
  if (message === 'Greet whom?') return responseType({ name: 'Ada' });
  if (message === 'Format?') return responseType({ format: 'csv' });
  if (message === 'Your name?') return responseType({ name: 'Grace' });
  if (message === 'Again?' || message === 'OK?') return responseType({ ok: true });
  if (message === 'Which seat?') return responseType({ seat: '12A' });
  throw new Error(`unexpected question: ${message}`);
};

describe.each(['modern', 'handshake'] as const)('against a raw SDK v2 server (%s era)', (era) => {
  test('connects in that era and reports it', async () => {
    const c = await connect(era);
    expect(c.era).toBe(era);
    expect(c.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
  });

  test('a listed tool with an output schema that asks: the final result is checked, not the asks', async () => {
    const c = await connect(era, { elicitationHandler: travel });
    const listed = await c.listTools();
    expect(listed.find((tool) => tool.name === 'reserve_seat')?.outputSchema).toBeDefined();
    const result = await c.callTool<{ seat: string }>('reserve_seat');
    expect(result.data).toEqual({ seat: '12A' });
    expect(textOf(result)).toBe('Seat 12A');
  });

  test('a two-round tool: every round answered, the final result returned', async () => {
    const rounds: RoundEvent[] = [];
    const c = await connect(era, {
      elicitationHandler: travel,
      onRound: (event) => rounds.push(event),
    });
    const result = await c.callTool('book_trip');
    expect(textOf(result)).toBe('Booked Lisbon on 2026-09-01');
    expect(rounds.map((r) => [r.round, r.call.name, Object.values(r.answered)])).toEqual([
      [1, 'book_trip', [{ action: 'accept', content: { destination: 'Lisbon' } }]],
      [2, 'book_trip', [{ action: 'accept', content: { date: '2026-09-01' } }]],
    ]);
    expect(rounds.every((r) => r.era === era && r.maxRounds === 10)).toBe(true);
  });

  test('sampling, roots and a question in one server round', async () => {
    const rounds: RoundEvent[] = [];
    const c = await connect(era, {
      elicitationHandler: travel,
      samplingHandler: (messages) => `summary of ${messages.length} message`,
      roots: [{ uri: 'file:///home/me/project', name: 'project' }],
      onRound: (event) => rounds.push(event),
    });
    const result = await c.callTool('survey');
    expect(textOf(result)).toBe('audit | file:///home/me/project | summary of 1 message');
    // Modern: one round of three requests. Handshake: the shim pushes three requests, and each
    // pushed request counts as a round of the call.
    expect(rounds.map((r) => Object.keys(r.asked).length)).toEqual(
      era === 'modern' ? [3] : [1, 1, 1],
    );
  });

  test('a prompt and a resource that ask', async () => {
    const c = await connect(era, { elicitationHandler: travel });
    const prompt = await c.getPrompt('greet');
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Greet Ada' } },
    ]);
    const resource = await c.readResource('test://asks');
    expect(resource.contents).toEqual([
      { uri: 'test://asks', mimeType: 'text/plain', text: 'report as csv' },
    ]);
  });

  test('a server that asks forever ends in RoundsExceeded after exactly N rounds', async () => {
    let asked = 0;
    const c = await connect(era, {
      maxRounds: 3,
      elicitationHandler: (_message, responseType) => {
        asked += 1;
        return responseType({ ok: true });
      },
    });
    const error = await c.callTool('never_done').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoundsExceededError);
    expect((error as RoundsExceededError).message).toBe(
      "tools/call 'never_done' still asked for input after 3 rounds (maxRounds); the flow was stopped.",
    );
    const { data } = error as RoundsExceededError;
    expect(data?.maxRounds).toBe(3);
    const lastAsk = Object.values(data?.lastResult.inputRequests ?? {});
    expect(lastAsk).toMatchObject([
      { method: 'elicitation/create', params: { message: 'Again?' } },
    ]);
    expect(asked).toBe(3);
    // Modern: the handler ran for each answered round and once more for the unanswered ask.
    if (era === 'modern') expect(seen.neverDone).toBe(4);
  });

  test('the bound can be set per call', async () => {
    let asked = 0;
    const c = await connect(era, {
      elicitationHandler: (_m, responseType) => {
        asked += 1;
        return responseType({ ok: true });
      },
    });
    const error = await c.callTool('never_done', {}, { maxRounds: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoundsExceededError);
    expect(asked).toBe(1);
  });

  test('a handler that throws stops the flow with a clear error', async () => {
    const c = await connect(era, {
      elicitationHandler: () => {
        throw new Error('the user closed the window');
      },
    });
    const error = await c.callTool('never_done').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    // Modern: the inputRequests key. Handshake: the question, never the request's JSON-RPC id.
    expect((error as InputHandlerError).message).toBe(
      `elicitationHandler failed to answer ${era === 'modern' ? "'again'" : '"Again?"'} for tools/call 'never_done' (round 1): the user closed the window`,
    );
    expect((error as InputHandlerError).cause).toEqual(new Error('the user closed the window'));
    // Modern: no retry after the failure.
    if (era === 'modern') expect(seen.neverDone).toBe(1);
  });

  test('data is the structured result, unwrapped from the handshake envelope', async () => {
    const c = await connect(era);
    const result = await c.callTool<number>('scalar_output');
    expect(result.data).toBe(42);
    expect(result.structuredContent).toEqual(era === 'modern' ? 42 : { result: 42 });
  });

  test('without handlers nothing is declared, so the server cannot ask', async () => {
    const c = await connect(era);
    if (era === 'modern') {
      await expect(c.callTool('book_trip')).rejects.toBeInstanceOf(UnsupportedCapabilityError);
    } else {
      const result = await c.callTool('book_trip');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/did not declare the required capability/);
    }
  });

  test('a silent server times out after timeoutMs', async () => {
    const c = await connect(era);
    const error = await c.callTool('hang', {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
  });

  test('a call can be cancelled with a signal, also while a handler waits', async () => {
    const controller = new AbortController();
    const c = await connect(era, {
      elicitationHandler: (_m, _responseType, _params, ctx) =>
        new Promise((_, reject) => {
          controller.abort(new Error('stop'));
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    await expect(c.callTool('book_trip', {}, { signal: controller.signal })).rejects.toThrow(
      'stop',
    );
    // The connection is still good for the next call.
    await expect(c.callTool('scalar_output')).resolves.toMatchObject({ data: 42 });
  });
});

describe('modern era specifics', () => {
  test('requestState is echoed byte for byte; a state-only round retries with state alone', async () => {
    const c = await connect('modern', { elicitationHandler: travel });
    const result = await c.callTool('echo_state');
    expect(textOf(result)).toBe('done after state-only');
    expect(seen.states).toEqual([
      undefined,
      '{"opaque": "state", "spaces": "  kept  "}',
      'state-only',
    ]);
    expect(seen.responses).toEqual([
      undefined,
      { ok: { action: 'accept', content: { ok: true } } },
      undefined,
    ]);
  });

  test('concurrent calls keep their rounds apart', async () => {
    const c = await connect('modern', { elicitationHandler: travel });
    const [trip, echo] = await Promise.all([c.callTool('book_trip'), c.callTool('echo_state')]);
    expect(textOf(trip)).toBe('Booked Lisbon on 2026-09-01');
    expect(textOf(echo)).toBe('done after state-only');
    // echo_state never saw an answer or a state that belonged to book_trip.
    expect(seen.states).toEqual([
      undefined,
      '{"opaque": "state", "spaces": "  kept  "}',
      'state-only',
    ]);
    expect(JSON.stringify(seen.responses)).not.toMatch(/destination|date/);
  });
});

describe('handshake era specifics', () => {
  test('elicitInput pushes reach the same handler', async () => {
    const c = await connect('handshake', { elicitationHandler: travel });
    expect(textOf(await c.callTool('push_elicit'))).toBe('Hello Grace');
  });

  test('concurrent calls: a pushed request counts as a round of every call in flight', async () => {
    const rounds: RoundEvent[] = [];
    const c = await connect('handshake', {
      elicitationHandler: travel,
      onRound: (e) => rounds.push(e),
    });
    const [trip, greeting] = await Promise.all([
      c.callTool('book_trip'),
      c.callTool('push_elicit'),
    ]);
    expect(textOf(trip)).toBe('Booked Lisbon on 2026-09-01');
    expect(textOf(greeting)).toBe('Hello Grace');
    // Three requests were pushed in all; each call saw every request pushed while it ran.
    const perCall = (name: string) => rounds.filter((r) => r.call.name === name).length;
    expect(perCall('book_trip')).toBeGreaterThanOrEqual(2);
    expect(perCall('book_trip') + perCall('push_elicit')).toBeGreaterThanOrEqual(3);
  });
});
