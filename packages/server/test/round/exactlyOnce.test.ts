import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, test } from 'vitest';
import { z } from 'zod';

import {
  ParleyServer,
  createMemorySingleUseStore,
  elicitRequest,
  type SingleUseStore,
} from '../../src/index.ts';
import { rawModernCall } from '../helpers/rawModern.ts';

/**
 * Single use means the effects of a sealed state happen at most once, and a retry after a lost
 * response gets the same outcome, even when the single-use store fails: the claim is never
 * released once the handler ran; an outcome the store could not take is kept in the process and
 * written again until it does; and a store that cannot be reached before the handler refuses the
 * round before anything runs. Two servers sharing one store and key ring stand for two replicas.
 */

const KEY = 'replica-key-'.repeat(4);

/** A store whose parts fail while `down` says so (a Redis that was killed, say). */
function flakyStore(): { store: SingleUseStore; down: Set<'begin' | 'finish'> } {
  const inner = createMemorySingleUseStore();
  const down = new Set<'begin' | 'finish'>();
  const outage = () => new Error('connect ECONNREFUSED 127.0.0.1:6379');
  return {
    down,
    store: {
      begin: (...args) => (down.has('begin') ? Promise.reject(outage()) : inner.begin(...args)),
      finish: (...args) => (down.has('finish') ? Promise.reject(outage()) : inner.finish(...args)),
      release: (...args) => inner.release(...args),
    },
  };
}

const askSeat = elicitRequest('Which seat?', z.object({ seat: z.string() }));

/** A replica whose `book` tool books once per answered flow (`booked`), or throws after booking. */
function replica(store: SingleUseStore, booked: string[]): ParleyServer {
  const mcp = new ParleyServer({
    name: 'seats',
    requestStateSecurity: { keys: [KEY], singleUse: store, roundLeaseMs: 2_000 },
    onError: () => {},
    onWarning: () => {},
  });
  mcp.tool('book', async (_args, ctx) => {
    const seat = await ctx.ask('seat', askSeat);
    if (seat.action !== 'accept') return 'No seat.';
    booked.push(seat.data.seat);
    if (seat.data.seat === 'boom') throw new Error('the payment provider timed out');
    return `Booked ${seat.data.seat}`;
  });
  return mcp;
}

async function stateOf(server: ParleyServer): Promise<string> {
  const first = await rawModernCall(server, { name: 'book' });
  return first.body.result?.requestState as string;
}

const answer = (requestState: string, seat: string) => ({
  name: 'book',
  inputResponses: { seat: { action: 'accept', content: { seat } } },
  requestState,
});

describe('exactly once under single use', () => {
  test('the store fails to record the outcome: the result still goes out, and a retry gets it again without a second booking', async () => {
    const { store, down } = flakyStore();
    const booked: string[] = [];
    const server = replica(store, booked);
    const state = await stateOf(server);
    down.add('finish');
    const first = await rawModernCall(server, answer(state, '12A'));
    expect(first.body.result).toMatchObject({ content: [{ text: 'Booked 12A' }] });
    // Here, while the store is still down: answered from what this process kept.
    const retried = await rawModernCall(server, answer(state, '12A'));
    expect(retried.body.result).toEqual(first.body.result);
    expect(booked).toEqual(['12A']);
  });

  test('a retry on another replica: refused before anything runs while the store is down, the first outcome once it is back', async () => {
    const { store, down } = flakyStore();
    const booked: string[] = [];
    const one = replica(store, booked);
    const two = replica(store, booked);
    const state = await stateOf(one);
    down.add('finish');
    const first = await rawModernCall(one, answer(state, '3C'));
    expect(first.body.result).toMatchObject({ content: [{ text: 'Booked 3C' }] });

    down.add('begin');
    const refused = await rawModernCall(two, answer(state, '3C'));
    expect(refused.body.error?.code).toBe(-32603);
    expect(booked).toEqual(['3C']);

    down.clear();
    // The first replica writes its kept outcome again (with backoff) until the store takes it.
    await expect
      .poll(async () => (await rawModernCall(two, answer(state, '3C'))).body.result, {
        timeout: 5_000,
        interval: 100,
      })
      .toEqual(first.body.result);
    expect(booked).toEqual(['3C']);
  });

  test('a handler that fails after its effect: the failure is the outcome, and a retry does not run it again', async () => {
    const { store } = flakyStore();
    const booked: string[] = [];
    const server = replica(store, booked);
    const state = await stateOf(server);
    const failed = await rawModernCall(server, answer(state, 'boom'));
    const retried = await rawModernCall(server, answer(state, 'boom'));
    expect(retried.body).toEqual({ ...failed.body, id: retried.body.id });
    expect(booked).toEqual(['boom']);
  });

  test('a store that cannot be reached before the handler: refused, nothing runs, and the same token works once it is back', async () => {
    const { store, down } = flakyStore();
    const booked: string[] = [];
    const server = replica(store, booked);
    const state = await stateOf(server);
    down.add('begin');
    const refused = await rawModernCall(server, answer(state, '7F'));
    expect(refused.body.error?.code).toBe(-32603);
    expect(booked).toEqual([]);
    down.clear();
    const booking = await rawModernCall(server, answer(state, '7F'));
    expect(booking.body.result).toMatchObject({ content: [{ text: 'Booked 7F' }] });
    expect(booked).toEqual(['7F']);
  });

  test('an answer that does not fit is not spent: the corrected retry with the same token books', async () => {
    const { store } = flakyStore();
    const booked: string[] = [];
    const mcp = new ParleyServer({
      name: 'seats',
      maxReasks: 0,
      requestStateSecurity: { keys: [KEY], singleUse: store },
      onError: () => {},
    });
    mcp.tool('book', async (_args, ctx) => {
      const seat = await ctx.ask('seat', askSeat);
      if (seat.action !== 'accept') return 'No seat.';
      booked.push(seat.data.seat);
      return `Booked ${seat.data.seat}`;
    });
    const state = await stateOf(mcp);
    const typo = await rawModernCall(mcp, {
      name: 'book',
      inputResponses: { seat: { action: 'accept', content: { seat: 12 } } },
      requestState: state,
    });
    expect(typo.body.error).toBeDefined();
    const corrected = await rawModernCall(mcp, answer(state, '12'));
    expect(corrected.body.result).toMatchObject({ content: [{ text: 'Booked 12' }] });
    expect(booked).toEqual(['12']);
    await sleep(0);
  });
});
