/**
 * The first half of the elicitation page: ctx.ask, askAll and remember, one code path in both
 * eras, and the re-entry made visible (the rounds, what was replayed, a swallowed suspension,
 * the size budget).
 */
import { describe, expect, test } from 'vitest';

import { Client, type ElicitationHandler } from '@parley/client';

import * as ask from '../elicitation/ask.ts';
import { eras, quoted, textOf } from './support.ts';

const answers: ElicitationHandler = (message, responseType) =>
  message.includes('Where')
    ? responseType({ destination: 'Paris' })
    : message.includes('When')
      ? responseType({ date: '2026-08-01' })
      : message.includes('from')
        ? 'Lisbon'
        : message.includes('to')
          ? 'Oslo'
          : message.includes('Name')
            ? 'Ada'
            : message.includes('currency')
              ? 'EUR'
              : responseType(true);

async function connect(era: (typeof eras)[number], lines: string[] = []) {
  const client = new Client(
    ask.createServer({ onError: () => {} }, (line) => lines.push(line)),
    { mode: era, elicitationHandler: answers },
  );
  await client.connect();
  return client;
}

async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  throw new Error('expected the call to fail');
}

describe.each(eras)('%s era', (era) => {
  test('book_flight: two questions, the fare looked up once per flow', async () => {
    await using client = await connect(era);
    const before = ask.fares.lookups;
    expect(textOf(await client.callTool('book_flight'))).toBe(
      'Booked Paris on 2026-08-01 for €150',
    );
    expect(ask.fares.lookups - before).toBe(1);
  });

  test('the rounds and what was replayed, as the page quotes them', async () => {
    const lines: string[] = [];
    await using client = await connect(era, lines);
    expect(textOf(await client.callTool('trace_flight'))).toBe(
      'Booked for 2026-08-01',
    );
    expect(lines.join('\n')).toBe(
      quoted(`elicitation/ask.reentry.${era}.out.txt`),
    );
  });

  test('askAll: two answers, typed, from one call', async () => {
    const rounds: string[][] = [];
    await using client = new Client(ask.createServer(), {
      mode: era,
      elicitationHandler: answers,
      onRound: (event) => rounds.push(Object.keys(event.asked)),
    });
    await client.connect();
    expect(textOf(await client.callTool('plan_trip'))).toBe(
      'Lisbon → Oslo',
    );
    if (era === 'modern') expect(rounds).toEqual([['from', 'to']]);
  });

  test('a prompt, a resource and a resource template ask the same way', async () => {
    await using client = await connect(era);
    const prompt = await client.getPrompt('trip_summary');
    expect(JSON.stringify(prompt.messages)).toContain(
      'Summarize a trip to Paris.',
    );
    const today = await client.readResource('fares://today');
    expect(JSON.stringify(today.contents)).toContain('Lisbon: 160 EUR');
    const resource = await client.readResource('fares://Oslo');
    expect(JSON.stringify(resource.contents)).toContain('Oslo: 140 EUR');
  });
});

describe('modern era: where the handler gets in the way', () => {
  test('a swallowed suspension is an error naming the question, as the page quotes it', async () => {
    await using client = await connect('modern');
    expect(await failure(() => client.callTool('swallow'))).toBe(
      quoted('elicitation/ask.swallowed.out.txt'),
    );
  });

  test('on the handshake era the same tool works: nothing is suspended there', async () => {
    await using client = await connect('handshake');
    expect(textOf(await client.callTool('swallow'))).toBe('Ada');
  });

  test('state over the size budget is an error naming what the remembered values take', async () => {
    await using client = await connect('modern');
    expect(await failure(() => client.callTool('fetch_report'))).toBe(
      quoted('elicitation/ask.budget.out.txt'),
    );
  });
});
