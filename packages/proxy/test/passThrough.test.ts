import { describe, expect, it } from 'vitest';
import { Client, type RoundEvent } from '@parley/client';

import { ParleyProxy } from '../src/index.ts';
import { ANSWERS } from './helpers/downstream.ts';
import { useParleyUpstream } from './helpers/parleyUpstream.ts';

/**
 * A modern client in front of a modern upstream: each round passes through untouched, so the
 * proxy holds nothing between rounds. Every proxy here seals with a random key of its own (no
 * shared key ring), the way two replicas without configuration, or one restarted, would: a
 * call whose rounds reach different proxies still completes, and the `requestState` the client
 * carries is the upstream's own, which the upstream takes back directly.
 */

const proxyOptions = (upstream: string) => ({
  upstream,
  upstreamMode: 'modern' as const,
  server: { requestStateSecurity: { allowEphemeralKeys: true }, onError: () => {} },
});

/** A modern client whose requests go wherever `route` says, per request, in order. */
function routedClient(
  first: string,
  route: (index: number) => string,
  onAsk?: () => Promise<void>,
): { client: Client; rounds: RoundEvent[]; targets: string[] } {
  const rounds: RoundEvent[] = [];
  const targets: string[] = [];
  const client = new Client(first, {
    mode: 'modern',
    elicitationHandler: async (message) => {
      await onAsk?.();
      return ANSWERS[message] ?? { action: 'decline' };
    },
    onRound: (event) => rounds.push(event),
    fetch: (input, init) => {
      const target = route(targets.length);
      targets.push(target);
      return fetch(String(input).replace(first, target), init);
    },
  });
  return { client, rounds, targets };
}

describe('a modern client through the proxy to a modern upstream', () => {
  const { seen, url: upstreamUrl } = useParleyUpstream();

  it('passes rounds through: any proxy carries the next round, and nothing is held', async () => {
    const [one, two] = [
      new ParleyProxy(proxyOptions(upstreamUrl())),
      new ParleyProxy(proxyOptions(upstreamUrl())),
    ];
    const a = await one.run({ transport: 'http', port: 0 });
    const b = await two.run({ transport: 'http', port: 0 });
    // Every request to the other proxy than the one before: no affinity at all.
    const { client, rounds, targets } = routedClient(a.url!, (index) =>
      index % 2 === 0 ? a.url! : b.url!,
    );
    let heldDuringAsks = 0;
    const before = seen.starts['trip'] ?? 0;
    await client.connect();
    const result = await client.callTool('trip', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'Trip to Lisbon on Friday' }]);
    heldDuringAsks = one.heldCalls + two.heldCalls;
    expect(heldDuringAsks).toBe(0);
    expect(new Set(targets)).toEqual(new Set([a.url!, b.url!]));
    // Three upstream runs (ask, ask, result), under the upstream's own keys.
    expect((seen.starts['trip'] ?? 0) - before).toBe(3);
    expect(rounds.map((round) => Object.keys(round.asked))).toEqual([['where'], ['when']]);
    await client.close();
    await a.close();
    await b.close();
  });

  it('the requestState the client holds is the upstream’s: the upstream takes it back directly', async () => {
    const proxy = new ParleyProxy(proxyOptions(upstreamUrl()));
    const running = await proxy.run({ transport: 'http', port: 0 });
    // The clients declare elicitation; sendRound answers nothing itself.
    const declares = {
      mode: 'modern' as const,
      elicitationHandler: () => Promise.reject(new Error('not asked')),
    };
    const viaProxy = new Client(running.url!, declares);
    await viaProxy.connect();
    const asked = await viaProxy.sendRound({ method: 'tools/call', params: { name: 'trip' } });
    expect(asked).toMatchObject({ resultType: 'input_required', inputRequests: { where: {} } });
    const where = { where: { action: 'accept' as const, content: { name: 'Lisbon' } } };
    const second = await viaProxy.sendRound({
      method: 'tools/call',
      params: {
        name: 'trip',
        inputResponses: where,
        requestState: asked['requestState'] as string,
      },
    });
    expect(second).toMatchObject({
      inputRequests: { when: { params: { message: 'When to Lisbon?' } } },
    });
    expect(proxy.heldCalls).toBe(0);
    // No proxy at all for the last round: the state was never the proxy's.
    const direct = new Client(upstreamUrl(), declares);
    await direct.connect();
    const done = await direct.sendRound({
      method: 'tools/call',
      params: {
        name: 'trip',
        inputResponses: { when: { action: 'accept' as const, content: { name: 'Friday' } } },
        requestState: second['requestState'] as string,
      },
    });
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'Trip to Lisbon on Friday' }] });
    await direct.close();
    await viaProxy.close();
    await running.close();
  });

  it('a proxy restarted between rounds: the call goes on through the new process', async () => {
    const first = new ParleyProxy(proxyOptions(upstreamUrl()));
    let running = await first.run({ transport: 'http', port: 0 });
    const firstUrl = running.url!;
    let current = firstUrl;
    let restarted = false;
    const { client } = routedClient(
      firstUrl,
      () => current,
      async () => {
        if (restarted) return;
        restarted = true;
        // The person takes their time; meanwhile the proxy is replaced by a new process.
        await running.close();
        running = await new ParleyProxy(proxyOptions(upstreamUrl())).run({
          transport: 'http',
          port: 0,
        });
        current = running.url!;
      },
    );
    await client.connect();
    const result = await client.callTool('greet', { greeting: 'Hello' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(current).not.toBe(firstUrl);
    await client.close();
    await running.close();
  });

  it('middleware on proxy.server runs around each round passed through', async () => {
    const proxy = new ParleyProxy(proxyOptions(upstreamUrl()));
    const rounds: string[] = [];
    proxy.server.use(async (context, callNext) => {
      const value = await callNext();
      const asked = Object.keys((value as { inputRequests?: object }).inputRequests ?? {});
      rounds.push(`${context.handler?.name ?? '-'}: ${asked.length > 0 ? asked.join() : 'done'}`);
      return value;
    });
    const running = await proxy.run({ transport: 'http', port: 0 });
    let heldWhileAsked = -1;
    const { client } = routedClient(
      running.url!,
      () => running.url!,
      async () => {
        heldWhileAsked = proxy.heldCalls;
      },
    );
    await client.connect();
    const result = await client.callTool('greet', { greeting: 'Hey' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hey, Ada!' }]);
    expect(heldWhileAsked).toBe(0);
    expect(rounds).toEqual(['greet: name', 'greet: done']);
    await client.close();
    await running.close();
  });
});
