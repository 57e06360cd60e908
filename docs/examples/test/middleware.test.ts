import { describe, expect, test } from 'vitest';

import { Client, type ElicitationHandler } from '@parley/client';
import { ERROR_META_KEY } from '@parley/middleware';

import * as bookFlight from '../elicitation/bookFlight.ts';
import * as multiTurn from '../elicitation/multiTurn.ts';
import * as builtins from '../middleware/builtins.ts';
import { GuardAwareMiddleware } from '../middleware/guardAware.ts';
import { withLogging } from '../middleware/perRound.ts';
import { consoleOutput, quoted, textOf } from './support.ts';

const bookingAnswers: ElicitationHandler = (message, responseType) =>
  message.includes('Where')
    ? responseType({ destination: 'Paris' })
    : responseType({ date: '2026-08-01' });

/** Flow ids and durations differ on every run: number the ids by first use, blank the times. */
function normalise(log: string): string {
  const ids = new Map<string, string>();
  return log
    .replace(/flow=([0-9a-f]{24})/g, (_all, id: string) => {
      if (!ids.has(id)) ids.set(id, `<flow ${ids.size + 1}>`);
      return `flow=${ids.get(id)}`;
    })
    .replace(/\d+\.\dms/g, '<n>ms');
}

function stderrOf(run: () => Promise<unknown>): Promise<string> {
  return consoleOutput(run, 'error');
}

describe('per-round semantics', () => {
  test('modern: the chain runs on every round; one flow id, three rounds', async () => {
    const log = await stderrOf(async () => {
      await using client = new Client(
        withLogging(bookFlight.createServer()),
        {
          mode: 'modern',
          elicitationHandler: bookingAnswers,
        },
      );
      await client.connect();
      await client.callTool('book_flight');
    });
    expect(normalise(log)).toBe(
      normalise(quoted('middleware/perRound.modern.out.txt')),
    );
  });

  test('handshake: one round, with its ctx.elicit() requests inside it', async () => {
    const answers: Record<string, unknown> = {
      "What's the meeting title?": 'Standup',
      'Duration in minutes?': 15,
      'Is this urgent?': 'no',
    };
    const log = await stderrOf(async () => {
      await using client = new Client(
        withLogging(multiTurn.createServer()),
        {
          mode: 'handshake',
          elicitationHandler: (message) => answers[message] as string,
        },
      );
      await client.connect();
      await client.callTool('plan_meeting');
    });
    expect(normalise(log)).toBe(
      normalise(quoted('middleware/perRound.handshake.out.txt')),
    );
  });
});

test('a guard-aware middleware tells asks from final results, and first rounds from later ones', async () => {
  const mcp = bookFlight.createServer().use(new GuardAwareMiddleware());
  const printed = await consoleOutput(async () => {
    await using client = new Client(mcp, {
      mode: 'modern',
      elicitationHandler: bookingAnswers,
    });
    await client.connect();
    await client.callTool('book_flight');
  });
  expect(printed).toBe(quoted('middleware/guardAware.out.txt'));
});

describe('the built-ins, installed together', () => {
  async function open() {
    const server = builtins.createServer();
    const client = new Client(server.mcp, {
      mode: 'modern',
      elicitationHandler: () => 'Oslo',
    });
    await client.connect();
    return { ...server, client };
  }

  test('caching serves a cacheable final result again', async () => {
    const { client, runs } = await open();
    await using _ = client;
    expect(
      textOf(await client.callTool('forecast', { city: 'Oslo' })),
    ).toBe('Sunny in Oslo');
    expect(
      textOf(await client.callTool('forecast', { city: 'Oslo' })),
    ).toBe('Sunny in Oslo');
    expect(runs.forecast).toBe(1);
  });

  test('caching never stores an ask or an answered round', async () => {
    const { client, runs } = await open();
    await using _ = client;
    expect(textOf(await client.callTool('pick_city'))).toBe('Picked Oslo');
    expect(textOf(await client.callTool('pick_city'))).toBe('Picked Oslo');
    expect(runs.pick_city).toBe(4); // two rounds per call, every time
  });

  test('error handling masks what is not a Parley error, and never fires on an ask', async () => {
    const { client, logLines } = await open();
    await using _ = client;
    const crashed = await client.callTool('crash');
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toBe('Internal error');
    expect(crashed._meta?.[ERROR_META_KEY]).toEqual({ code: 'internal' });
    await client.callTool('pick_city');
    expect(
      logLines
        .filter((line) => line.includes('pick_city'))
        .map((line) => line.split(' ')[5]),
    ).toEqual(['input_required[city]', 'complete']);
  });

  test('timing reports whole flows; rate limiting counts a flow once', async () => {
    const { client, flows } = await open();
    await using _ = client;
    // maxFlows is 3: three two-round flows fit, although they are six requests.
    for (let call = 0; call < 3; call += 1)
      await client.callTool('pick_city');
    expect(flows.map((flow) => [flow.target, flow.rounds])).toEqual([
      ['pick_city', 2],
      ['pick_city', 2],
      ['pick_city', 2],
    ]);
    const limited = await client.callTool('pick_city');
    expect(limited.isError).toBe(true);
    expect(limited._meta?.[ERROR_META_KEY]).toEqual({
      code: 'rate_limited',
    });
  });
});
