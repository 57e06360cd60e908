/**
 * Memory per handshake-era session left waiting on its user: sessions opened, each with a call
 * whose `ctx.elicit` (or `elicitInput`) has asked and is waiting, heap and RSS after a full GC
 * before and after, per session.
 */
import { handshakeFlow, pendingElicitation } from './flows.ts';
import { ask, start, stop, type Kind } from './harness.ts';

export async function pendingMemory(
  kind: Extract<Kind, 'parley' | 'sdkSessions'>,
  sessions: number,
): Promise<{ heapPerSession: number; rssPerSession: number }> {
  const { child, url } = await start(kind);
  // Warm the code paths (and the pools) first, so only the sessions are counted.
  for (let i = 0; i < 20; i++) await handshakeFlow(url, []);
  const drops = [];
  for (let i = 0; i < 10; i++) drops.push(await pendingElicitation(url));
  const before = await ask<{ heapUsed: number; rss: number }>(child, 'memory', 'memory');
  for (let i = 0; i < sessions; i++) drops.push(await pendingElicitation(url));
  const after = await ask<{ heapUsed: number; rss: number }>(child, 'memory', 'memory');
  await Promise.all(drops.map((drop) => drop()));
  await stop(child);
  return {
    heapPerSession: (after.heapUsed - before.heapUsed) / sessions,
    rssPerSession: (after.rss - before.rss) / sessions,
  };
}
