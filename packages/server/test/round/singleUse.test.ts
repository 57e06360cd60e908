import { describe, expect, test } from 'vitest';

import { ParleyError } from '@parley/core';

import { createMemorySingleUseStore, type SingleUseStore } from '../../src/index.ts';
import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawModernCall } from '../helpers/rawModern.ts';

/**
 * Single use that survives real networks: a token is spent by the round that completes with it;
 * a retry within the window gets the same outcome; a failed round does not spend it; a replay
 * later is refused.
 */

const KEY = 'k'.repeat(32);
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

function singleUseServer(store: SingleUseStore | true = true, extra = {}) {
  return createRoundServer({
    requestStateSecurity: { keys: [KEY], singleUse: store },
    ...extra,
  });
}

async function askedState(server: ReturnType<typeof createRoundServer>['server'], name: string) {
  return (await rawModernCall(server, { name })).body.result?.requestState as string;
}

describe('single use of requestState', () => {
  test('a corrected retry after a failed round uses the same token', async () => {
    const { server, seen } = singleUseServer(true, { maxReasks: 0 });
    const state = await askedState(server, 'pick');
    const typo = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 12 }) },
      requestState: state,
    });
    expect(typo.body.error?.data).toMatchObject({ reason: 'invalid_answer', key: 'number' });
    const corrected = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 2 }) },
      requestState: state,
    });
    expect(corrected.body.result).toMatchObject({ content: [{ text: 'Picked 2' }] });
    expect(seen).toEqual({});
  });

  test('a retry after a lost response gets the same outcome, and nothing runs twice', async () => {
    const { server, seen } = singleUseServer();
    const state = await askedState(server, 'buy');
    const answered = {
      name: 'buy',
      inputResponses: { qty: accept({ qty: 2 }) },
      requestState: state,
    };
    const lost = await rawModernCall(server, answered);
    const retried = await rawModernCall(server, answered);
    expect(retried.body.result).toEqual(lost.body.result);
    expect(retried.body.result?.resultType).toBe('input_required');
    expect(seen.buy).toEqual([null, ['qty']]);
    // The flow goes on from the outcome it had.
    const done = await rawModernCall(server, {
      name: 'buy',
      inputResponses: { ok: accept({ ok: true }) },
      requestState: retried.body.result?.requestState,
    });
    expect(done.body.result).toMatchObject({ content: [{ text: 'Paid for 2' }] });
  });

  test('the same retry carrying other answers still gets the first outcome', async () => {
    const { server } = singleUseServer();
    const state = await askedState(server, 'pick');
    const first = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 3 }) },
      requestState: state,
    });
    const other = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 9 }) },
      requestState: state,
    });
    expect(first.body.result).toMatchObject({ content: [{ text: 'Picked 3' }] });
    expect(other.body.result).toEqual(first.body.result);
  });

  test('after the window, a replay of a finished flow is refused', async () => {
    let now = 1_000_000;
    const { server, errors } = singleUseServer(createMemorySingleUseStore({ now: () => now }));
    const state = await askedState(server, 'pick');
    const call = {
      name: 'pick',
      inputResponses: { number: accept({ value: 3 }) },
      requestState: state,
    };
    expect((await rawModernCall(server, call)).body.result).toMatchObject({
      content: [{ text: 'Picked 3' }],
    });
    now += 61_000;
    const replay = await rawModernCall(server, call);
    expect(replay.body.error).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    expect(String(errors.at(-1))).toContain('replayed');
  });

  test('two uses of one token at once run the round once; both get its outcome', async () => {
    const { server, seen } = singleUseServer();
    const state = await askedState(server, 'buy');
    const call = { name: 'buy', inputResponses: { qty: accept({ qty: 4 }) }, requestState: state };
    const [a, b] = await Promise.all([rawModernCall(server, call), rawModernCall(server, call)]);
    expect(a.body.result).toEqual(b.body.result);
    expect(seen.buy).toEqual([null, ['qty']]);
  });

  test('without single use, the same round can be presented again', async () => {
    const { server, seen } = createRoundServer();
    const state = await askedState(server, 'buy');
    const call = { name: 'buy', inputResponses: { qty: accept({ qty: 2 }) }, requestState: state };
    await rawModernCall(server, call);
    await rawModernCall(server, call);
    expect(seen.buy).toEqual([null, ['qty'], ['qty']]);
  });
});

describe('the memory single-use store', () => {
  const options = { leaseMs: 1_000, expiresAt: 10_000 };

  test('started → running → finished → spent', async () => {
    let now = 0;
    const store = createMemorySingleUseStore({ now: () => now });
    expect(await store.begin('t', options)).toEqual({ status: 'started' });
    expect(await store.begin('t', options)).toEqual({ status: 'running' });
    await store.finish('t', '{"ok":1}', { replayWindowMs: 500, expiresAt: 10_000 });
    expect(await store.begin('t', options)).toEqual({ status: 'finished', outcome: '{"ok":1}' });
    now = 600;
    expect(await store.begin('t', options)).toEqual({ status: 'spent' });
    now = 10_001;
    expect(await store.begin('t', options)).toEqual({ status: 'started' });
  });

  test('a released round may start again; a dead one, once its lease is over', async () => {
    let now = 0;
    const store = createMemorySingleUseStore({ now: () => now });
    await store.begin('a', options);
    await store.release('a');
    expect(await store.begin('a', options)).toEqual({ status: 'started' });
    now = 1_001;
    expect(await store.begin('a', options)).toEqual({ status: 'started' });
  });

  test('when full of live ids it refuses rather than forget one', async () => {
    const store = createMemorySingleUseStore({ maxEntries: 2, now: () => 0 });
    await store.begin('a', options);
    await store.begin('b', options);
    await expect(store.begin('c', options)).rejects.toThrow(/full \(2 live token ids\)/);
  });

  test('a store that fails fails the round closed, and the token is not accepted', async () => {
    const broken: SingleUseStore = {
      begin: async () => {
        throw new Error('redis is down');
      },
      finish: async () => {},
      release: async () => {},
    };
    const { server, seen } = singleUseServer(broken);
    const state = await askedState(server, 'pick');
    const response = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 3 }) },
      requestState: state,
    });
    expect(response.body.error?.code).toBe(-32603);
    expect(seen).toEqual({});
  });

  test('a store that reports itself unavailable is -32603 for a tool too, its message kept for onError', async () => {
    const down: SingleUseStore = {
      begin: async () => {
        throw new ParleyError('store_unavailable', 'Redis at 10.0.0.5:6379 did not answer');
      },
      finish: async () => {},
      release: async () => {},
    };
    const { server, seen, errors } = singleUseServer(down);
    const state = await askedState(server, 'pick');
    const response = await rawModernCall(server, {
      name: 'pick',
      inputResponses: { number: accept({ value: 3 }) },
      requestState: state,
    });
    expect(response.body.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(String(errors.at(-1))).toContain('10.0.0.5:6379');
    expect(seen).toEqual({});
  });
});
