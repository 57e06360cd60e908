import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client, type InProcessServer } from '@parley/client';
import type { RunningServer } from '@parley/server';
import { generateKey } from '@parley/state-sealing';

import { createHandler, verifyToken } from '../deployment/authenticated.ts';
import * as hono from '../deployment/hono.ts';
import { serve } from '../deployment/http.ts';
import worker from '../deployment/worker.ts';
import * as bookFlight from '../elicitation/bookFlight.ts';
import { eras, textOf } from './support.ts';

describe('HTTP on Node', () => {
  let running: RunningServer;
  let forgetSignals = () => {};
  beforeAll(async () => {
    const original = console.error;
    console.error = () => {}; // the "Serving …" line
    try {
      ({ running, forgetSignals } = await serve(0));
    } finally {
      console.error = original;
    }
  });
  afterAll(() => {
    forgetSignals();
    return running?.close();
  });

  test.each(eras)('one endpoint, %s era', async (era) => {
    await using client = new Client(running.url!, {
      mode: era,
      elicitationHandler: () => 4,
    });
    await client.connect();
    expect(client.era).toBe(era);
    expect(textOf(await client.callTool('book_table'))).toBe('Table for 4');
  });
});

describe('inside a Hono app, through fetch', () => {
  let listening: Awaited<ReturnType<typeof hono.listen>>;
  beforeAll(async () => {
    const original = console.error;
    console.error = () => {}; // the "Serving …" line
    try {
      listening = await hono.listen(0);
    } finally {
      console.error = original;
    }
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        (
          listening.server as { closeAllConnections?: () => void }
        ).closeAllConnections?.();
        listening.server.close(() => resolve());
      }),
  );

  test.each(eras)('%s era, over a real socket', async (era) => {
    await using client = new Client(listening.url, {
      mode: era,
      elicitationHandler: () => 2,
    });
    await client.connect();
    expect(client.era).toBe(era);
    expect(textOf(await client.callTool('book_table'))).toBe('Table for 2');
  });

  test('the app’s other routes stay the app’s', async () => {
    const response = await hono.app.fetch(
      new Request('http://127.0.0.1/health'),
    );
    expect(await response.text()).toBe('ok');
  });
});

test('a serverless fetch handler: stateless, modern era', async () => {
  const env = { REQUEST_STATE_KEY: generateKey() };
  const host: InProcessServer = {
    fetch: (request) => worker.fetch(request, env),
    connect: () => Promise.reject(new Error('a worker has no sessions')),
  };
  await using client = new Client(host, {
    mode: 'modern',
    elicitationHandler: () => 'Ada',
  });
  await client.connect();
  expect(textOf(await client.callTool('greet'))).toBe('Hello, Ada!');
});

describe('authenticated requests bind state to the user', () => {
  const mcp = bookFlight.createServer({ onError: () => {} });
  const handler = createHandler(mcp);

  /** Sends each request with the token `tokens[i]` (the last one repeats). */
  function as(...tokens: string[]): InProcessServer {
    let request = 0;
    return {
      connect: (transport) => mcp.connect(transport),
      fetch(original) {
        const headers = new Headers(original.headers);
        headers.set(
          'authorization',
          `Bearer ${tokens[Math.min(request++, tokens.length - 1)]}`,
        );
        return handler(new Request(original, { headers }));
      },
    };
  }

  async function book(host: InProcessServer) {
    await using client = new Client(host, {
      mode: 'modern',
      elicitationHandler: (message, responseType) =>
        message.includes('Where')
          ? responseType({ destination: 'Paris' })
          : responseType({ date: '2026-08-01' }),
    });
    await client.connect();
    return (await client.callTool<string>('book_flight')).data;
  }

  test('the same user all the way: booked', async () => {
    expect(await book(as('token-of-ada'))).toBe(
      'Booked a flight to Paris on 2026-08-01',
    );
  });

  test('state minted for one user does not open for another', async () => {
    await expect(
      book(as('token-of-ada', 'token-of-ada', 'token-of-bob')),
    ).rejects.toThrow('Invalid or expired requestState');
  });

  test('no valid token, no call', async () => {
    expect(verifyToken('forged')).toBeUndefined();
    await expect(book(as('forged'))).rejects.toThrow();
  });
});
