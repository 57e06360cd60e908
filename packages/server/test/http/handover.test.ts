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
 * sends each request to the replica of the moment. A replica that drains while its call waits
 * on a person hands the call over: the client's stream ends, it resumes on the other replica,
 * which runs the handler again from the top, answering what was answered from the record, and
 * the person's answer, posted there, reaches the call. Nobody is asked anything twice.
 */

interface Replica {
  running: RunningServer;
  url: string;
  /** What the handler saw there: each question it reached, and how each run ended. */
  runs: string[];
}

const askWhere = elicitRequest('Where to?', z.object({ city: z.string() }));
const replicas: Replica[] = [];
let effects = 0;

afterEach(async () => {
  await Promise.allSettled(replicas.map((replica) => replica.running.close({ graceMs: 0 })));
  replicas.length = 0;
  effects = 0;
});

async function replica(sessionStore: SessionStore, eventStore: EventStore): Promise<Replica> {
  const runs: string[] = [];
  const mcp = new ParleyServer({ name: 'handover', onWarning: () => {}, onError: () => {} });
  mcp.tool('book', async (_args, ctx) => {
    try {
      runs.push('start');
      const where = await ctx.ask('where', askWhere);
      const fare = await ctx.remember('fare', () => ++effects * 100);
      runs.push('asking when');
      const when = await ctx.elicit('When?', z.object({ date: z.string() }));
      if (where.action !== 'accept' || when.action !== 'accept') return 'not booked';
      runs.push('booked');
      return `Booked ${where.data.city} on ${when.data.date} for ${fare}`;
    } catch (error) {
      runs.push(
        error instanceof SessionClosedError ? `left: ${String(error.data?.reason)}` : 'failed',
      );
      throw error;
    }
  });
  const running = await mcp.run({
    transport: 'http',
    port: 0,
    sessionStore,
    eventStore,
    sseRetryMs: 50,
  });
  const made = { running, url: running.url as string, runs };
  replicas.push(made);
  return made;
}

/** The balancer: every request goes to `to.current`, whatever URL the client had. */
function balancer(to: { current: Replica }) {
  const log: string[] = [];
  const fetchLike = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const target = new URL(to.current.url);
    url.host = target.host;
    log.push(`${request.method} ${to.current === replicas[0] ? 'A' : 'B'}`);
    return fetch(new Request(url, request));
  };
  return { fetch: fetchLike, log };
}

describe('a handshake-era call outlives its replica (http.sessionStore)', () => {
  test('a draining replica hands a waiting call over: it goes on on the other, nobody is asked twice', async () => {
    const sessionStore = createMemorySessionStore();
    const eventStore = createMemoryEventStore();
    const a = await replica(sessionStore, eventStore);
    const b = await replica(sessionStore, eventStore);
    const route = { current: a };
    const { fetch: fetchLike } = balancer(route);

    const asked: string[] = [];
    let answerWhen: (() => void) | undefined;
    const whenAsked = new Promise<void>((resolve) => {
      answerWhen = resolve;
    });
    let whenReached: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => (whenReached = resolve));
    const client = new Client(
      { name: 'person', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = String(request.params.message);
      asked.push(message);
      if (message === 'Where to?')
        return { action: 'accept' as const, content: { city: 'Lisbon' } };
      whenReached?.();
      await whenAsked; // the person takes their time
      return {
        action: 'accept' as const,
        content: { date: '2026-09-01' } as Record<string, string>,
      };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(a.url), {
        fetch: fetchLike as typeof fetch,
        reconnectionOptions: {
          initialReconnectionDelay: 50,
          maxReconnectionDelay: 200,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 5,
        },
      }),
    );

    const call = client.callTool({ name: 'book', arguments: {} });
    await reached;
    // A rolling restart reaches A: the balancer sends the session elsewhere, A drains.
    route.current = b;
    const closing = a.running.close({ graceMs: 5_000 });
    await closing;
    answerWhen?.();
    const result = await call;

    expect(textOf(result)).toBe('Booked Lisbon on 2026-09-01 for 100');
    expect(asked).toEqual(['Where to?', 'When?']);
    expect(a.runs).toEqual(['start', 'asking when', 'left: handed_over']);
    expect(b.runs).toEqual(['start', 'asking when', 'booked']);
    expect(effects).toBe(1);
    await client.close();
  });
});
