import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type ClientMode, type ListChangedKind } from '@parley/client';
import type { ParleyServer, RunningServer } from '@parley/server';

import { ParleyProxy } from '../src/index.ts';
import { downstreamClient } from './helpers/downstream.ts';
import { buildParleyUpstream, type UpstreamSeen } from './helpers/parleyUpstream.ts';

/**
 * Parley on both sides of the proxy, over real sockets on 127.0.0.1, in all four pairings of
 * the downstream client's era and the era the proxy speaks to the upstream.
 */

const pairings: [ClientMode, ClientMode][] = [
  ['handshake', 'handshake'],
  ['handshake', 'modern'],
  ['modern', 'handshake'],
  ['modern', 'modern'],
];

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(pairings)(
  'a %s client, the proxy speaking %s upstream',
  (clientMode, upstreamMode) => {
    const seen: UpstreamSeen = { starts: {}, cancelled: 0 };
    let upstreamServer: ParleyServer;
    let upstream: RunningServer;
    let proxy: ParleyProxy;
    let running: RunningServer;
    let url: string;

    beforeAll(async () => {
      upstreamServer = buildParleyUpstream(seen);
      upstream = await upstreamServer.run({ transport: 'http', port: 0 });
      proxy = new ParleyProxy({
        upstream: upstream.url!,
        upstreamMode,
        server: { requestStateSecurity: { allowEphemeralKeys: true }, onError: () => {} },
      });
      running = await proxy.run({ transport: 'http', port: 0 });
      url = running.url!;
    });
    afterAll(async () => {
      await running.close();
      await upstream.close();
    });

    it('lists what the upstream lists, schemas as written', async () => {
      const { client } = downstreamClient(url, clientMode);
      await client.connect();
      expect(client.era).toBe(clientMode);
      const tools = await client.listTools();
      const greet = tools.find((tool) => tool.name === 'greet');
      expect(greet?.description).toBe('Asks for a name');
      expect(greet?.inputSchema).toEqual({
        type: 'object',
        properties: { greeting: { type: 'string', description: 'How to greet' } },
      });
      expect(tools.find((tool) => tool.name === 'structured')?.outputSchema).toEqual({
        type: 'object',
        properties: { count: { type: 'integer' } },
        required: ['count'],
      });
      const prompts = await client.listPrompts();
      expect(prompts.find((prompt) => prompt.name === 'haiku')?.arguments).toEqual([
        { name: 'topic', description: 'What about', required: true },
      ]);
      expect((await client.listResources()).map((resource) => resource.uri)).toEqual([
        'notes://today',
      ]);
      expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
        'notes://{day}',
      ]);
      await client.close();
    });

    it('relays a form elicitation, resuming the held upstream call rather than restarting it', async () => {
      const { client, rounds } = downstreamClient(url, clientMode);
      await client.connect();
      const before = seen.starts['greet'] ?? 0;
      const result = await client.callTool('greet', { greeting: 'Hi' });
      expect(result.content).toEqual([{ type: 'text', text: 'Hi, Ada!' }]);
      expect(rounds.map((round) => [round.era, Object.values(round.asked)[0]?.method])).toEqual([
        [clientMode, 'elicitation/create'],
      ]);
      // Under the upstream's own key (`ctx.ask('name', …)`), whichever era is on either side.
      expect(rounds.map((round) => Object.keys(round.asked))).toEqual([['name']]);
      // A handshake-era upstream runs its handler once; a modern one once per round.
      expect((seen.starts['greet'] ?? 0) - before).toBe(upstreamMode === 'handshake' ? 1 : 2);
      expect(proxy.heldCalls).toBe(0);
      await client.close();
    });

    it('relays a multi-round ask, one downstream round per upstream ask', async () => {
      const { client, messages } = downstreamClient(url, clientMode);
      await client.connect();
      const before = seen.starts['trip'] ?? 0;
      const result = await client.callTool('trip');
      expect(result.content).toEqual([{ type: 'text', text: 'Trip to Lisbon on Friday' }]);
      expect(messages).toEqual(['Where to?', 'When to Lisbon?']);
      expect((seen.starts['trip'] ?? 0) - before).toBe(upstreamMode === 'handshake' ? 1 : 3);
      await client.close();
    });

    it('relays decline and cancel as they were given', async () => {
      for (const action of ['decline', 'cancel'] as const) {
        const { client } = downstreamClient(url, clientMode, () => ({ action }));
        await client.connect();
        const result = await client.callTool('greet');
        expect(result.content).toEqual([{ type: 'text', text: `no name (${action})` }]);
        await client.close();
      }
    });

    it('relays a URL-mode elicitation', async () => {
      const { client, rounds } = downstreamClient(url, clientMode);
      await client.connect();
      const result = await client.callTool('sign_in');
      expect(result.content).toEqual([{ type: 'text', text: 'sign-in: accept' }]);
      const asked = Object.values(rounds[0]!.asked)[0] as { params: Record<string, unknown> };
      expect(asked.params).toMatchObject({
        mode: 'url',
        message: 'Sign in, please',
        url: 'https://example.com/sign-in',
      });
      await client.close();
    });

    it('relays sampling and roots', async () => {
      const { client } = downstreamClient(url, clientMode);
      await client.connect();
      const result = await client.callTool('summarize');
      expect(result.content).toEqual([
        { type: 'text', text: 'summary of "Summarize the day" | file:///work' },
      ]);
      await client.close();
    });

    it('relays a prompt and a resource that ask, and a template that does not', async () => {
      const { client } = downstreamClient(url, clientMode);
      await client.connect();
      const prompt = await client.getPrompt('haiku', { topic: 'rain' });
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'A haiku about rain for Basho' } },
      ]);
      const today = await client.readResource('notes://today');
      expect(today.contents).toEqual([
        { uri: 'notes://today', mimeType: 'text/plain', text: 'Notes of Grace' },
      ]);
      const monday = await client.readResource('notes://monday');
      expect(monday.contents[0]).toMatchObject({ uri: 'notes://monday', text: 'Notes of monday' });
      await client.close();
    });

    it('relays structured content and a tool error result', async () => {
      const { client } = downstreamClient(url, clientMode);
      await client.connect();
      const structured = await client.callTool('structured');
      expect(structured.structuredContent).toEqual({ count: 3 });
      expect(structured.content).toEqual([{ type: 'text', text: 'three' }]);
      const broken = await client.callTool('broken');
      expect(broken.isError).toBe(true);
      expect(broken.content).toEqual([{ type: 'text', text: 'the work failed' }]);
      await client.close();
    });

    it('relays an upstream JSON-RPC error with its code, message and data', async () => {
      const { client } = downstreamClient(url, clientMode);
      await client.connect();
      const error = await client.callTool('fail').catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: -32099,
        message: 'The upstream refuses',
        data: { why: 'on purpose' },
      });
      await client.close();
    });

    it('relays progress, and a cancellation reaches the upstream', async () => {
      const { client } = downstreamClient(url, clientMode);
      await client.connect();
      const progress: unknown[] = [];
      const controller = new AbortController();
      const before = seen.cancelled;
      const call = client.callTool(
        'slow',
        {},
        {
          signal: controller.signal,
          onProgress: (event) => {
            progress.push(event);
            if (progress.length === 2) controller.abort(new Error('changed my mind'));
          },
        },
      );
      await expect(call).rejects.toThrow('changed my mind');
      expect(progress).toEqual([
        { progress: 1, total: 3, message: 'first step' },
        { progress: 2, total: 3, message: 'second step' },
      ]);
      await until(() => seen.cancelled === before + 1, 'the upstream to see the cancellation');
      await client.close();
    });

    it('relays a list change: a tool the upstream adds is listed and called', async () => {
      const changes: ListChangedKind[] = [];
      await using client = new Client(url, {
        mode: clientMode,
        onListChanged: (kind) => changes.push(kind),
      });
      await client.connect();
      expect((await client.listTools()).map((tool) => tool.name)).not.toContain('late');
      upstreamServer.tool('late', { description: 'Added while serving' }, () => 'late but here');
      await until(() => changes.includes('tools'), 'the list change to reach the client');
      expect((await client.listTools()).map((tool) => tool.name)).toContain('late');
      const result = await client.callTool('late');
      expect(result.content).toEqual([{ type: 'text', text: 'late but here' }]);
    });
  },
);
