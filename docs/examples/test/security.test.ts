import { describe, expect, test } from 'vitest';

import {
  Client,
  type ElicitationHandler,
  type InProcessServer,
} from '@parley/client';
import { generateKey } from '@parley/state-sealing';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as hardened from '../security/hardened.ts';
import { recording } from '../security/replay.ts';
import { tampering } from '../security/tamper.ts';
import { quoted } from './support.ts';

const bookingAnswers: ElicitationHandler = (message, responseType) =>
  message.includes('Where')
    ? responseType({ destination: 'Paris' })
    : responseType({ date: '2026-08-01' });

async function book(server: InProcessServer) {
  await using client = new Client(server, {
    mode: 'modern',
    elicitationHandler: bookingAnswers,
  });
  await client.connect();
  return await client.callTool<string>('book_flight');
}

test('a tampered state is refused before the handler runs', async () => {
  const log: string[] = [];
  const server = bookFlight.createServer({
    onError: (error) => log.push(String(error)),
  });
  const failure = await book(tampering(server)).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(Error);
  expect(`${(failure as Error).name}: ${(failure as Error).message}`).toBe(
    quoted('security/tamper.client.out.txt'),
  );
  expect(log).toEqual([quoted('security/tamper.server.out.txt')]);
});

describe('single use', () => {
  test('with a replay store, a replayed round is refused', async () => {
    const log: string[] = [];
    const server = recording(
      hardened.createServer([generateKey()], (line) => log.push(line)),
    );
    expect((await book(server)).data).toBe(
      'Booked a flight to Paris on 2026-08-01',
    );
    expect(await server.replay()).toMatchObject({
      error: { code: -32602, message: 'Invalid or expired requestState' },
    });
    expect(log).toEqual([quoted('security/replay.out.txt')]);
  });

  test('without one, the same round can be presented again until the state expires', async () => {
    const server = recording(bookFlight.createServer());
    expect((await book(server)).data).toBe(
      'Booked a flight to Paris on 2026-08-01',
    );
    expect(await server.replay()).toMatchObject({
      result: {
        structuredContent: 'Booked a flight to Paris on 2026-08-01',
      },
    });
  });
});
