import { describe, expect, test } from 'vitest';

import { createSeedServer, handlerRuns } from './fixtures/seedServer.ts';
import { rawModernCall } from './helpers/rawModern.ts';

/**
 * `requestState` on the wire: sealed so the client cannot read it, bound to this server, tool
 * and arguments, expiring, and rejected with -32602 before the handler runs when it is anything
 * but what the server minted for this very request.
 */

const KEY = 'k'.repeat(32);
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

async function secondRound(server = createSeedServer({ requestStateSecurity: { keys: [KEY] } })) {
  const first = await rawModernCall(server, { name: 'book_flight' });
  const second = await rawModernCall(server, {
    name: 'book_flight',
    inputResponses: { destination: accept({ destination: 'Lisbon' }) },
    requestState: first.body.result?.requestState,
  });
  return { server, first, second, state: second.body.result?.requestState as string };
}

function expectInvalidState(response: Awaited<ReturnType<typeof rawModernCall>>) {
  expect(response.body.error).toEqual({
    code: -32602,
    message: 'Invalid or expired requestState',
    data: { reason: 'invalid_request_state' },
  });
}

describe('requestState sealing on the wire', () => {
  test('round one asks with resultType input_required; round two carries an opaque state', async () => {
    const { first, second, state } = await secondRound();
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { destination: {} },
    });
    expect(second.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { date: {} },
    });
    expect(typeof state).toBe('string');
    // The client cannot read what the server carried: the destination is nowhere in the token.
    expect(state).not.toContain('Lisbon');
    expect(Buffer.from(state, 'base64url').toString('latin1')).not.toContain('Lisbon');
  });

  test('the sealed state completes the flow', async () => {
    const { server, state } = await secondRound();
    const third = await rawModernCall(server, {
      name: 'book_flight',
      inputResponses: { date: accept({ date: '2026-09-01' }) },
      requestState: state,
    });
    expect(third.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Booked a flight to Lisbon on 2026-09-01' }],
    });
  });

  test('a tampered state is rejected with -32602 before the handler runs', async () => {
    const { server, state } = await secondRound();
    const flipped = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    for (const tampered of [flipped, `${state}-TAMPERED`, state.slice(0, -4), 'garbage', '']) {
      const runs = handlerRuns.book_flight;
      const response = await rawModernCall(server, {
        name: 'book_flight',
        inputResponses: { date: accept({ date: '2026-09-01' }) },
        requestState: tampered,
      });
      expectInvalidState(response);
      expect(handlerRuns.book_flight).toBe(runs);
    }
  });

  test('the rejection reason reaches the server log, never the client', async () => {
    const reasons: string[] = [];
    const server = createSeedServer({
      requestStateSecurity: { keys: [KEY] },
      onError: (error) =>
        reasons.push(String((error as { data?: { reason?: string } }).data?.reason)),
    });
    const { state } = await secondRound(server);
    await rawModernCall(server, { name: 'book_flight', requestState: `${state}x` });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).not.toBe('undefined');
  });

  test('a state replayed on another tool does not open', async () => {
    const { server, state } = await secondRound();
    const runs = handlerRuns.book_flight;
    expectInvalidState(await rawModernCall(server, { name: 'confirm', requestState: state }));
    expect(handlerRuns.book_flight).toBe(runs);
  });

  test('a state replayed with other arguments does not open', async () => {
    const { server, state } = await secondRound();
    expectInvalidState(
      await rawModernCall(server, {
        name: 'book_flight',
        arguments: { seat: '1A' },
        requestState: state,
      }),
    );
  });

  test('a state minted by another server (same keys, other name) does not open', async () => {
    const { state } = await secondRound();
    const other = createSeedServer({
      name: 'Another Server',
      requestStateSecurity: { keys: [KEY] },
    });
    expectInvalidState(await rawModernCall(other, { name: 'book_flight', requestState: state }));
  });

  test('a state minted under another key ring does not open', async () => {
    const { state } = await secondRound();
    const other = createSeedServer({ requestStateSecurity: { keys: ['z'.repeat(32)] } });
    expectInvalidState(await rawModernCall(other, { name: 'book_flight', requestState: state }));
  });

  test('a second replica sharing the key ring opens it', async () => {
    const { state } = await secondRound();
    const replica = createSeedServer({ requestStateSecurity: { keys: [KEY] } });
    const third = await rawModernCall(replica, {
      name: 'book_flight',
      inputResponses: { date: accept({ date: '2026-10-10' }) },
      requestState: state,
    });
    expect(third.body.result).toMatchObject({
      content: [{ text: 'Booked a flight to Lisbon on 2026-10-10' }],
    });
  });

  test('an expired state does not open', async () => {
    let now = Date.parse('2026-11-29T12:00:00Z');
    const server = createSeedServer({
      requestStateSecurity: { keys: [KEY], ttlMs: 60_000, now: () => now },
    });
    const { state } = await secondRound(server);
    now += 10 * 60_000;
    expectInvalidState(
      await rawModernCall(server, {
        name: 'book_flight',
        inputResponses: { date: accept({ date: 'x' }) },
        requestState: state,
      }),
    );
  });

  test('a state that is not a string is rejected', async () => {
    const server = createSeedServer();
    const response = await rawModernCall(server, {
      name: 'book_flight',
      requestState: { forged: true },
    });
    expect(response.body.error?.code).toBe(-32602);
  });
});

describe('inputResponses on the wire', () => {
  test('a missing answer is asked again, not an error', async () => {
    const server = createSeedServer();
    const response = await rawModernCall(server, {
      name: 'book_flight',
      inputResponses: { wrong_key: accept({ destination: 'Oslo' }) },
    });
    expect(response.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { destination: {} },
    });
  });

  test('answers beside the asked ones are ignored', async () => {
    const server = createSeedServer();
    const asked = await rawModernCall(server, { name: 'confirm' });
    const response = await rawModernCall(server, {
      name: 'confirm',
      inputResponses: {
        ok: accept({ ok: true }),
        unknown_extra_key: accept({}),
        another: { roots: [] },
      },
      requestState: asked.body.result?.requestState,
    });
    expect(response.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'Proceeding with true' }],
    });
  });

  test.each([
    ['a number', 12345, 'expected an elicitation result ({ action, content? }), got a number'],
    [
      'a wrapped result',
      { method: 'elicitation/create', result: { action: 'accept' } },
      'no known result',
    ],
    ['a roots result', { roots: [] }, 'a roots result'],
    [
      'a sampling result',
      { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' },
      'a sampling result',
    ],
  ])(
    'an entry that is %s under an elicitation key is -32602 naming the key',
    async (_label, entry, why) => {
      const server = createSeedServer();
      const asked = await rawModernCall(server, { name: 'confirm' });
      const response = await rawModernCall(server, {
        name: 'confirm',
        inputResponses: { ok: entry },
        requestState: asked.body.result?.requestState,
      });
      expect(response.body.error?.code).toBe(-32602);
      expect(response.body.error?.message).toContain("'ok'");
      expect(response.body.error?.message).toContain(why);
      expect(response.body.error?.data).toMatchObject({
        reason: 'invalid_input_responses',
        key: 'ok',
      });
    },
  );

  test.each([
    [
      'an unknown action',
      { action: 'maybe' },
      'The answer must accept, decline or cancel, not a string',
    ],
    [
      'content that is not an object',
      { action: 'accept', content: 'yes' },
      'The answer did not come as a form',
    ],
    ['a value of the wrong type', accept({ ok: 'definitely' }), 'expected true or false'],
  ])('an answer with %s is asked again, saying why', async (_label, entry, why) => {
    const server = createSeedServer();
    const asked = await rawModernCall(server, { name: 'confirm' });
    const runs = handlerRuns.confirm;
    const response = await rawModernCall(server, {
      name: 'confirm',
      inputResponses: { ok: entry },
      requestState: asked.body.result?.requestState,
    });
    expect(response.body.result?.resultType).toBe('input_required');
    const again = (
      response.body.result?.inputRequests as Record<string, { params: { message: string } }>
    ).ok!;
    expect(again.params.message).toContain('Proceed?');
    expect(again.params.message).toContain(why);
    expect(handlerRuns.confirm).toBe(runs);
  });
});

describe('capabilities per request', () => {
  test('optional asks are filtered by the capabilities of this request', async () => {
    const server = createSeedServer();
    const response = await rawModernCall(server, {
      name: 'ask_what_you_can',
      capabilities: { sampling: {} },
    });
    expect(Object.keys(response.body.result?.inputRequests as object)).toEqual(['joke']);
  });

  test('when nothing is left to ask, the round is -32021 listing what is missing', async () => {
    const response = await rawModernCall(createSeedServer(), {
      name: 'ask_what_you_can',
      capabilities: {},
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} }, sampling: {} } },
    });
  });

  test('a required ask without the capability is -32021', async () => {
    const response = await rawModernCall(createSeedServer(), {
      name: 'needs_roots',
      capabilities: { elicitation: {} },
    });
    expect(response.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { roots: {} } },
    });
  });
});

describe('cache hints and rounds', () => {
  test('an ask carries no cache hints; the read that follows answers says it must not be cached', async () => {
    const server = createSeedServer();
    const ask = await rawModernCall(server, { method: 'resources/read', uri: 'report://summary' });
    expect(ask.body.result).toMatchObject({ resultType: 'input_required' });
    expect(ask.body.result).not.toHaveProperty('ttlMs');
    expect(ask.body.result).not.toHaveProperty('cacheScope');
    const final = await rawModernCall(server, {
      method: 'resources/read',
      uri: 'report://summary',
      inputResponses: { quarter: accept({ quarter: 'Q4' }) },
      requestState: ask.body.result?.requestState,
    });
    expect(final.body.result).toMatchObject({
      resultType: 'complete',
      contents: [{ text: 'Revenue report for Q4' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
  });
});
