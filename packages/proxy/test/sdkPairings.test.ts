import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientTarget } from '@parley/client';
import type { RunningServer } from '@parley/server';

import { ParleyProxy } from '../src/index.ts';
import { sdkClient, type SdkEra } from './helpers/sdkClient.ts';
import { startSdkModernServer, type SdkModernServer } from './helpers/sdkModernHttp.ts';
import { sdkHandshakeStdio } from './helpers/stdioUpstream.ts';

/**
 * The raw MCP SDK v2 on both sides of the proxy: its client in either era downstream, and
 * upstream its modern-only HTTP server (`legacy: 'reject'`) or its handshake-era stdio server
 * (a child process whose every ask is a pushed request).
 */

interface UpstreamKind {
  era: 'modern' | 'handshake';
  /** The tool names for: one form, two forms, a URL, sampling with roots, an error. */
  tools: { form: string; trip: string; url?: string; survey: string; fail: string };
  survey: string;
  form: string;
}

const MODERN: UpstreamKind = {
  era: 'modern',
  tools: { form: 'book_trip', trip: 'book_trip', survey: 'survey', fail: 'fail' },
  survey: 'fun | file:///work | summary of "Summarize the day"',
  form: 'Trip to Lisbon on Friday',
};
const HANDSHAKE: UpstreamKind = {
  era: 'handshake',
  tools: {
    form: 'push_name',
    trip: 'push_trip',
    url: 'push_url',
    survey: 'push_survey',
    fail: 'push_fail',
  },
  survey: 'summary of "Summarize the day" | file:///work',
  form: 'Hello Ada',
};

const pairings: [SdkEra, UpstreamKind][] = [
  ['handshake', MODERN],
  ['modern', MODERN],
  ['handshake', HANDSHAKE],
  ['modern', HANDSHAKE],
];

const textOf = (result: unknown): string =>
  ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;

describe.each(pairings)('the SDK client (%s) in front of the SDK upstream', (clientEra, kind) => {
  let sdkServer: SdkModernServer | undefined;
  let proxy: ParleyProxy;
  let running: RunningServer;
  let url: string;

  beforeAll(async () => {
    let upstream: ClientTarget;
    if (kind.era === 'modern') {
      sdkServer = await startSdkModernServer();
      upstream = sdkServer.url;
    } else {
      upstream = sdkHandshakeStdio();
    }
    proxy = new ParleyProxy({
      upstream,
      upstreamMode: kind.era,
      server: { requestStateSecurity: { allowEphemeralKeys: true }, onError: () => {} },
    });
    running = await proxy.run({ transport: 'http', port: 0 });
    url = running.url!;
  });
  afterAll(async () => {
    await running.close();
    await sdkServer?.close();
  });

  it(`(${kind.era} upstream) relays form elicitations across rounds`, async () => {
    const { client, asked, close } = await sdkClient(url, clientEra);
    const result = await client.callTool({ name: kind.tools.trip, arguments: {} });
    expect(textOf(result)).toBe('Trip to Lisbon on Friday');
    expect(asked).toEqual(['Where to?', 'When to Lisbon?']);
    if (kind.era === 'modern') {
      // The SDK server ran once per upstream round: the proxy drove them, never repeated one.
      expect(sdkServer!.entries['book_trip']).toBe(3);
    }
    await close();
  });

  it(`(${kind.era} upstream) relays a decline`, async () => {
    const { client, close } = await sdkClient(url, clientEra, () => ({ action: 'decline' }));
    const result = await client.callTool({ name: kind.tools.form, arguments: {} });
    expect(textOf(result)).toBe(kind.era === 'modern' ? 'no trip (decline)' : 'decline');
    await close();
  });

  it(`(${kind.era} upstream) relays sampling and roots`, async () => {
    const { client, close } = await sdkClient(url, clientEra);
    const result = await client.callTool({ name: kind.tools.survey, arguments: {} });
    expect(textOf(result)).toBe(kind.survey);
    await close();
  });

  it.runIf(kind.tools.url !== undefined)(`(${kind.era} upstream) relays URL mode`, async () => {
    const { client, asked, close } = await sdkClient(url, clientEra);
    const result = await client.callTool({ name: kind.tools.url!, arguments: {} });
    expect(textOf(result)).toBe('sign-in: accept');
    expect(asked).toEqual(['Sign in, please']);
    await close();
  });

  it(`(${kind.era} upstream) relays the upstream's failure as it was`, async () => {
    // The SDK's McpServer answers an error thrown in a tool with an error result.
    const { client, close } = await sdkClient(url, clientEra);
    const result = await client.callTool({ name: kind.tools.fail, arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The upstream refuses' }],
    });
    await close();
  });
});
