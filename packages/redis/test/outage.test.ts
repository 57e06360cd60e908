import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { RedisStoreError, createRedisSingleUseStore } from '../src/index.ts';
import { startRedis, type RedisProcess } from './helpers/redisServer.ts';
import { callBook, createReplica, outcomeOf, type Replica } from './helpers/replica.ts';

const binary = inject('redisServer');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Redis goes away in the middle of a run of flows on two replicas (stopped, or killed as in a
 * crash: with `appendfsync always`, what it acknowledged survives either way), and comes back:
 * while it is gone every round that needs it fails with a clear error and books nothing;
 * afterwards no token has booked twice, and every token spent before the outage is still
 * refused.
 */
describe.skipIf(binary === null).each(['SIGTERM', 'SIGKILL'] as const)(
  'Redis stopped mid-run (%s)',
  (signal) => {
    let redis: RedisProcess;
    let replicas: Replica[];

    beforeAll(async () => {
      redis = await startRedis(binary!);
      const security = { replayWindowMs: 300 };
      replicas = [
        createReplica('A', createRedisSingleUseStore(await redis.client()), security),
        createReplica('B', createRedisSingleUseStore(await redis.client()), security),
      ];
    });
    afterAll(() => redis?.dispose());

    const allBooked = () => replicas.flatMap((replica) => replica.booked);
    const allErrors = () => replicas.flatMap((replica) => replica.errors);

    test('clear errors while it is down; no token accepted twice, before, during or after', async () => {
      const states = new Map<string, string>();
      const outcomes: { ref: string; phase: string; outcome: string }[] = [];
      /** One flow: ask on one replica, answer on the other, then replay the answer on both. */
      async function flow(ref: string, phase: string, i: number): Promise<void> {
        const first = replicas[i % 2]!;
        const second = replicas[(i + 1) % 2]!;
        const asked = await callBook(first, { ref });
        const state = asked.result?.requestState;
        if (state === undefined) throw new Error(`no state for ${ref}: ${outcomeOf(asked)}`);
        states.set(ref, state);
        for (const replica of [second, first, second]) {
          const reply = await callBook(replica, { ref, seats: 1, requestState: state });
          outcomes.push({ ref, phase, outcome: outcomeOf(reply) });
        }
      }

      // Before: 10 flows, all booked.
      for (let i = 0; i < 10; i++) await flow(`before-${i}`, 'before', i);
      expect(allBooked()).toHaveLength(10);

      // During: 10 more flows run while Redis is stopped under them.
      const during = (async () => {
        for (let i = 0; i < 10; i++) {
          await flow(`during-${i}`, 'during', i);
          await sleep(20);
        }
      })();
      await sleep(60);
      await redis.stop(signal);
      await during;
      const failed = outcomes.filter((o) => o.phase === 'during' && o.outcome.startsWith('error'));
      expect(failed.length).toBeGreaterThan(0);
      // The client learns only that the round failed…
      expect(new Set(failed.map((o) => o.outcome))).toEqual(
        new Set(['error -32603: Internal error']),
      );
      // …and the operator why, in onError.
      const storeErrors = allErrors().filter((error) => error instanceof RedisStoreError);
      expect(storeErrors.length).toBeGreaterThanOrEqual(failed.length);
      expect(String(storeErrors[0])).toMatch(
        /RedisStoreError: createRedisSingleUseStore: (Redis is not connected|.*failed)/,
      );

      // After: Redis is back with what it had (its append-only file); clients reconnect.
      await redis.start();
      await waitFor(
        async () =>
          !outcomeOf(
            await callBook(replicas[0]!, {
              ref: 'before-0',
              seats: 1,
              requestState: states.get('before-0')!,
            }),
          ).includes('Internal'),
      );
      await sleep(350); // past the replay window of every earlier round

      // Every state, whatever happened to it, presented again to both replicas.
      for (const [ref, state] of states) {
        for (const replica of replicas) {
          const reply = await callBook(replica, { ref, seats: 1, requestState: state });
          outcomes.push({ ref, phase: 'after', outcome: outcomeOf(reply) });
        }
      }
      // Tokens that never completed during the outage complete now, once; then they are spent.
      for (const [ref, state] of states) {
        for (const replica of replicas)
          await callBook(replica, { ref, seats: 1, requestState: state });
      }

      const counts = new Map<string, number>();
      for (const ref of allBooked()) counts.set(ref, (counts.get(ref) ?? 0) + 1);
      // No token booked twice, ever…
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      // …and every flow did book, exactly once, in the end.
      expect([...counts.keys()].sort()).toEqual([...states.keys()].sort());
      // Spent before the outage: refused after it.
      const before = outcomes.filter((o) => o.phase === 'after' && o.ref.startsWith('before-'));
      expect(before).toHaveLength(20);
      expect(new Set(before.map((o) => o.outcome))).toEqual(
        new Set(['error -32602: Invalid or expired requestState']),
      );
      console.log(
        `Redis outage (${signal}): ${outcomes.filter((o) => o.phase === 'during').length} answers sent while it went down, ${failed.length} failed with -32603, ${storeErrors.length} RedisStoreErrors reported; ${states.size} tokens, each booked once (${allBooked().length} bookings); ${before.length} replays of pre-outage tokens refused after the restart`,
      );
      // About 200 rounds and a Redis restart: 5 s on a quiet machine, past 30 s on a CI machine
      // whose two cores run the rest of the suite beside it.
    }, 120_000);
  },
);

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error('Redis clients did not reconnect');
}
