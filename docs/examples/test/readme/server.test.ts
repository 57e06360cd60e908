/**
 * The examples of packages/server/README.md, run: the complete server over stdio in both eras,
 * the per-era layer in the era each tool is for (and its error in the other), and the warning a
 * declared ask gets at registration.
 */
import { describe, expect, test } from 'vitest';

import { Client } from '@parley/client';

import * as declaredAsks from '../../readme/server/declaredAsks.ts';
import * as perEra from '../../readme/server/perEra.ts';
import {
  consoleWarnings,
  eras,
  nodeArgs,
  quoted,
  repoRoot,
  textOf,
} from '../support.ts';

describe.each(eras)(
  'readme/server/bookFlight.ts over stdio, %s era',
  (mode) => {
    test('asks twice, remembers the fare, books', async () => {
      const asked: string[] = [];
      await using client = new Client(
        {
          command: process.execPath,
          args: nodeArgs('readme/server/bookFlight.ts'),
          cwd: repoRoot,
        },
        {
          mode,
          elicitationHandler: (message, responseType) => {
            asked.push(message);
            return message.startsWith('Where')
              ? responseType({ destination: 'Lisbon' })
              : responseType({ date: '2026-09-01' });
          },
        },
      );
      await client.connect();
      expect(client.era).toBe(mode);
      const result = await client.callTool('book_flight');
      expect(textOf(result)).toBe('Booked Lisbon on 2026-09-01 for €160');
      expect(asked).toEqual([
        'Where would you like to fly?',
        'When would you like to fly to Lisbon?',
      ]);
    }, 60_000);
  },
);

describe('readme/server/perEra.ts', () => {
  async function connect(mode: 'modern' | 'handshake') {
    const client = new Client(perEra.createServer({ onError: () => {} }), {
      mode,
      elicitationHandler: (message, responseType) =>
        message.startsWith('Please')
          ? responseType({ name: 'Ada', age: 36 })
          : message.startsWith('Where')
            ? responseType({ destination: 'Paris' })
            : responseType({ date: '2026-08-01' }),
    });
    await client.connect();
    return client;
  }

  test('handshake era: ctx.elicit asks; the guard pattern is refused, pointing to ctx.ask', async () => {
    await using client = await connect('handshake');
    expect(textOf(await client.callTool('collect_user_info'))).toBe(
      'Hello Ada, you are 36 years old',
    );
    await expect(client.callTool('book_flight')).rejects.toThrow(
      /Use ctx\.ask\(key, ask\)/,
    );
  });

  test('modern era: the guard pattern runs three rounds; ctx.elicit is refused with the quoted error', async () => {
    await using client = await connect('modern');
    expect(textOf(await client.callTool('book_flight'))).toBe(
      'Booked a flight to Paris on 2026-08-01',
    );
    const refused = await client.callTool('collect_user_info').then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toContain('Use ctx.ask(');
    expect(quoted('elicitation/eraErrors.modern.out.txt')).toContain(
      'Use ctx.ask(',
    );
  });
});

test('readme/server/declaredAsks.ts: the secret field is reported at registration', async () => {
  const warnings = await consoleWarnings(async () =>
    declaredAsks.createServer(),
  );
  expect(warnings).toEqual([
    quoted('readme/server/declaredAsks.warning.txt'),
  ]);
});
