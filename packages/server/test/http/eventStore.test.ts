import { describe, expect, test } from 'vitest';

import { createMemoryEventStore, type EventStore } from '../../src/index.ts';

/** Every event of a replay, as `[id, message]`. */
async function replay(store: EventStore, after: string) {
  const sent: [string, unknown][] = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (id, message) => void sent.push([id, message]),
  });
  return { streamId, sent };
}

const message = (n: number) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/message',
  params: { n },
});

describe('createMemoryEventStore', () => {
  test('replays the events of one stream after the given one, in order, without the priming event', async () => {
    const store = createMemoryEventStore();
    const priming = await store.storeEvent('a', {} as never);
    const first = await store.storeEvent('a', message(1));
    await store.storeEvent('b', message(99));
    const second = await store.storeEvent('a', message(2));
    expect(await replay(store, priming)).toEqual({
      streamId: 'a',
      sent: [
        [first, message(1)],
        [second, message(2)],
      ],
    });
    expect(await replay(store, first)).toEqual({ streamId: 'a', sent: [[second, message(2)]] });
    expect(await replay(store, second)).toEqual({ streamId: 'a', sent: [] });
  });

  test('ids are unique across streams and across stores', async () => {
    const one = createMemoryEventStore();
    const two = createMemoryEventStore();
    const ids = new Set<string>();
    for (let n = 0; n < 50; n++) {
      ids.add(await one.storeEvent(`s${n % 3}`, message(n)));
      ids.add(await two.storeEvent(`s${n % 3}`, message(n)));
    }
    expect(ids.size).toBe(100);
    // An id another store issued is unknown here.
    const foreign = await two.storeEvent('a', message(0));
    expect(await one.getStreamIdForEventId(foreign)).toBeUndefined();
  });

  test('answers any string it is asked about, and refuses to replay an unknown id', async () => {
    const store = createMemoryEventStore();
    for (const id of ['', 'nope', '0', '-1', '\u0000', 'x'.repeat(10_000), '__proto__']) {
      expect(await store.getStreamIdForEventId(id)).toBeUndefined();
    }
    await expect(replay(store, 'nope')).rejects.toThrow(/unknown event id/);
  });

  test('keeps at most maxEvents, forgetting the oldest', async () => {
    const store = createMemoryEventStore({ maxEvents: 3 });
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push(await store.storeEvent('a', message(n)));
    expect(await store.getStreamIdForEventId(ids[1] as string)).toBeUndefined();
    expect(await store.getStreamIdForEventId(ids[2] as string)).toBe('a');
    expect((await replay(store, ids[2] as string)).sent.map(([, m]) => m)).toEqual([
      message(3),
      message(4),
    ]);
  });

  test('forgets events older than ttlMs', async () => {
    let time = 1_000;
    const store = createMemoryEventStore({ ttlMs: 100, now: () => time });
    const old = await store.storeEvent('a', message(1));
    time += 50;
    const newer = await store.storeEvent('a', message(2));
    time += 60;
    expect(await store.getStreamIdForEventId(old)).toBeUndefined();
    expect(await store.getStreamIdForEventId(newer)).toBe('a');
  });

  test('refuses options that are not positive integers', () => {
    expect(() => createMemoryEventStore({ maxEvents: 0 })).toThrow(
      'createMemoryEventStore: maxEvents must be a positive integer (got 0)',
    );
    expect(() => createMemoryEventStore({ ttlMs: 1.5 })).toThrow(
      /ttlMs must be a positive integer/,
    );
  });
});
