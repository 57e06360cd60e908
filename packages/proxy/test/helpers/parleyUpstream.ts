import {
  ParleyServer,
  elicitRequest,
  elicitUrlRequest,
  rootsRequest,
  sampleRequest,
} from '@parley/server';
import type { RunningServer } from '@parley/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import { afterAll, beforeAll } from 'vitest';

/**
 * The upstream of the Parley-side tests: a `ParleyServer` whose tools ask every kind of
 * question, in whichever era the proxy speaks to it (it serves both; the proxy's
 * `upstreamMode` picks). `seen` counts what reached it, so a test can tell a resumed call from
 * a restarted one.
 */

export interface UpstreamSeen {
  /** Handler starts, by tool (on a modern connection: once per round). */
  starts: Record<string, number>;
  /** Calls of `slow` that saw their cancellation. */
  cancelled: number;
}

const nameForm = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
} as const;

export function buildParleyUpstream(seen: UpstreamSeen): ParleyServer {
  const mcp = new ParleyServer({
    name: 'upstream',
    requestStateSecurity: { allowEphemeralKeys: true },
    onError: () => {},
  });
  const started = (tool: string): void => {
    seen.starts[tool] = (seen.starts[tool] ?? 0) + 1;
  };
  mcp.tool(
    'greet',
    {
      description: 'Asks for a name',
      inputSchema: {
        type: 'object',
        properties: { greeting: { type: 'string', description: 'How to greet' } },
      },
    },
    async (args, ctx) => {
      started('greet');
      const answer = await ctx.ask('name', elicitRequest('Your name?', nameForm));
      if (answer.action !== 'accept') return `no name (${answer.action})`;
      return `${String(args['greeting'] ?? 'Hello')}, ${answer.data.name}!`;
    },
  );
  mcp.tool('trip', { description: 'Asks twice, one round each' }, async (_args, ctx) => {
    started('trip');
    const where = await ctx.ask('where', elicitRequest('Where to?', nameForm));
    if (where.action !== 'accept') return 'no trip';
    const when = await ctx.ask('when', elicitRequest(`When to ${where.data.name}?`, nameForm));
    if (when.action !== 'accept') return 'no date';
    return `Trip to ${where.data.name} on ${when.data.name}`;
  });
  mcp.tool('sign_in', { description: 'URL mode' }, async (_args, ctx) => {
    started('sign_in');
    const answer = await ctx.ask(
      'page',
      elicitUrlRequest('Sign in, please', 'https://example.com/sign-in'),
    );
    return `sign-in: ${answer.action}`;
  });
  mcp.tool('summarize', { description: 'Sampling and roots' }, async (_args, ctx) => {
    started('summarize');
    const { summary, roots } = await ctx.askAll({
      summary: sampleRequest('Summarize the day', { maxTokens: 50 }),
      roots: rootsRequest(),
    });
    const said = Array.isArray(summary.content) ? '?' : (summary.content as { text?: string }).text;
    return `${said} | ${roots.map((root) => root.uri).join(',')}`;
  });
  mcp.tool('fail', { description: 'A JSON-RPC error' }, () => {
    throw new ProtocolError(-32099, 'The upstream refuses', { why: 'on purpose' });
  });
  mcp.tool('broken', { description: 'A tool error result' }, () => {
    throw new Error('the work failed');
  });
  mcp.tool(
    'structured',
    {
      description: 'Structured content',
      outputSchema: {
        type: 'object',
        properties: { count: { type: 'integer' } },
        required: ['count'],
      },
    },
    () => ({
      content: [{ type: 'text' as const, text: 'three' }],
      structuredContent: { count: 3 },
    }),
  );
  mcp.tool('slow', { description: 'Progress, then waits to be cancelled' }, async (_args, ctx) => {
    started('slow');
    await ctx.reportProgress(1, 3, 'first step');
    await ctx.reportProgress(2, 3, 'second step');
    await new Promise<void>((resolve) => {
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      setTimeout(resolve, 20_000).unref();
    });
    if (ctx.signal.aborted) seen.cancelled += 1;
    return 'slow done';
  });
  mcp.prompt(
    'haiku',
    {
      description: 'A prompt that asks',
      arguments: {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: (value: unknown) => ({ value }),
          jsonSchema: {
            input: () => ({
              type: 'object',
              properties: { topic: { type: 'string', description: 'What about' } },
              required: ['topic'],
            }),
            output: () => ({ type: 'object' }),
          },
        },
      } as never,
    },
    async (args: unknown, ctx) => {
      const answer = await ctx.ask('name', elicitRequest('Whose haiku?', nameForm));
      const who = answer.action === 'accept' ? answer.data.name : 'nobody';
      return `A haiku about ${(args as { topic: string }).topic} for ${who}`;
    },
  );
  mcp.resource('notes://today', { name: 'today', mimeType: 'text/plain' }, async (_uri, ctx) => {
    const answer = await ctx.ask('name', elicitRequest('Whose notes?', nameForm));
    return `Notes of ${answer.action === 'accept' ? answer.data.name : 'nobody'}`;
  });
  mcp.resourceTemplate('notes://{day}', { name: 'notes-of-day' }, (_uri, { day }) => {
    return `Notes of ${String(day)}`;
  });
  return mcp;
}

/**
 * The upstream of a test file, over HTTP on 127.0.0.1 for the file's tests: started before
 * them, closed after. `url()` is its endpoint once started.
 */
export function useParleyUpstream(): { seen: UpstreamSeen; url: () => string } {
  const seen: UpstreamSeen = { starts: {}, cancelled: 0 };
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await buildParleyUpstream(seen).run({ transport: 'http', port: 0 });
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    seen,
    url: () => {
      if (running?.url === undefined) throw new Error('the upstream has not started');
      return running.url;
    },
  };
}
