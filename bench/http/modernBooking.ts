/**
 * The modern-era booking flow as every bench client sends it, whatever carries the requests
 * (undici in `loadClient.ts`, a listener called in-process in `inProcess.ts`, `fetch` in
 * `coldStarts.ts`): the headers, the `_meta` of a 2026-07-28 call, and the three rounds (where to,
 * when, booked), each echoing the state the last one returned.
 */

export const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'book_flight',
};

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/** The JSON-RPC body of one `book_flight` round; `extra` adds answers and state. */
export function bookingCall(id: number, extra: object): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'book_flight', arguments: {}, _meta: MODERN_META, ...extra },
  });
}

/** Sends one round (`extra` as in {@link bookingCall}) and resolves with its JSON-RPC result. */
export type SendRound = (extra: object) => Promise<Record<string, unknown>>;

/** One whole booking flow; rejects unless its third round completes. */
export async function bookingFlow(send: SendRound): Promise<void> {
  const first = await send({});
  const second = await send({
    inputResponses: { destination: { action: 'accept', content: { destination: 'Paris' } } },
    requestState: first.requestState,
  });
  const third = await send({
    inputResponses: { date: { action: 'accept', content: { date: '2026-08-01' } } },
    requestState: second.requestState,
  });
  if (third.resultType !== 'complete') {
    throw new Error(`the flow did not complete: ${JSON.stringify(third)}`);
  }
}
