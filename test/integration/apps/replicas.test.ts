import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { nodeArgs } from '../../../scripts/apps.mjs';
import { accept, bookingRound } from '../bookingRound.ts';

/**
 * The booking app as two replicas (two processes, two ports) sharing one key ring: each round
 * of one `book_flight` flow goes to a different replica and the flow completes. A replica with
 * another key rejects the state with a clear error.
 */

const SHARED_KEYS = 'replica-test-key-0000000000000000,older-replica-key-11111111111111111';
const OTHER_KEY = 'a-completely-different-key-22222222222';
const storeDir = mkdtempSync(join(tmpdir(), 'parley-replicas-'));
const children: ChildProcess[] = [];

async function startReplica(keys: string): Promise<string> {
  const child = spawn(process.execPath, nodeArgs('apps/booking/src/main.ts'), {
    env: {
      ...process.env,
      BOOKING_PORT: '0',
      REQUEST_STATE_KEY: keys,
      BOOKING_STORE: join(storeDir, 'bookings.json'),
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
let stranger: string;

beforeAll(async () => {
  [replicaA, replicaB, stranger] = await Promise.all([
    startReplica(SHARED_KEYS),
    startReplica(SHARED_KEYS),
    startReplica(OTHER_KEY),
  ]);
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(storeDir, { recursive: true, force: true });
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
});
