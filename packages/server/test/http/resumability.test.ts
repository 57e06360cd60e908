import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  SessionClosedError,
  createMemoryEventStore,
  type EventStore,
  type HttpRunOptions,
  type RunningServer,
} from '../../src/index.ts';
import { textOf } from '../helpers/sdkClients.ts';

/**
 * Resumable handshake-era streams over a real socket: every SSE event has an id, a call's POST
 * stream opens with a priming event and a `retry`, and a client whose stream drops reconnects
 * with `Last-Event-ID` and gets what it missed, so a `ctx.elicit()` the user is still answering
 * survives. A stream that never comes back ends its session, and the handler hears why.
 */

const abandoned: unknown[] = [];
let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close({ graceMs: 0 });
  running = undefined;
  abandoned.length = 0;
});

function bookingServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'resumable', onWarning: () => {}, onError: () => {} });
  mcp.tool('book', async (_args, ctx) => {
    try {
      const where = await ctx.elicit('Where to?', z.object({ city: z.string() }));
      const when = await ctx.elicit('When?', z.object({ date: z.string() }));
      if (where.action !== 'accept' || when.action !== 'accept') return 'not booked';
      return `Booked ${where.data.city} on ${when.data.date}`;
    } catch (error) {
      abandoned.push(error);
      throw error;
    }
  });
  return mcp;
}

async function start(options: Partial<HttpRunOptions> = {}): Promise<string> {
  running = await bookingServer().run({ transport: 'http', port: 0, ...options });
  return running.url as string;
}

/**
 * A fetch that cuts the first tools/call stream for real (its connection is torn down) right
 * after the event `cutAfter` recognises, and records every request.
 */
function droppingFetch(cutAfter: (event: string) => boolean) {
  const requests: { method: string; lastEventId: string | null }[] = [];
  let cut = false;
  const fetchLike = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push({ method: request.method, lastEventId: request.headers.get('last-event-id') });
    const isCall =
      request.method === 'POST' && (await request.clone().text()).includes('"tools/call"');
    const response = await fetch(request);
    if (!isCall || cut || response.body === null) return response;
    cut = true;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += decoder.decode(value, { stream: true });
        const events = seen.split('\n\n');
        if (events.some(cutAfter)) {
          await reader.cancel();
          controller.error(new TypeError('terminated: the connection dropped'));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: fetchLike, requests };
}

async function clientOf(
  url: string,
  fetchLike: typeof fetch | ReturnType<typeof droppingFetch>['fetch'],
  answer: (message: string) => Promise<Record<string, unknown>>,
) {
  const client = new Client(
    { name: 'resume', version: '1' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept',
    content: (await answer(String(request.params.message))) as never,
  }));
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: fetchLike as typeof fetch,
    reconnectionOptions: {
      initialReconnectionDelay: 50,
      maxReconnectionDelay: 200,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    },
  });
  await client.connect(transport);
  return { client, transport };
}

const answers = async (message: string) =>
  message === 'Where to?' ? { city: 'Lisbon' } : { date: '2026-09-01' };

describe('resumable handshake-era streams', () => {
  test('a call’s stream opens with a priming event (id, empty data, retry), and every event has an id', async () => {
    const url = await start({ sseRetryMs: 750 });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const session = init.headers.get('mcp-session-id') as string;
    await init.text();
    const call = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'book', arguments: {} },
      }),
    });
    const reader = call.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let text = '';
    while (!text.includes('elicitation/create'))
      text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const [priming, question] = text.split('\n\n');
    expect(priming).toMatch(/^id: \S+\nretry: 750\ndata: $/);
    expect(question).toMatch(/^event: message\nid: \S+\ndata: \{.*"method":"elicitation\/create"/);

    // An id the store does not know is refused, not answered with a stream.
    const unknown = await fetch(url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': 'no-such-event',
      },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(-32000);

    // One store serves every session, yet an event id resumes only its own session's stream.
    const primingId = /^id: (\S+)/.exec(priming as string)?.[1] as string;
    const other = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'other', version: '1' },
        },
      }),
    });
    await other.text();
    const resume = (sessionId: string) =>
      fetch(url, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': primingId,
        },
      });
    const elsewhere = await resume(other.headers.get('mcp-session-id') as string);
    expect(elsewhere.status).toBe(400);
    await elsewhere.text();
    const own = await resume(session);
    expect(own.status).toBe(200);
    const replayed = own.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    expect(new TextDecoder().decode((await replayed.read()).value)).toContain('elicitation/create');
    await replayed.cancel();
  });

  test('ctx.elicit survives a stream that drops while the user is answering: the client resumes and gets the result', async () => {
    const url = await start();
    const dropping = droppingFetch((event) => event.includes('elicitation/create'));
    let answered = 0;
    const { client } = await clientOf(url, dropping.fetch, async (message) => {
      // The person takes a while; meanwhile the stream is gone.
      if (answered++ === 0) await new Promise((resolve) => setTimeout(resolve, 300));
      return answers(message);
    });
    const result = await client.callTool({ name: 'book', arguments: {} });
    expect(textOf(result)).toBe('Booked Lisbon on 2026-09-01');
    const resumed = dropping.requests.filter((r) => r.method === 'GET' && r.lastEventId !== null);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(abandoned).toEqual([]);
    await client.close();
  });

  test('a question sent while the stream was down is replayed when the client resumes', async () => {
    const url = await start();
    // Cut right after the priming event: the question goes out while nobody is reading.
    const dropping = droppingFetch((event) => /^id: \S+\nretry: \d+\ndata: $/.test(event));
    const { client } = await clientOf(url, dropping.fetch, answers);
    const result = await client.callTool({ name: 'book', arguments: {} });
    expect(textOf(result)).toBe('Booked Lisbon on 2026-09-01');
    expect(dropping.requests.some((r) => r.method === 'GET' && r.lastEventId !== null)).toBe(true);
    await client.close();
  });

  test('a stream that never comes back ends its session, and ctx.elicit rejects with SessionClosedError at once', async () => {
    const url = await start({ streamResumeWindowMs: 200 });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    const session = init.headers.get('mcp-session-id') as string;
    await init.text();
    const inSession = {
      ...headers,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    };
    const call = await fetch(url, {
      method: 'POST',
      headers: inSession,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'book', arguments: {} },
      }),
    });
    const reader = call.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    let text = '';
    while (!text.includes('elicitation/create'))
      text += new TextDecoder().decode((await reader.read()).value);
    const started = Date.now();
    await reader.cancel(); // the client goes away, and does not come back
    while (abandoned.length === 0 && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(Date.now() - started).toBeLessThan(2_000); // not the 10-minute elicitation timeout
    expect(abandoned[0]).toBeInstanceOf(SessionClosedError);
    expect((abandoned[0] as SessionClosedError).data).toEqual({
      reason: 'stream_lost',
      sessionId: session,
    });
    const after = await fetch(url, {
      method: 'POST',
      headers: inSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
  });

  test('the event store is pluggable, and false turns resumability off', async () => {
    const memory = createMemoryEventStore();
    const stored: string[] = [];
    const counting: EventStore = {
      storeEvent: async (streamId, message) => {
        stored.push(streamId);
        return memory.storeEvent(streamId, message);
      },
      getStreamIdForEventId: (id) => memory.getStreamIdForEventId(id),
      replayEventsAfter: (id, handlers) => memory.replayEventsAfter(id, handlers),
    };
    const url = await start({ eventStore: counting });
    const { client, transport } = await clientOf(url, fetch, answers);
    expect(textOf(await client.callTool({ name: 'book', arguments: {} }))).toBe(
      'Booked Lisbon on 2026-09-01',
    );
    // the priming event, two questions, the result
    expect(stored.length).toBeGreaterThanOrEqual(4);
    // …each on a stream the store knows by its session: `<sessionId>/<the SDK's stream id>`.
    const sessionId = (transport as StreamableHTTPClientTransport).sessionId as string;
    expect(stored.every((streamId) => streamId.startsWith(`${sessionId}/`))).toBe(true);
    await client.close();
    await running?.close({ graceMs: 0 });

    const plain = await start({ eventStore: false });
    const raw = await fetch(plain, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(await raw.text()).not.toMatch(/^id: /m);
  });
});
