import { expect, test, vi } from 'vitest';

import { Client } from '@parley/client';
import { scriptedUser } from '@parley/testing';

import { createServer } from '../elicitation/bookFlight.ts';
import { GuardAwareMiddleware } from '../middleware/guardAware.ts';

// #region middlewareTest
test('the middleware sees two asks and a final result, one per round', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const server = createServer().use(new GuardAwareMiddleware());
  const user = scriptedUser()
    .answer(/^Where would you like to fly\?$/, { destination: 'Paris' })
    .answer(/^When would you like to fly to Paris\?$/, {
      date: '2026-08-01',
    });
  await using client = new Client(server, {
    mode: 'modern',
    ...user.clientOptions(),
  });
  await client.connect();

  await client.callTool('book_flight');

  expect(log.mock.calls.map(([line]) => line)).toEqual([
    'round 1 (initial): asked for destination',
    'round 2 (continuation): asked for date',
    'round 3 (continuation): final result',
  ]);
  log.mockRestore();
});
// #endregion middlewareTest
