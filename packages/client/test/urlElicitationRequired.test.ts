import {
  McpServer,
  UrlElicitationRequiredError as SdkUrlElicitationRequiredError,
  createMcpHandler,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';

import {
  Client,
  RoundsExceededError,
  UrlElicitationRequiredError,
  type ClientOptions,
  type InProcessServer,
  type RoundEvent,
} from '../src/index.ts';

/**
 * MCP 2025-11-25's `-32042` against the Parley client, from a server written with the raw SDK
 * v2: the client shows each page to its elicitation handler (URL mode), waits for the server's
 * `notifications/elicitation/complete`, and sends the request again; `onElicitationComplete`
 * hears every completion.
 */

const page = {
  mode: 'url' as const,
  message: 'Link your calendar',
  url: 'https://calendar.example.com/link?s=1',
  elicitationId: 'link-1',
};

interface Linking {
  linked: boolean;
  /** Whether the server announces completion when the user finishes. */
  announces: boolean;
  calls: number;
  /** Set per session: sends notifications/elicitation/complete for an id. */
  complete?: (elicitationId: string) => Promise<void>;
}

function linkingServer(state: Linking): InProcessServer {
  const build = (): McpServer => {
    const server = new McpServer({ name: 'linking', version: '1.0.0' });
    server.registerTool('sync', { description: 'Needs a linked account' }, async () => {
      state.calls += 1;
      if (!state.linked) throw new SdkUrlElicitationRequiredError([page], 'Link first');
      return { content: [{ type: 'text', text: 'synced' }] } satisfies CallToolResult;
    });
    state.complete = (id) => server.server.createElicitationCompletionNotifier(id)();
    return server;
  };
  const modern = createMcpHandler(build);
  return {
    connect: async (transport) => {
      const server = build();
      await server.connect(transport as never);
      return { close: () => server.close() };
    },
    fetch: (request) => modern.fetch(request),
  };
}

function freshState(announces = true): Linking {
  return { linked: false, announces, calls: 0 };
}

/**
 * A user who opens the page and finishes there. A server that announces completion learns of it
 * a little later and announces it then; a call sent again before that would be refused again.
 */
function userWhoLinks(state: Linking, seen: unknown[]): ClientOptions['elicitationHandler'] {
  return (_message, _responseType, params) => {
    seen.push(params);
    if (!state.announces) state.linked = true;
    else {
      setTimeout(() => {
        state.linked = true;
        void state.complete?.(page.elicitationId);
      }, 50);
    }
    return { action: 'accept' };
  };
}

describe('handshake era: -32042', () => {
  test('the page goes to the handler, the completion is heard, the call is sent again', async () => {
    const state = freshState();
    const seen: unknown[] = [];
    const completed: string[] = [];
    const rounds: RoundEvent[] = [];
    await using client = new Client(linkingServer(state), {
      mode: 'handshake',
      elicitationHandler: userWhoLinks(state, seen),
      onElicitationComplete: (id) => completed.push(id),
      onRound: (event) => rounds.push(event),
    });
    await client.connect();
    const result = await client.callTool('sync');
    expect(result.content).toEqual([{ type: 'text', text: 'synced' }]);
    expect(state.calls).toBe(2);
    expect(seen).toEqual([page]);
    expect(completed).toEqual(['link-1']);
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({
      era: 'handshake',
      call: { method: 'tools/call', name: 'sync' },
      round: 1,
      asked: { 'link-1': { method: 'elicitation/create', params: page } },
      answered: { 'link-1': { action: 'accept' } },
    });
  });

  test('without a completion notice the client waits its timeout, then sends the call again', async () => {
    const state = freshState(false);
    await using client = new Client(linkingServer(state), {
      mode: 'handshake',
      elicitationHandler: userWhoLinks(state, []),
      timeoutMs: 150,
    });
    await client.connect();
    const result = await client.callTool('sync');
    expect(result.content).toEqual([{ type: 'text', text: 'synced' }]);
    expect(state.calls).toBe(2);
  });

  test('a declined page ends the call with the typed error and its pages', async () => {
    const state = freshState();
    await using client = new Client(linkingServer(state), {
      mode: 'handshake',
      elicitationHandler: () => ({ action: 'decline' }),
    });
    await client.connect();
    const error = await client.callTool('sync').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect((error as UrlElicitationRequiredError).message).toBe('Link first');
    expect((error as UrlElicitationRequiredError).data?.elicitations).toEqual([page]);
    expect(state.calls).toBe(1);
  });

  test('a server that keeps asking hits the round bound', async () => {
    const state = freshState();
    await using client = new Client(linkingServer(state), {
      mode: 'handshake',
      // The user says yes, but the server never sees the account linked.
      elicitationHandler: () => ({ action: 'accept' }),
      maxRounds: 2,
      timeoutMs: 50,
    });
    await client.connect();
    const error = await client.callTool('sync').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoundsExceededError);
    expect((error as RoundsExceededError).data?.lastResult.inputRequests).toEqual({
      'link-1': { method: 'elicitation/create', params: page },
    });
    expect(state.calls).toBe(3);
  });

  test('without an elicitation handler the call fails with the typed error at once', async () => {
    const state = freshState();
    await using client = new Client(linkingServer(state), { mode: 'handshake' });
    await client.connect();
    await expect(client.callTool('sync')).rejects.toBeInstanceOf(UrlElicitationRequiredError);
    expect(state.calls).toBe(1);
  });
});
