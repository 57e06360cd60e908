import { afterEach, describe, expect, test } from 'vitest';

import { Client, UnsupportedProtocolVersionError } from '../src/index.ts';
import { freshSeen, sdkV2Target } from './helpers/sdkV2Server.ts';

/**
 * `client.sendRound`: one round of a modern-era call, sent as given and returned as the server
 * answered it, against a server written with the raw MCP SDK v2. What a proxy needs to pass
 * rounds through: the server's `requestState` comes back byte for byte, an
 * `InputRequiredResult` is returned instead of answered, and no handler is called.
 */

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connected(mode: 'modern' | 'handshake' = 'modern'): Promise<Client> {
  let asked = 0;
  client = new Client(sdkV2Target(freshSeen()), {
    mode,
    elicitationHandler: () => {
      asked += 1;
      throw new Error(`sendRound must not answer anything (asked ${asked} times)`);
    },
  });
  await client.connect();
  return client;
}

const accept = (content: Record<string, string>) => ({ action: 'accept' as const, content });

describe('sendRound', () => {
  test('returns an InputRequiredResult as the server sent it, and takes its state back as is', async () => {
    const c = await connected();
    const first = await c.sendRound({ method: 'tools/call', params: { name: 'book_trip' } });
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { destination: { method: 'elicitation/create' } },
    });
    expect(first['requestState']).toBeUndefined();

    const second = await c.sendRound({
      method: 'tools/call',
      params: {
        name: 'book_trip',
        inputResponses: { destination: accept({ destination: 'Lisbon' }) },
      },
    });
    expect(second).toMatchObject({
      resultType: 'input_required',
      inputRequests: { date: { params: { message: 'When to Lisbon?' } } },
    });
    // The server's own state, not one of Parley's: a proxy hands it on untouched.
    expect(second['requestState']).toBe('{"destination":"Lisbon"}');

    const last = await c.sendRound({
      method: 'tools/call',
      params: {
        name: 'book_trip',
        inputResponses: { date: accept({ date: 'Friday' }) },
        requestState: second['requestState'] as string,
      },
    });
    expect(last).toMatchObject({ content: [{ type: 'text', text: 'Booked Lisbon on Friday' }] });
  });

  test('a prompt and a resource round, asked and then answered', async () => {
    const c = await connected();
    const prompt = await c.sendRound({ method: 'prompts/get', params: { name: 'greet' } });
    expect(prompt).toMatchObject({ inputRequests: { who: { method: 'elicitation/create' } } });
    const greeted = await c.sendRound({
      method: 'prompts/get',
      params: { name: 'greet', inputResponses: { who: accept({ name: 'Ada' }) } },
    });
    expect(greeted).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet Ada' } }],
    });

    const asked = await c.sendRound({ method: 'resources/read', params: { uri: 'test://asks' } });
    expect(asked).toMatchObject({ inputRequests: { format: { method: 'elicitation/create' } } });
    const read = await c.sendRound({
      method: 'resources/read',
      params: { uri: 'test://asks', inputResponses: { format: accept({ format: 'pdf' }) } },
    });
    expect(read).toMatchObject({ contents: [{ text: 'report as pdf' }] });
  });

  test('a JSON-RPC error of the server is the typed error other calls raise', async () => {
    const c = await connected();
    const error = await c
      .sendRound({ method: 'tools/call', params: { name: 'no_such_tool' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('no_such_tool');
  });

  test('on a handshake-era connection: a typed error that says what to use instead', async () => {
    const c = await connected('handshake');
    const error = await c
      .sendRound({ method: 'tools/call', params: { name: 'book_trip' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((error as Error).message).toMatch(
      /^sendRound: a single round is a modern-era request .* speaks the handshake era .*use callTool, getPrompt or readResource/,
    );
  });

  test('refuses a round without a name or URI, and options that do not apply to one round', async () => {
    const c = await connected();
    await expect(c.sendRound({ method: 'tools/call', params: {} } as never)).rejects.toThrow(
      /^sendRound: give \{ method: 'tools\/call'/,
    );
    await expect(
      c.sendRound({ method: 'tools/list', params: { name: 'x' } } as never),
    ).rejects.toThrow(TypeError);
    await expect(
      c.sendRound({ method: 'tools/call', params: { name: 'book_trip' } }, {
        maxRounds: 3,
      } as never),
    ).rejects.toThrow(/sendRound: options\.maxRounds is not an option/);
  });

  test('before connect: the same error every call gives', async () => {
    client = new Client(sdkV2Target(freshSeen()), { mode: 'modern' });
    await expect(
      client.sendRound({ method: 'tools/call', params: { name: 'book_trip' } }),
    ).rejects.toThrow(/sendRound: the client is not connected/);
  });
});
