import { expect, test } from 'vitest';

import { Client } from '@parley/client';
import { scriptedUser } from '@parley/testing';

import { createServer as createBookingServer } from '../elicitation/bookFlight.ts';
import { createServer as createWorkspaceServer } from '../elicitation/samplingAndRoots.ts';

test('rules by key and by message; the record of what was asked', async () => {
  // #region rules
  const user = scriptedUser()
    // A string is the inputRequests key (the modern era names every question).
    .answer('destination', { destination: 'Paris' })
    // A pattern is tested against the message, in either era.
    .answer(/^When would you like to fly/, { date: '2026-08-01' });

  await using client = new Client(createBookingServer(), {
    mode: 'modern',
    ...user.clientOptions(), // only what the script can answer is declared
  });
  await client.connect();
  const result = await client.callTool('book_flight');
  // #endregion rules

  expect(result.data).toBe('Booked a flight to Paris on 2026-08-01');

  // #region asked
  user.expectAsked([
    {
      key: 'destination',
      message: 'Where would you like to fly?',
      round: 1,
    },
    {
      message: 'When would you like to fly to Paris?',
      fields: ['date'],
      round: 2,
    },
  ]);
  // Or look at the record directly: kind, era, key, call, round, message,
  // mode, schema, url, the request and the answer given.
  expect(user.asked[1]?.schema?.properties.date).toMatchObject({
    format: 'date',
    title: 'Date',
  });
  // #endregion asked
});

test('no, later, a model and a workspace', async () => {
  // #region more
  const user = scriptedUser()
    .decline('destination', { times: 1 }) // the first time only…
    .answer('destination', { destination: 'Rome' }) // …then this
    .cancel(/^When would you like/)
    .answer('purpose', 'Release notes')
    .sample(/Summarize this workspace/, 'A small TypeScript monorepo.')
    .roots([{ uri: 'file:///home/me/project', name: 'project' }]);
  // #endregion more

  await using booking = new Client(createBookingServer(), {
    mode: 'modern',
    ...user.clientOptions(),
  });
  await booking.connect();
  expect((await booking.callTool('book_flight')).data).toBe(
    'Booking cancelled.',
  );
  expect((await booking.callTool('book_flight')).data).toBe(
    'Booking cancelled.',
  );
  user.expectAsked([
    { key: 'destination', action: 'decline' },
    { key: 'destination', action: 'accept' },
    { key: 'date', action: 'cancel' },
  ]);

  await using workspace = new Client(createWorkspaceServer(), {
    mode: 'modern',
    ...user.clientOptions(),
  });
  await workspace.connect();
  const survey = await workspace.callTool('survey_workspace');
  expect(survey.content).toEqual([
    {
      type: 'text',
      text: 'Purpose: Release notes; roots: file:///home/me/project; model: A small TypeScript monorepo.',
    },
  ]);
});
