import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  SessionClosedError,
  createMemoryEventStore,
  createMemorySessionStore,
  elicitRequest,
  type EventStore,
  type RunningServer,
  type SessionStore,
} from '../../src/index.ts';
import { textOf } from '../helpers/sdkClients.ts';

/**
 * Handshake-era calls that outlive their replica: two servers on real sockets share a session
 * store and an event store (as replicas share Redis); a stand-in balancer (the client's fetch)
 * sends each request where the test says. A replica that drains while its call waits on a person
 * hands the call over; a client whose stream drops resumes on another replica, which follows the
 * call while its replica runs it, or takes it over once it is gone; an answer posted to another
 * replica reaches the call. Nobody is asked anything twice, and nothing waits for a response
 * that cannot come.
 */

interface Replica {
  name: string;
  running: RunningServer;
  url: string;
  /** What the handler saw there: how each run went. */
  runs: string[];
}

const askWhere = elicitRequest('Where to?', z.object({ city: z.string() }));
const replicas: Replica[] = [];
let effects = 0;
/** Until released, the `slow` tool works without asking anything. */
let releaseSlow: () => void = () => {};

afterEach(async () => {
  releaseSlow();
  await Promise.allSettled(replicas.map((replica) => replica.running.close({ graceMs: 0 })));
  replicas.length = 0;
  effects = 0;
});

async function replica(
  name: string,
  sessionStore: SessionStore,
  eventStore: EventStore,
): Promise<Replica> {
  const runs: string[] = [];
  const mcp = new ParleyServer({ name: 'handover', onWarning: () => {}, onError: () => {} });
  mcp.tool('book', async (_args, ctx) => {
    try {
      runs.push('start');
      const where = await ctx.ask('where', askWhere);
      const fare = await ctx.remember('fare', () => ++effects * 100);
      runs.push('asking when');
      const when = await ctx.elicit('When?', z.object({ date: z.string() }));
      const note = await ctx.sample('A note for the ticket', { maxTokens: 20 });
      if (where.action !== 'accept' || when.action !== 'accept') return 'not booked';
      runs.push('booked');
      const content = Array.isArray(note.content) ? note.content[0] : note.content;
      const text = content?.type === 'text' ? content.text : '';
      return `Booked ${where.data.city} on ${when.data.date} for ${fare} (${text})`;
    } catch (error) {
      runs.push(
        error instanceof SessionClosedError ? `left: ${String(error.data?.reason)}` : 'failed',
      );
      throw error;
    }
  });
  mcp.tool('slow', async () => {
    runs.push('working');
    await new Promise<void>((resolve) => (releaseSlow = resolve));
    return 'done';
  });
  const running = await mcp.run({
    transport: 'http',
    port: 0,
    sessionStore,
    eventStore,
    sseRetryMs: 50,
  });
  const made = { name, running, url: running.url as string, runs };
  replicas.push(made);
  return made;
}

async function twoReplicas(stores?: { a?: SessionStore; b?: SessionStore }) {
  const sessionStore = createMemorySessionStore();
  const eventStore = createMemoryEventStore();
  const a = await replica('A', stores?.a ?? sessionStore, eventStore);
  const b = await replica('B', stores?.b ?? sessionStore, eventStore);
  return { a, b, sessionStore };
}

/** What a request is, as the balancer routes it. */
interface Routed {
  method: string;
  /** A POST that carries answers of the client's (responses), not requests. */
  answer: boolean;
  resume: boolean;
}

/**
 * The balancer: every request goes to the replica `route` picks. `cutFirstCallAfter`: the first
 * tools/call stream is torn down (a dropped connection) once it carried this text, so the client
 * resumes it.
 */
function balancer(route: (request: Routed) => Replica, cutFirstCallAfter?: string) {
  const log: string[] = [];
  let cut = false;
  const fetchLike = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const to = route({
      method: request.method,
      answer: body.includes('"result"') || body.includes('"error"'),
      resume: request.headers.has('last-event-id'),
    });
    const url = new URL(request.url);
    url.host = new URL(to.url).host;
    log.push(
      `${request.method}${request.headers.has('last-event-id') ? ' resume' : ''} ${to.name}`,
    );
    const response = await fetch(new Request(url, request));
    const cutting = cutFirstCallAfter;
    if (cutting === undefined || cut || !body.includes('"tools/call"') || response.body === null) {
      return response;
    }
    cut = true;
    const reader = response.body.getReader();
    let seen = '';
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += new TextDecoder().decode(value);
        if (seen.includes(cutting)) {
          await reader.cancel();
          controller.error(new TypeError('terminated: the connection dropped'));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(stream, { status: response.status, headers: response.headers });
  };
  return { fetch: fetchLike, log };
}

/** A person who answers at once, except `When?`, which waits for `release()`. */
function person() {
  const asked: string[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => {};
  const atWhen = new Promise<void>((resolve) => (reached = resolve));
  const client = new Client(
    { name: 'person', version: '1' },
    { capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = String(request.params.message);
    asked.push(message);
    if (message === 'Where to?') return { action: 'accept' as const, content: { city: 'Lisbon' } };
    reached();
    await released;
    return {
      action: 'accept' as const,
      content: { date: '2026-09-01' } as Record<string, string>,
    };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sample');
    return {
      model: 'test',
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'window seat' },
    };
  });
  return { client, asked, release, atWhen };
}

async function connect(
  client: Client,
  url: string,
  fetchLike: ReturnType<typeof balancer>['fetch'],
) {
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: fetchLike as typeof fetch,
      reconnectionOptions: {
        initialReconnectionDelay: 50,
        maxReconnectionDelay: 200,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries: 5,
      },
    }),
  );
}

const BOOKED = 'Booked Lisbon on 2026-09-01 for 100 (window seat)';

describe('a handshake-era call outlives its replica (http.sessionStore)', () => {
  test('a draining replica hands a waiting call over: it goes on on the other, nobody is asked twice', async () => {
    const { a, b } = await twoReplicas();
    let current = a;
    const { fetch: fetchLike } = balancer(() => current);
    const { client, asked, release, atWhen } = person();
    await connect(client, a.url, fetchLike);

    const call = client.callTool({ name: 'book', arguments: {} });
    await atWhen;
    // A rolling restart reaches A: the balancer sends the session elsewhere, A drains.
    current = b;
    await a.running.close({ graceMs: 5_000 });
    release();
    const result = await call;

    expect(textOf(result)).toBe(BOOKED);
    expect(asked).toEqual(['Where to?', 'When?', 'sample']);
    expect(a.runs).toEqual(['start', 'asking when', 'left: handed_over']);
    // B ran it again from the top: the answer to `Where to?` and the fare came from the record.
    expect(b.runs).toEqual(['start', 'asking when', 'booked']);
    expect(effects).toBe(1);
    await client.close();
  });

  test('an answer posted to another replica reaches the call where it runs', async () => {
    const { a, b } = await twoReplicas();
    // Not sticky: answers go to B, everything else to A.
    const { fetch: fetchLike, log } = balancer((request) => (request.answer ? b : a));
    const { client, asked, release, atWhen } = person();
    await connect(client, a.url, fetchLike);
    const call = client.callTool({ name: 'book', arguments: {} });
    await atWhen;
    release();
    expect(textOf(await call)).toBe(BOOKED);
    expect(asked).toEqual(['Where to?', 'When?', 'sample']);
    expect(a.runs).toEqual(['start', 'asking when', 'booked']);
    expect(b.runs).toEqual([]);
    expect(log.filter((line) => line === 'POST B').length).toBe(3);
    await client.close();
  });

  test('a dropped stream resumed on another replica follows the call while its replica runs it', async () => {
    const { a, b } = await twoReplicas();
    const { fetch: fetchLike, log } = balancer(
      (request) => (request.resume ? b : a),
      'elicitation/create',
    );
    const { client, asked, release, atWhen } = person();
    await connect(client, a.url, fetchLike);
    const call = client.callTool({ name: 'book', arguments: {} });
    await atWhen;
    release();
    expect(textOf(await call)).toBe(BOOKED);
    expect(asked).toEqual(['Where to?', 'When?', 'sample']);
    // A ran it once; B only passed its events on.
    expect(a.runs).toEqual(['start', 'asking when', 'booked']);
    expect(b.runs).toEqual([]);
    expect(log).toContain('GET resume B');
    await client.close();
  });

  test('a call whose replica is gone before it asked anything fails at once on the resumed stream, never hangs', async () => {
    const shared = createMemorySessionStore();
    // B sees A as gone (its heartbeat lapsed, as after a SIGKILL), though A's process still runs.
    const seesNoOneElse: SessionStore = {
      ...shared,
      get: async (key) => (key.startsWith('replica:') ? undefined : shared.get(key)),
    };
    const { a, b } = await twoReplicas({ a: shared, b: seesNoOneElse });
    // The call's stream drops after its first event (A is killed, as far as the client knows).
    const { fetch: fetchLike, log } = balancer((request) => (request.resume ? b : a), 'retry:');
    const { client } = person();
    await connect(client, a.url, fetchLike);
    const started = Date.now();
    await expect(client.callTool({ name: 'slow', arguments: {} })).rejects.toThrow(/shutting down/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(log).toContain('GET resume B');
    expect(a.runs).toEqual(['working']);
    expect(b.runs).toEqual([]);
  });

  test('a session store needs resumable streams: with eventStore: false it is refused, saying so', async () => {
    const mcp = new ParleyServer({ name: 'no-events', onWarning: () => {} });
    mcp.tool('noop', () => 'ok');
    await expect(
      mcp.run({
        transport: 'http',
        port: 0,
        sessionStore: createMemorySessionStore(),
        eventStore: false,
      }),
    ).rejects.toThrow(/sessionStore needs resumable streams: give an eventStore/);
    // …and a store that is not one, when the server is made, not at its first request.
    expect(
      () =>
        new ParleyServer({
          name: 'bad-store',
          http: { sessionStore: { get: async () => undefined } as never },
        }),
    ).toThrow(
      /sessionStore must be a SessionStore \(get, set, delete, notify, watch\); it has no set, delete, notify, watch/,
    );
  });
});
