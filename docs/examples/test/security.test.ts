import { describe, expect, test } from 'vitest';

import {
  Client,
  type ElicitationHandler,
  type InProcessServer,
} from '@parley/client';
import { createMemorySingleUseStore } from '@parley/server';
import { generateKey } from '@parley/state-sealing';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as hardened from '../security/hardened.ts';
import { recording } from '../security/replay.ts';
import { tampering } from '../security/tamper.ts';
import * as unsolicited from '../security/unsolicited.ts';
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
  test('a retry within the replay window gets the same outcome, without running anything again', async () => {
    let rounds = 0;
    const booking = hardened.createServer([generateKey()], () => {});
    booking.use((_context, callNext) => ((rounds += 1), callNext()));
    const server = recording(booking);
    expect((await book(server)).data).toBe(
      'Booked a flight to Paris on 2026-08-01',
    );
    expect(rounds).toBe(3);
    expect(await server.replay()).toMatchObject({
      result: {
        structuredContent: 'Booked a flight to Paris on 2026-08-01',
      },
    });
    expect(rounds).toBe(3);
  });

  test('after the window, a replayed round is refused', async () => {
    let now = Date.now();
    const log: string[] = [];
    const server = recording(
      hardened.createServer(
        [generateKey()],
        (line) => log.push(line),
        createMemorySingleUseStore({ now: () => now }),
      ),
    );
    await book(server);
    now += 61_000;
    expect(await server.replay()).toMatchObject({
      error: { code: -32602, message: 'Invalid or expired requestState' },
    });
    expect(log).toEqual([quoted('security/replay.out.txt')]);
  });

  test('without single use, the same round can be presented again until the state expires', async () => {
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

describe('answers to questions never asked', () => {
  test('an answer slipped in beside the asked one is dropped, and the user is asked for real', async () => {
    const warnings: string[] = [];
    const server = unsolicited.overEager(
      unsolicited.createServer({
        onWarning: (message) => warnings.push(message),
      }),
    );
    const asked: string[] = [];
    await using client = new Client(server, {
      mode: 'modern',
      elicitationHandler: (message, responseType) => {
        asked.push(message);
        return message.startsWith('How many')
          ? responseType({ qty: 2 })
          : responseType({ ok: true });
      },
    });
    await client.connect();
    expect((await client.callTool('buy_tickets')).content).toEqual([
      { type: 'text', text: 'Paid for 2 tickets' },
    ]);
    expect(asked).toEqual(['How many tickets?', 'Pay 80 EUR?']);
    expect(warnings).toEqual([quoted('security/unsolicited.warning.txt')]);
  });
});
