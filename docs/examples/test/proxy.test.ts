import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';
import {
  ParleyServer,
  elicitRequest,
  type RunningServer,
} from '@parley/server';

import { startProxy } from '../proxy/proxy.ts';
import { quotedJson, repoRoot, textOf } from './support.ts';

/**
 * "Proxy": the page's proxy and both host configurations, run for real. The upstream is a
 * server the proxy speaks the modern era to; in front of it, a handshake-era host over stdio
 * (the configurations, `npx @parley/cli` run from source) and a modern client over HTTP.
 */

let runs = 0;
let upstream: RunningServer;

beforeAll(async () => {
  const travel = new ParleyServer({
    name: 'travel',
    requestStateSecurity: { allowEphemeralKeys: true },
  });
  travel.tool(
    'book',
    { description: 'Asks where to' },
    async (_args, ctx) => {
      runs += 1;
      const where = await ctx.ask(
        'city',
        elicitRequest('Where to?', {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        }),
      );
      return where.action === 'accept'
        ? `Booked ${where.data.city}`
        : 'No trip';
    },
  );
  upstream = await travel.run({ transport: 'http', port: 0 });
});
afterAll(async () => {
  await upstream.close();
});

test('ParleyProxy over HTTP: a modern client, a modern upstream', async () => {
  process.env['REQUEST_STATE_KEY'] =
    'docs-example-key-ring-of-at-least-32-bytes';
  const running = await startProxy(upstream.url!, 0);
  try {
    await using client = new Client(running.url!, {
      mode: 'modern',
      elicitationHandler: () => ({ city: 'Lisbon' }),
    });
    await client.connect();
    const before = runs;
    expect(textOf(await client.callTool('book'))).toBe('Booked Lisbon');
    // A modern upstream runs its handler again in each round.
    expect(runs - before).toBe(2);
  } finally {
    await running.close();
    delete process.env['REQUEST_STATE_KEY'];
  }
});

describe.each([
  ['proxy/claude_desktop_config.json', 'mcpServers'],
  ['proxy/vscode_mcp.json', 'servers'],
] as const)('%s: a handshake-era host over stdio', (file, key) => {
  test('runs the proxy in front of the upstream', async () => {
    const config = quotedJson(file) as Record<
      string,
      Record<string, { command: string; args: string[] }>
    >;
    const { command, args } = config[key]!['travel']!;
    expect([command, ...args.slice(0, 3)]).toEqual([
      'npx',
      '-y',
      '@parley/cli',
      'proxy',
    ]);
    // `npx -y @parley/cli …` runs the package's `parley` bin: here, from source.
    const parley = [
      '--conditions=@parley/source',
      '--import',
      'tsx',
      `${repoRoot}packages/cli/src/main.ts`,
    ];
    const rest = args
      .slice(2)
      .map((word) => (word.startsWith('https://') ? upstream.url! : word));
    await using host = new Client(
      {
        command: process.execPath,
        args: [...parley, ...rest],
        cwd: repoRoot,
        stderr: 'ignore',
      },
      { mode: 'handshake', elicitationHandler: () => ({ city: 'Oslo' }) },
    );
    await host.connect();
    expect(host.era).toBe('handshake');
    expect(textOf(await host.callTool('book'))).toBe('Booked Oslo');
  });
});
