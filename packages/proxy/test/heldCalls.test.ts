import { describe, expect, it } from 'vitest';
import { Client, InvalidRequestStateError } from '@parley/client';

import { ParleyProxy } from '../src/index.ts';
import { downstreamClient } from './helpers/downstream.ts';
import { useParleyUpstream } from './helpers/parleyUpstream.ts';

/**
 * A modern client in front of a handshake-era upstream: the proxy holds the upstream call
 * between the client's rounds. When the call is gone (the proxy restarted, or the call timed
 * out waiting) the client's next round gets a typed error at once, never a hang.
 */

const KEY = 'a-shared-key-ring-secret-of-at-least-32-bytes';

describe('held calls', () => {
  const { url: upstreamUrl } = useParleyUpstream();

  const proxyOf = (heldCallTimeoutMs?: number) =>
    new ParleyProxy({
      upstream: upstreamUrl(),
      upstreamMode: 'handshake',
      ...(heldCallTimeoutMs === undefined ? {} : { heldCallTimeoutMs }),
      server: { requestStateSecurity: { keys: [KEY] }, onError: () => {} },
    });

  it('a round that comes back to another proxy process gets a typed error', async () => {
    const first = proxyOf();
    const second = proxyOf();
    const a = await first.run({ transport: 'http', port: 0 });
    const b = await second.run({ transport: 'http', port: 0 });
    // The client's first round reaches the first proxy; once it has been asked, the next round
    // goes to the second one (as after a restart, or a balancer without affinity).
    let asked = false;
    const routed = new Client(a.url!, {
      mode: 'modern',
      elicitationHandler: () => {
        asked = true;
        return { name: 'Ada' };
      },
      fetch: (input, init) => fetch(asked ? String(input).replace(a.url!, b.url!) : input, init),
    });
    await routed.connect();
    const error = await routed.callTool('greet').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestStateError);
    expect(((error as Error).cause as Error).message).toContain(
      'The proxy no longer holds the upstream call',
    );
    expect(first.heldCalls).toBe(1);
    expect(second.heldCalls).toBe(0);
    await routed.close();
    await a.close();
    await b.close();
    expect(first.heldCalls).toBe(0);
  });

  it('a held call times out: the upstream call is cancelled and the late round refused', async () => {
    const proxy = proxyOf(100);
    const running = await proxy.run({ transport: 'http', port: 0 });
    const { client } = downstreamClient(running.url!, 'modern', async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { name: 'Ada' };
    });
    await client.connect();
    const error = await client.callTool('greet').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestStateError);
    expect(proxy.heldCalls).toBe(0);
    await client.close();
    await running.close();
  });
});
