import { describe, expect, test } from 'vitest';

import { eraMatrix, scriptedUser } from '@parley/testing';

import { createBookingServer } from '../../../apps/booking/src/bookingServer.ts';
import { createDualEraServer } from '../../../apps/dual-era/src/dualEraServer.ts';
import { createReportingServer } from '../../../apps/reporting/src/reportingServer.ts';

/**
 * What each app asks, exactly: the questions, their order and the forms they carry, and what a
 * "no" does, checked with `@parley/testing` in both eras (in this process and over HTTP).
 */

const quiet = () => {};
const textOf = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('');
const transports = ['in-process', 'http'] as const;

describe.each(eraMatrix({ server: () => createBookingServer({ log: quiet }), transports }))(
  'booking, $name',
  (cell) => {
    test('book_flight asks where, then when, then who, one question a round', async () => {
      const user = scriptedUser()
        .answer(/^Where would you like to fly\?$/, { destination: 'Oslo' })
        .answer(/^When would you like to fly to Oslo\?$/, { date: '2026-10-02' })
        .answer(/Who is travelling\?$/, { passenger: 'Grace Hopper' });
      await using connection = await cell.connect({ user });

      const result = await connection.client.callTool('book_flight');

      // `confirm` was left to its default (true).
      expect(textOf(result)).toMatch(/^Booked BK-\d{4}: Grace Hopper to Oslo on 2026-10-02$/);
      user.expectAsked([
        { message: 'Where would you like to fly?', fields: ['destination'], round: 1 },
        { message: 'When would you like to fly to Oslo?', fields: ['date'], round: 2 },
        {
          message: 'Book a flight to Oslo on 2026-10-02? Who is travelling?',
          fields: ['passenger', 'confirm'],
          round: 3,
        },
      ]);
      // The modern era names each question; the handshake era has no keys.
      expect(user.asked.map((asked) => asked.key)).toEqual(
        cell.era === 'modern'
          ? ['destination', 'date', 'passenger']
          : [undefined, undefined, undefined],
      );
      expect(user.asked[1]?.schema?.properties.date).toMatchObject({
        type: 'string',
        format: 'date',
        title: 'Date',
      });
    });

    test('declining the destination cancels the booking and asks nothing more', async () => {
      const user = scriptedUser().decline(/^Where would you like to fly\?$/);
      await using connection = await cell.connect({ user });
      const result = await connection.client.callTool('book_flight');
      expect(textOf(result)).toBe('Booking cancelled.');
      user.expectAsked([{ message: 'Where would you like to fly?', action: 'decline' }]);
    });
  },
);

describe.each(eraMatrix({ server: () => createDualEraServer({ log: quiet }), transports }))(
  'dual-era, $name',
  (cell) => {
    test('approve_expense asks one yes/no question; cancelling it rejects the expense', async () => {
      const user = scriptedUser().cancel(/^Approve 9\.99 EUR for 'coffee'\?$/);
      await using connection = await cell.connect({ user });
      const result = await connection.client.callTool('approve_expense', {
        amount: 9.99,
        purpose: 'coffee',
      });
      expect(textOf(result)).toBe("Expense of 9.99 EUR for 'coffee' rejected.");
      user.expectAsked([
        {
          kind: 'elicitation',
          message: "Approve 9.99 EUR for 'coffee'?",
          call: 'approve_expense',
          action: 'cancel',
          schema: {
            type: 'object',
            properties: {
              value: { type: 'boolean', title: 'Approve', description: 'Charge the team budget' },
            },
            required: ['value'],
          },
        },
      ]);
    });
  },
);

describe.each(
  eraMatrix({ server: () => createReportingServer({ log: quiet }), eras: ['modern'], transports }),
)('reporting, $name', (cell) => {
  test('summarize_workspace asks the roots and the model in one round', async () => {
    const user = scriptedUser()
      .roots([{ uri: 'file:///srv/reports', name: 'reports' }])
      .sample(/^Summarize in one sentence:/, {
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: 'Growth everywhere.' },
      });
    await using connection = await cell.connect({ user });
    const result = await connection.client.callTool('summarize_workspace');
    expect(textOf(result)).toBe('Workspace: reports. Model (test-model): Growth everywhere.');
    expect(user.asked.map((asked) => [asked.kind, asked.key, asked.round])).toEqual([
      ['roots', 'roots', 1],
      ['sampling', 'summary', 1],
    ]);
    expect(user.asked[1]?.request.params).toMatchObject({
      systemPrompt: 'You are a concise financial analyst.',
      maxTokens: 120,
    });
  });
});
