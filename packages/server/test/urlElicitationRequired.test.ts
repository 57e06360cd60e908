import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';

import { ParleyServer, UrlElicitationRequiredError } from '../src/index.ts';
import { connectSdkClient, textOf } from './helpers/sdkClients.ts';
import { rawModernCall } from './helpers/rawModern.ts';

/**
 * A handler that needs the user to finish something out of band (link an account, pay) throws
 * `UrlElicitationRequiredError`. On the handshake era the client gets MCP 2025-11-25's `-32042`
 * with the pages; on the modern era, where `-32042` is retired, the same pages are asked as URL
 * elicitations of an `input_required` result, and the handler runs again once they are answered.
 */

const page = {
  message: 'Link your calendar account',
  url: 'https://calendar.example.com/link?session=abc',
  elicitationId: 'link-calendar',
};

function buildServer(linked: { done: boolean }): ParleyServer {
  const mcp = new ParleyServer({ name: 'url-required', onError: () => {} });
  mcp.tool('sync_calendar', {}, () => {
    if (!linked.done) throw new UrlElicitationRequiredError([page]);
    return 'calendar synced';
  });
  mcp.prompt('agenda', {}, () => {
    if (!linked.done) throw new UrlElicitationRequiredError([page], { message: 'Link first' });
    return 'Here is your agenda';
  });
  return mcp;
}

describe('handshake era: -32042 with the pages', () => {
  test.each(['tool', 'prompt'] as const)('a %s that throws it fails with -32042', async (kind) => {
    const connected = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: buildServer({ done: false }),
      answers: { elicit: () => ({ action: 'accept' }) },
    });
    const call =
      kind === 'tool'
        ? connected.client.callTool({ name: 'sync_calendar', arguments: {} })
        : connected.client.getPrompt({ name: 'agenda', arguments: {} });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32042);
    expect((error as ProtocolError).data).toEqual({ elicitations: [{ mode: 'url', ...page }] });
    // A thrown -32042 is an error of the request, never an isError tool result.
    expect(connected.seen).toEqual([]);
    await connected.close();
  });
});

describe('modern era: the same pages as URL asks, never -32042', () => {
  test('the first round asks each page under its elicitationId', async () => {
    const response = await rawModernCall(buildServer({ done: false }), {
      name: 'sync_calendar',
      capabilities: { elicitation: { form: {}, url: {} } },
    });
    expect(response.status).toBe(200);
    expect(response.body.error).toBeUndefined();
    expect(response.body.result?.resultType).toBe('input_required');
    expect(response.body.result?.inputRequests).toEqual({
      'link-calendar': {
        method: 'elicitation/create',
        params: { mode: 'url', message: page.message, url: page.url },
      },
    });
  });

  test.each(['tool', 'prompt'] as const)(
    'a %s runs again once answered and finishes when the step is done',
    async (kind) => {
      const linked = { done: false };
      const server = buildServer(linked);
      const connected = await connectSdkClient({
        era: 'modern',
        via: 'in-process',
        server,
        answers: {
          // The user opens the page and finishes there before answering.
          elicit: () => {
            linked.done = true;
            return { action: 'accept' };
          },
        },
      });
      const result =
        kind === 'tool'
          ? await connected.client.callTool({ name: 'sync_calendar', arguments: {} })
          : await connected.client.getPrompt({ name: 'agenda', arguments: {} });
      expect(
        kind === 'tool'
          ? textOf(result)
          : (result as { messages: { content: { text: string } }[] }).messages[0]?.content.text,
      ).toBe(kind === 'tool' ? 'calendar synced' : 'Here is your agenda');
      expect(connected.seen).toEqual([
        {
          method: 'elicitation/create',
          params: { mode: 'url', message: page.message, url: page.url },
        },
      ]);
      await connected.close();
    },
  );
});
