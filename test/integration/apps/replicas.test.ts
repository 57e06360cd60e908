import { spawn, type ChildProcess } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { nodeArgs } from '../../../scripts/apps.mjs';
import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import { accept, bookFlight, bookingRound, replyText, toolRound } from '../bookingRound.ts';
import { redisServerFor } from './redisServer.ts';

/**
 * The booking app as three replicas (three processes, three ports) sharing one key ring and one
 * Redis: each round of one `book_flight` flow goes to a different replica and the flow
 * completes; many flows at once across the replicas each get their own booking, and every
 * replica lists them all. A replica with another key rejects the state with a clear error.
 * Without a redis-server the replicas keep bookings in memory and only the key-ring tests run.
 */

const SHARED_KEYS = 'replica-test-key-0000000000000000,older-replica-key-11111111111111111';
const OTHER_KEY = 'a-completely-different-key-22222222222';
const binary = redisServerFor('booking across replicas sharing Redis');
let redis: RedisServer | undefined;
const children: ChildProcess[] = [];

async function startReplica(keys: string, redisUrl = ''): Promise<string> {
  const child = spawn(process.execPath, nodeArgs('apps/booking/src/main.ts'), {
    env: {
      ...process.env,
      BOOKING_PORT: '0',
      REQUEST_STATE_KEY: keys,
      REDIS_URL: redisUrl,
      BOOKING_STORE: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /serving (http:\/\/\S+)/.exec(seen)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`replica exited (${code}): ${seen}`)));
  });
}

let replicaA: string;
let replicaB: string;
let replicaC: string;
let stranger: string;

beforeAll(async () => {
  if (binary !== undefined) redis = await startRedisServer(binary);
  [replicaA, replicaB, replicaC, stranger] = await Promise.all([
    startReplica(SHARED_KEYS, redis?.url),
    startReplica(SHARED_KEYS, redis?.url),
    startReplica(SHARED_KEYS, redis?.url),
    startReplica(OTHER_KEY),
  ]);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await redis?.dispose();
});

describe('booking across replicas', () => {
  test('each round on a different replica, one flow, completed', async () => {
    const r1 = await bookingRound(replicaA, {});
    expect(r1.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { destination: {} },
    });
    const r2 = await bookingRound(replicaB, {
      inputResponses: { destination: accept({ destination: 'Reykjavik' }) },
    });
    expect(r2.result).toMatchObject({ resultType: 'input_required', inputRequests: { date: {} } });
    const r3 = await bookingRound(replicaA, {
      inputResponses: { date: accept({ date: '2026-12-24' }) },
      requestState: r2.result?.requestState,
    });
    expect(r3.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { passenger: {} },
    });
    const r4 = await bookingRound(replicaB, {
      inputResponses: { passenger: accept({ passenger: 'Grace Hopper', confirm: true }) },
      requestState: r3.result?.requestState,
    });
    expect(r4.result).toMatchObject({
      resultType: 'complete',
      content: [
        {
          type: 'text',
          text: expect.stringMatching(/^Booked BK-\d{4}: Grace Hopper to Reykjavik on 2026-12-24$/),
        },
      ],
    });
  });

  test('a replica with another key ring rejects the state clearly', async () => {
    const r2 = await bookingRound(replicaA, {
      inputResponses: { destination: accept({ destination: 'Nuuk' }) },
    });
    const elsewhere = await bookingRound(stranger, {
      inputResponses: { date: accept({ date: '2026-12-25' }) },
      requestState: r2.result?.requestState,
    });
    expect(elsewhere.error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
  });

  test.skipIf(binary === undefined)(
    '120 flows at once across three replicas: every "Booked" id is distinct and listed by each replica',
    async () => {
      const replicas = [replicaA, replicaB, replicaC];
      const replies = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          bookFlight(
            replicas,
            { destination: 'Reykjavik', date: '2026-12-24', passenger: `Passenger ${i}` },
            i,
          ),
        ),
      );
      const booked = replies.map((reply, i) => {
        const match = /^Booked (BK-\d{4,}): Passenger (\d+) to Reykjavik on 2026-12-24$/.exec(
          replyText(reply),
        );
        expect(match?.[2], replyText(reply)).toBe(String(i));
        return { id: match![1]!, line: `${match![1]}: Passenger ${i} to Reykjavik on 2026-12-24` };
      });
      expect(new Set(booked.map(({ id }) => id)).size).toBe(120);
      for (const replica of replicas) {
        const listed = replyText(await toolRound(replica, 'list_bookings')).split('\n');
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed).toEqual(expect.arrayContaining(booked.map(({ line }) => line)));
      }
    },
  );
});
