import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { Client, type ClientMode, type RoundEvent } from '@parley/client';
import { ParleyServer, elicitRequest } from '@parley/server';

/**
 * One name for one ask in both eras: the Parley client's handlers and round events see the key
 * a Parley server gives an ask (`ctx.ask('currency', …)`) whether it arrived as a modern round's
 * `inputRequests` entry or as a handshake-era `elicitation/create` carrying the key in `_meta`,
 * never the JSON-RPC id of the pushed request (a counter that runs on across calls).
 */

const askCurrency = elicitRequest('Which currency?', z.enum(['EUR', 'USD']), {
  responseTitle: 'Currency',
});
const askNote = elicitRequest('Any note?', String, { responseTitle: 'Note' });

function reportServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Reports', onError: () => {} });
  mcp.tool('report', async (_args, ctx) => {
    const currency = await ctx.ask('currency', askCurrency);
    const note = await ctx.ask('note', askNote);
    return `${currency.action === 'accept' ? currency.data : '-'} ${note.action === 'accept' ? note.data : '-'}`;
  });
  mcp.tool('plain', async (_args, ctx) => {
    const answer = await ctx.elicit('Plain question?', String);
    return answer.action === 'accept' ? answer.data : '-';
  });
  return mcp;
}

const text = (result: { content: unknown[] }) =>
  (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');

describe.each<Exclude<ClientMode, 'auto'>>(['modern', 'handshake'])('%s era, over HTTP', (mode) => {
  test('handlers and round events see the ask keys, the same across two calls', async () => {
    const running = await reportServer().run({ transport: 'http', host: '127.0.0.1', port: 0 });
    try {
      const handled: string[] = [];
      const rounds: string[][] = [];
      await using client = new Client(running.url!, {
        mode,
        elicitationHandler: (message, responseType, _params, ctx) => {
          handled.push(ctx.key);
          return message === 'Which currency?' ? 'EUR' : responseType('fine');
        },
        onRound: (event: RoundEvent) => rounds.push(Object.keys(event.asked)),
      });
      await client.connect();
      expect(text(await client.callTool('report'))).toBe('EUR fine');
      expect(text(await client.callTool('report'))).toBe('EUR fine');
      expect(handled).toEqual(['currency', 'note', 'currency', 'note']);
      expect(rounds).toEqual([['currency'], ['note'], ['currency'], ['note']]);
    } finally {
      await running.close();
    }
  });
});

describe('handshake era, over HTTP', () => {
  test('ctx.elicit (handshake era only) has no key of its own: it is called elicitation, as a task calls it', async () => {
    const running = await reportServer().run({ transport: 'http', host: '127.0.0.1', port: 0 });
    try {
      const handled: string[] = [];
      await using client = new Client(running.url!, {
        mode: 'handshake',
        elicitationHandler: (_message, responseType, _params, ctx) => {
          handled.push(ctx.key);
          return responseType('yes');
        },
      });
      await client.connect();
      expect(text(await client.callTool('plain'))).toBe('yes');
      expect(handled).toEqual(['elicitation']);
    } finally {
      await running.close();
    }
  });
});
