import { describe, expect, test } from 'vitest';

import { createMemoryReplayStore, type ReplayStore } from '../src/index.ts';
import { BOOK_TRIP, TRIP_STATE, expectRejected, manualClock, sealer } from './helpers.ts';

describe('single use, through the sealer', () => {
  test('a token opens once; the second use is replayed', async () => {
    const s = sealer({ replayStore: createMemoryReplayStore() });
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    expect(await s.open(token, BOOK_TRIP)).toBe(TRIP_STATE);
    await expectRejected(s.open(token, BOOK_TRIP), 'replayed');
    await expectRejected(s.open(token, BOOK_TRIP), 'replayed');
  });

  test('two concurrent uses: exactly one opens', async () => {
    const s = sealer({ replayStore: createMemoryReplayStore() });
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    const results = await Promise.allSettled([s.open(token, BOOK_TRIP), s.open(token, BOOK_TRIP)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  test('replicas sharing one store share single use', async () => {
    const store = createMemoryReplayStore();
    const [a, b] = [sealer({ replayStore: store }), sealer({ replayStore: store })];
    const token = await a.seal(TRIP_STATE, BOOK_TRIP);
    expect(await b.open(token, BOOK_TRIP)).toBe(TRIP_STATE);
    await expectRejected(a.open(token, BOOK_TRIP), 'replayed');
  });

  test('a failed open does not use the token up', async () => {
    const s = sealer({ replayStore: createMemoryReplayStore() });
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    await expectRejected(s.open(token, { ...BOOK_TRIP, target: 'other' }), 'wrong-binding');
    await expectRejected(
      sealer({ audience: 'x', replayStore: createMemoryReplayStore() }).open(token, BOOK_TRIP),
      'wrong-audience',
    );
    expect(await s.open(token, BOOK_TRIP)).toBe(TRIP_STATE);
  });

  test('the store is asked with the token id and the moment the token stops opening', async () => {
    const clock = manualClock();
    const claims: [string, number][] = [];
    const spy: ReplayStore = {
      claim(tokenId, expiresAt) {
        claims.push([tokenId, expiresAt]);
        return Promise.resolve(true);
      },
    };
    const s = sealer({ replayStore: spy, now: clock.now });
    const token = await s.seal('st', BOOK_TRIP);
    await s.open(token, BOOK_TRIP);
    // The id is the token's clear kid ‖ nonce (16 bytes, authenticated as additional data).
    const header = Buffer.from(token.slice(4), 'base64url').subarray(0, 16).toString('base64url');
    expect(claims).toEqual([[header, clock.now() + (600 + 30) * 1000]]);
  });

  test('a store that fails makes open fail with the store’s error (fail closed)', async () => {
    const down: ReplayStore = {
      claim: () => Promise.reject(new Error('redis: connection refused')),
    };
    const s = sealer({ replayStore: down });
    await expect(s.open(await s.seal('st', BOOK_TRIP), BOOK_TRIP)).rejects.toThrow(
      'redis: connection refused',
    );
  });

  test('without a store, tokens can be opened again within their lifetime', async () => {
    const s = sealer();
    const token = await s.seal('st', BOOK_TRIP);
    expect(await s.open(token, BOOK_TRIP)).toBe('st');
    expect(await s.open(token, BOOK_TRIP)).toBe('st');
  });
});

describe('createMemoryReplayStore', () => {
  test('claims an id once until it expires, then forgets it', async () => {
    const clock = manualClock();
    const store = createMemoryReplayStore({ now: clock.now });
    expect(await store.claim('t1', clock.now() + 1000)).toBe(true);
    expect(await store.claim('t1', clock.now() + 1000)).toBe(false);
    expect(await store.claim('t2', clock.now() + 1000)).toBe(true);
    clock.advance(1000);
    expect(await store.claim('t1', clock.now() + 1000)).toBe(true);
  });

  test('when full of live ids it refuses (rejects) rather than forgetting one', async () => {
    const clock = manualClock();
    const store = createMemoryReplayStore({ maxEntries: 3, now: clock.now });
    for (const id of ['a', 'b', 'c'])
      expect(await store.claim(id, clock.now() + 10_000)).toBe(true);
    await expect(store.claim('d', clock.now() + 10_000)).rejects.toThrow(
      /^createMemoryReplayStore: full \(3/,
    );
    expect(await store.claim('a', clock.now() + 10_000)).toBe(false);
  });

  test('expired ids make room, wherever they sit', async () => {
    const clock = manualClock();
    const store = createMemoryReplayStore({ maxEntries: 3, now: clock.now });
    await store.claim('long', clock.now() + 60_000);
    await store.claim('short-1', clock.now() + 1000);
    await store.claim('short-2', clock.now() + 1000);
    clock.advance(1000);
    expect(await store.claim('d', clock.now() + 1000)).toBe(true);
    expect(await store.claim('e', clock.now() + 1000)).toBe(true);
    expect(await store.claim('long', clock.now() + 60_000)).toBe(false);
  });

  test('bad options and bad claims are refused', async () => {
    expect(() => createMemoryReplayStore({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => createMemoryReplayStore({ maxEntries: 1.5 })).toThrow(
      /^createMemoryReplayStore: maxEntries/,
    );
    expect(() => createMemoryReplayStore({ now: 'soon' as never })).toThrow(TypeError);
    await expect(createMemoryReplayStore().claim(1 as never, 5)).rejects.toThrow(TypeError);
  });
});
