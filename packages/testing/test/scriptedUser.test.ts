import { describe, expect, test } from 'vitest';

import { InputHandlerError } from '@parley/client';

import { AskedMismatchError, eraMatrix, scriptedUser } from '../src/index.ts';
import { createTripServer } from './fixtures/tripServer.ts';

/** The scripted user's rules and records, against a real server in this process. */

const [modern, handshake] = eraMatrix({ server: createTripServer, transports: ['in-process'] });

describe('rules', () => {
  test('a key answers the modern era; a pattern answers both', async () => {
    const user = scriptedUser()
      .answer('city', { city: 'Oslo' })
      .answer(/nights/, { nights: 5 });
    await using connection = await modern!.connect({ user });
    const result = await connection.client.callTool('plan_trip');
    expect(result.content).toEqual([{ type: 'text', text: '5 nights in Oslo' }]);
    user.expectAsked([
      { key: 'city', round: 1 },
      { key: 'nights', round: 2 },
    ]);
  });

  test('the handshake era has no keys, so a key rule does not match there', async () => {
    const user = scriptedUser().answer('city', { city: 'Oslo' });
    await using connection = await handshake!.connect({ user });
    const error = await connection.client.callTool('plan_trip').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect(String((error as Error).message)).toContain(
      `scriptedUser: nothing in the script answers #1 elicitation "Where to?" in tools/call 'plan_trip'.`,
    );
    expect(user.asked[0]?.key).toBeUndefined();
  });

  test('a function decides from the question; times hands over to the next rule', async () => {
    const user = scriptedUser()
      .answer(
        (asked) => asked.message === 'Where to?',
        () => ({ city: 'Rome' }),
        { times: 1 },
      )
      .answer(/^Where to\?$/, { city: 'Bergen' })
      .answer(/nights/, (asked) => ({ nights: asked.message?.includes('Rome') ? 3 : 1 }));
    await using connection = await modern!.connect({ user });
    const first = await connection.client.callTool('plan_trip');
    const second = await connection.client.callTool('plan_trip');
    expect(first.content).toEqual([{ type: 'text', text: '3 nights in Rome' }]);
    expect(second.content).toEqual([{ type: 'text', text: '1 nights in Bergen' }]);
    expect(user.messages()).toEqual([
      'Where to?',
      'How many nights in Rome?',
      'Where to?',
      'How many nights in Bergen?',
    ]);
  });

  test('only what the script answers is declared', () => {
    expect(Object.keys(scriptedUser().answer(/x/, 'y').clientOptions())).toEqual([
      'elicitationHandler',
    ]);
    expect(Object.keys(scriptedUser().sample('text').roots([]).clientOptions())).toEqual([
      'samplingHandler',
      'roots',
    ]);
  });

  test('bad rules are refused when written', () => {
    expect(() => scriptedUser().answer(42 as never, 'x')).toThrow(TypeError);
    expect(() => scriptedUser().answer(/x/, undefined as never)).toThrow(
      'decline() and cancel() say no',
    );
    expect(() => scriptedUser().decline(/x/, { times: 0 })).toThrow(RangeError);
    expect(() => scriptedUser().sample(7 as never)).toThrow('sample: give the text');
  });
});

describe('expectAsked', () => {
  test('fails on a different message, schema, order or count, saying where', async () => {
    const user = scriptedUser()
      .answer(/^Where to\?$/, { city: 'Lima' })
      .answer(/nights/, {});
    await using connection = await modern!.connect({ user });
    await connection.client.callTool('plan_trip');

    expect(() => user.expectAsked([{ message: 'Where?' }, {}])).toThrow(AskedMismatchError);
    expect(() => user.expectAsked([{ message: 'Where?' }, {}])).toThrow(
      `#1 elicitation "Where to?" (key 'city') in tools/call 'plan_trip': message: expected "Where?", got "Where to?"`,
    );
    expect(() => user.expectAsked([{ message: /nights/ }, { message: 'Where to?' }])).toThrow(
      'message: expected /nights/',
    );
    expect(() => user.expectAsked([{ fields: ['town'] }, {}])).toThrow(
      'fields: expected ["town"], got ["city"]',
    );
    expect(() => user.expectAsked([{}])).toThrow('expected 1 questions, but 2 were asked');
    expect(() => user.expectAsked([{}, {}, {}])).toThrow('only 2 were asked');
    // And passes when it all holds.
    user.expectAsked([
      { message: 'Where to?', fields: ['city'] },
      { message: /Lima/, schema: user.asked[1]?.schema as never, action: 'accept' },
    ]);
    user.clear();
    user.expectAsked([]);
  });
});
