import { setTimeout as sleep } from 'node:timers/promises';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';

import { ParleyServer, elicitRequest, type RunningServer } from '../../src/index.ts';

/**
 * A person takes longer to answer than a host waits for a silent call. While a handshake-era
 * question waits, the server sends progress on the call's `progressToken`, so a host that resets
 * its timer on progress (the SDK client with `resetTimeoutOnProgress`, the MCP Inspector by
 * default) waits for the person. Real SDK v2 client, real HTTP on 127.0.0.1; the host's 60 s
 * and the server's 15 s are scaled down to 1 s and 200 ms.
 */

const HOST_TIMEOUT_MS = 1_000;
const PERSON_MS = 2_500;

let running: RunningServer | undefined;

afterEach(async () => {
  await running?.close({ graceMs: 0 });
  running = undefined;
});

async function serve(options: { waitProgressMs?: number } = {}): Promise<string> {
  const mcp = new ParleyServer({
    name: 'slow-person',
    ...options,
    onWarning: () => {},
    onError: () => {},
  });
  mcp.tool('greet', async (_args, ctx) => {
    await ctx.reportProgress(1, 3, 'looking up the guest list');
    const name = await ctx.ask('name', elicitRequest("What's your name?", String));
    await ctx.reportProgress(1, 3, 'a report that would go back');
    return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello!';
  });
  running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  return running.url as string;
}

/** A handshake-era SDK client whose person answers after `PERSON_MS`. */
async function slowPerson(url: string): Promise<Client> {
  const client = new Client(
    { name: 'slow-host', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async () => {
    await sleep(PERSON_MS);
    return { action: 'accept', content: { value: 'Ada' } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('a handshake-era question the person takes longer to answer than the host waits', () => {
  test('with progress while it waits, a host that resets its timer on progress waits for the person', async () => {
    const client = await slowPerson(await serve({ waitProgressMs: 200 }));
    const seen: { progress: number; total?: number; message?: string }[] = [];
    try {
      const result = await client.callTool(
        { name: 'greet', arguments: {} },
        {
          timeout: HOST_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => seen.push(progress),
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close();
    }
    // The handler's report, then notices while the person thought, then the handler's next
    // report lifted above them: every value above the one before.
    expect(seen[0]).toEqual({ progress: 1, total: 3, message: 'looking up the guest list' });
    const waiting = seen.filter((notice) => notice.message === "Waiting for the user's answer");
    expect(waiting.length).toBeGreaterThanOrEqual(PERSON_MS / 200 - 4);
    expect(waiting.every((notice) => notice.total === undefined)).toBe(true);
    // Steps of a thousandth, as clients show them (no binary fractions piling up).
    expect(waiting.map(({ progress }) => String(progress))).toEqual(
      waiting.map((_, index) => String(1 + (index + 1) / 1000)),
    );
    const values = seen.map((notice) => notice.progress);
    expect(values.every((value, index) => index === 0 || value > values[index - 1]!)).toBe(true);
    expect(seen.at(-1)?.message).toBe('a report that would go back');
  });

  test('without it (waitProgressMs: 0) the same host gives up before the person answers', async () => {
    const client = await slowPerson(await serve({ waitProgressMs: 0 }));
    try {
      await expect(
        client.callTool(
          { name: 'greet', arguments: {} },
          { timeout: HOST_TIMEOUT_MS, resetTimeoutOnProgress: true, onprogress: () => {} },
        ),
      ).rejects.toThrow(/timed out/i);
    } finally {
      await client.close();
    }
  });

  test('a call without a progress token gets no notices, and its host’s own timer applies', async () => {
    const client = await slowPerson(await serve({ waitProgressMs: 200 }));
    try {
      await expect(
        client.callTool({ name: 'greet', arguments: {} }, { timeout: HOST_TIMEOUT_MS }),
      ).rejects.toThrow(/timed out/i);
    } finally {
      await client.close();
    }
  });

  test('waitProgressMs is checked when the server is made', () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 31]) {
      expect(() => new ParleyServer({ name: 'x', waitProgressMs: bad })).toThrow(
        /^ParleyServer: waitProgressMs must be a whole number of milliseconds/,
      );
    }
    expect(() => new ParleyServer({ name: 'x', waitProgresMs: 1 } as never)).toThrow(
      /did you mean waitProgressMs/,
    );
  });
});
