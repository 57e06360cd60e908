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
export function bookingRound(
  url: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Reply> {
  return toolRound(url, 'book_flight', extra, headers);
}

/** One modern `tools/call` of the tool `name` (`extra` goes into its params). */
export async function toolRound(
  url: string,
  name: string,
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
      'mcp-name': name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: {
        name,
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

/** The text of a completed round's result. */
export function replyText(reply: Reply): string {
  const content = (reply.result?.content ?? []) as { type: string; text?: string }[];
  return content.map((block) => block.text ?? '').join('');
}

/**
 * A whole `book_flight` flow in three rounds (the first question answered up front), each
 * round sent to the next of `urls` in turn; the text of the last round's result.
 */
export async function bookFlight(
  urls: readonly string[],
  answers: { destination: string; date: string; passenger: string },
  start = 0,
): Promise<Reply> {
  const at = (round: number) => urls[(start + round) % urls.length]!;
  const r1 = await bookingRound(at(0), {
    inputResponses: { destination: accept({ destination: answers.destination }) },
  });
  const r2 = await bookingRound(at(1), {
    inputResponses: { date: accept({ date: answers.date }) },
    requestState: r1.result?.requestState,
  });
  return bookingRound(at(2), {
    inputResponses: { passenger: accept({ passenger: answers.passenger, confirm: true }) },
    requestState: r2.result?.requestState,
  });
}
