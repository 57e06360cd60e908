/**
 * One modern-era `tools/call book_flight` round as a bare HTTP client sends it (no Parley
 * client, no telemetry): for the tests that steer a booking flow across replicas by hand.
 */

let nextId = 1;

export interface Reply {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** One modern `tools/call book_flight` request, as a client without telemetry sends it. */
export async function bookingRound(
  url: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'book_flight',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: {
        name: 'book_flight',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          ...(extra._meta as object | undefined),
        },
        ...Object.fromEntries(Object.entries(extra).filter(([key]) => key !== '_meta')),
      },
    }),
  });
  return (await response.json()) as Reply;
}

/** An accepted answer with `content`. */
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
