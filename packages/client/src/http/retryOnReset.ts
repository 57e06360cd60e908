import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * One retry, on a fresh connection, for a request that lost its connection before any answer
 * and is safe to send twice. A kept-alive connection the server closes as idle (Node's default
 * is after 5 s) can be the one the next request is written to, and that request fails with a
 * reset or "other side closed" although the server never read it: on a busy machine, where the
 * client's own idle timer fires late, that happens mid-flow. Production HTTP clients retry for
 * the same reason, and only what can be repeated: here the JSON-RPC requests that only read
 * (discovery, ping, a listing, a resource read). A tool call, a prompt, or an answer to a
 * question is never sent twice: its error reaches the caller. The session's GET stream and its
 * DELETE are left to the SDK transport, whose reconnection and session handling a lost
 * connection there is the signal for (a replica that went away, say).
 */

const READS: ReadonlySet<string> = new Set([
  'server/discover',
  'ping',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** How a connection lost before any answer shows in `fetch` (Node's undici) and in `node:net`. */
const LOST_CONNECTION: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function lostConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause !== undefined && depth < 4; depth++) {
    const code = (cause as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && LOST_CONNECTION.has(code)) return true;
    cause = (cause as { cause?: unknown } | null)?.cause;
  }
  return false;
}

function repeatable(init: RequestInit | undefined): boolean {
  if (init?.method?.toUpperCase() !== 'POST' || typeof init.body !== 'string') return false;
  try {
    const message = JSON.parse(init.body) as { method?: unknown } | null;
    return typeof message?.method === 'string' && READS.has(message.method);
  } catch {
    return false;
  }
}

export function retryOnReset(base: FetchLike): FetchLike {
  return async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      if (init?.signal?.aborted === true || !lostConnection(error) || !repeatable(init)) {
        throw error;
      }
      return base(input, init);
    }
  };
}
