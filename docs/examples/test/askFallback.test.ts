import { describe, expect, test } from 'vitest';

import { Client } from '@parley/client';

import { createServer } from '../elicitation/askFallback.ts';
import { eras, quoted, textOf } from './support.ts';

/** The fallback page's examples, for a client without elicitation, in both eras. */
describe.each(eras)('%s era, a client without elicitation', (mode) => {
  async function connect() {
    const client = new Client(createServer(), { mode });
    await client.connect();
    return client;
  }

  test('the listing: the asks as optional arguments; the hidden tool absent', async () => {
    await using client = await connect();
    const tools = await client.listTools();
    const planTrip = tools.find((tool) => tool.name === 'plan_trip')!;
    expect(Object.keys(planTrip.inputSchema.properties ?? {})).toEqual([
      'city',
      'nights',
    ]);
    expect(tools.map((tool) => tool.name)).not.toContain('close_account');
  });

  test('without the arguments: what to ask the user; with them: the result', async () => {
    await using client = await connect();
    expect(textOf(await client.callTool('plan_trip'))).toBe(
      quoted('elicitation/askFallback.out.txt'),
    );
    expect(
      textOf(
        await client.callTool('plan_trip', { city: 'Rome', nights: 3 }),
      ),
    ).toBe('3 nights in Rome.');
  });

  test('confirmations: never from arguments, unless the ask opts in', async () => {
    await using client = await connect();
    expect(
      textOf(await client.callTool('delete_trips', { confirm: true })),
    ).toContain("delete_trips also needs the user's own confirmation");
    expect(textOf(await client.callTool('book_trip', { book: true }))).toBe(
      'Booked.',
    );
  });

  test('a custom fallback', async () => {
    await using client = await connect();
    expect(textOf(await client.callTool('weekend_trip'))).toBe('2 nights.');
  });
});
