/**
 * What the client page (docs/guide/client.md) says in prose, checked: the claims its examples do
 * not already show. Each test names the sentence it holds to.
 */
import { describe, expect, test } from 'vitest';

import {
  Client,
  InputHandlerError,
  InvalidAnswerError,
  InvalidRequestStateError,
  UnsupportedCapabilityError,
} from '@parley/client';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';

import { eras, textOf } from './support.ts';

const askName = elicitRequest("What's your name?", String, {
  responseTitle: 'Name',
});

/** `greet` asks for a name in whichever era the call is on; `step` carries state. */
function greeter(key?: string): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Greeter',
    ...(key !== undefined ? { requestStateSecurity: { keys: [key] } } : {}),
  });
  mcp.tool('greet', {}, async (_args, ctx) => {
    if (ctx.era === 'handshake') {
      const name = await ctx.elicit("What's your name?", String, {
        responseTitle: 'Name',
      });
      return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello!';
    }
    const name = ctx.answer('name', askName);
    if (name === undefined)
      return inputRequired({ inputRequests: { name: askName } });
    return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello!';
  });
  mcp.tool('step', {}, (_args, ctx) => {
    if (ctx.requestState === null)
      return inputRequired({
        inputRequests: { name: askName },
        requestState: 'first',
      });
    return `carried: ${ctx.requestState}`;
  });
  mcp.tool('structured', {}, () => ({ total: 3 }));
  return mcp;
}

test('"`await using client = …` closes it when the scope ends; it does not connect it"', async () => {
  let kept: Client | undefined;
  {
    await using client = new Client(greeter());
    kept = client;
    await expect(client.callTool('greet')).rejects.toThrow(
      'the client is not connected; await client.connect() first',
    );
    await client.connect();
    expect(client.era).toBe('modern');
  }
  await expect(kept.callTool('greet')).rejects.toThrow(/not connected/);
});

describe('"Without a handler, the client does not declare the capability"', () => {
  test('handshake era: the Parley server’s ctx.elicit() throws, and the tool reports it as an error result', async () => {
    await using client = new Client(greeter(), { mode: 'handshake' });
    await client.connect();
    const result = await client.callTool('greet');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /elicitation not supported by this client/,
    );
  });

  test('modern era: the server answers -32021, which the client raises as UnsupportedCapabilityError', async () => {
    await using client = new Client(greeter(), { mode: 'modern' });
    await client.connect();
    await expect(client.callTool('greet')).rejects.toBeInstanceOf(
      UnsupportedCapabilityError,
    );
  });
});

test.each(eras)(
  '"a misspelt field fails in your handler, with a message naming it" (%s era)',
  async (mode) => {
    await using client = new Client(greeter(), {
      mode,
      elicitationHandler: (_message, responseType) =>
        responseType({ nmae: 'Ada' } as never),
    });
    await client.connect();
    const failure = await client.callTool('greet').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(InputHandlerError);
    expect((failure as InputHandlerError).cause).toBeInstanceOf(
      InvalidAnswerError,
    );
    expect((failure as Error).message).toContain("'nmae'");
  },
);

test.each(eras)(
  '"time spent in your handlers never counts" toward timeoutMs (%s era)',
  async (mode) => {
    await using client = new Client(greeter(), {
      mode,
      timeoutMs: 200,
      elicitationHandler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        return 'Ada';
      },
    });
    await client.connect();
    expect(textOf(await client.callTool('greet'))).toBe('Hello, Ada!');
  },
);

test('"InvalidRequestStateError: the server rejected the requestState it was sent"', async () => {
  // Round 1 on one server, the retry on another with a key of its own: the state the client
  // echoes cannot be opened there.
  const first = greeter('a'.repeat(64));
  const other = greeter('b'.repeat(64));
  const target = {
    connect: first.connect.bind(first),
    fetch: async (request: Request) =>
      (await request.clone().text()).includes('"requestState"')
        ? other.fetch(request)
        : first.fetch(request),
  };
  await using client = new Client(target, {
    mode: 'modern',
    elicitationHandler: () => 'Ada',
  });
  await client.connect();
  await expect(client.callTool('step')).rejects.toBeInstanceOf(
    InvalidRequestStateError,
  );
});

test('"`data` is the structured result": a tool that returns an object has one', async () => {
  await using client = new Client(greeter(), { mode: 'modern' });
  await client.connect();
  const result = await client.callTool<{ total: number }>('structured');
  expect(result.data).toEqual({ total: 3 });
  expect(
    (await client.callTool('greet').catch(() => undefined))?.data,
  ).toBe(undefined);
});
