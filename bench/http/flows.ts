/**
 * The client's side of the handshake-era booking flow, over plain `fetch` (the modern flow is
 * the load generator's, in `loadClient.ts`): initialize, a call whose `ctx.elicit` asks arrive
 * on its SSE stream and are answered by POST, delete; and sessions left waiting on their first
 * question (for memory per pending session).
 */

type Message = { id?: unknown; method?: string; result?: unknown; error?: unknown };

/** The JSON-RPC messages of an SSE body, as they arrive. */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<Message> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data.length > 0) yield JSON.parse(data) as Message;
    }
  }
}

const handshakeHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

async function post(
  url: string,
  message: unknown,
  session: string | undefined,
  latencies: number[],
): Promise<Response> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...handshakeHeaders,
      ...(session !== undefined
        ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }
        : {}),
    },
    body: JSON.stringify(message),
  });
  latencies.push(performance.now() - started);
  return response;
}

/** The first message of a response, JSON or SSE. */
async function firstMessage(response: Response): Promise<Message> {
  if (response.headers.get('content-type')?.startsWith('application/json')) {
    return (await response.json()) as Message;
  }
  for await (const message of events(response.body as ReadableStream<Uint8Array>)) return message;
  throw new Error('no message');
}

/** Open a handshake-era session; resolves with its id. */
export async function openSession(url: string, latencies: number[]): Promise<string> {
  const init = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'bench', version: '1' },
      },
    },
    undefined,
    latencies,
  );
  const session = init.headers.get('mcp-session-id');
  const reply = await firstMessage(init);
  if (session === null || reply.result === undefined)
    throw new Error(`initialize failed: ${JSON.stringify(reply)}`);
  const initialized = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    session,
    latencies,
  );
  await initialized.body?.cancel();
  return session;
}

/** A handshake-era booking: the call's questions arrive on its stream and are answered by POST. */
export async function handshakeFlow(url: string, latencies: number[]): Promise<number> {
  const session = await openSession(url, latencies);
  const call = await post(
    url,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'book_flight', arguments: {} } },
    session,
    latencies,
  );
  let requests = 3;
  let booked: unknown;
  for await (const message of events(call.body as ReadableStream<Uint8Array>)) {
    if (message.method === 'elicitation/create') {
      const content = requests === 3 ? { destination: 'Paris' } : { date: '2026-08-01' };
      const answered = await post(
        url,
        { jsonrpc: '2.0', id: message.id, result: { action: 'accept', content } },
        session,
        latencies,
      );
      await answered.body?.cancel();
      requests++;
    } else if (message.id === 2) {
      booked = message.result;
      break;
    }
  }
  const text = (booked as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text;
  if (text !== 'Booked a flight to Paris on 2026-08-01')
    throw new Error(`the handshake flow did not complete: ${JSON.stringify(booked)}`);
  const started = performance.now();
  const deleted = await fetch(url, {
    method: 'DELETE',
    headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
  });
  await deleted.body?.cancel();
  latencies.push(performance.now() - started);
  return requests + 1;
}

/**
 * Open a session and start a call that asks the user, and leave the question unanswered; the
 * returned function drops the stream.
 */
export async function pendingElicitation(url: string): Promise<() => Promise<void>> {
  const latencies: number[] = [];
  const session = await openSession(url, latencies);
  const call = await post(
    url,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'book_flight', arguments: {} } },
    session,
    latencies,
  );
  const stream = events(call.body as ReadableStream<Uint8Array>);
  for (;;) {
    const { value, done } = await stream.next();
    if (done) throw new Error('the call ended before it asked');
    if (value.method === 'elicitation/create') break;
  }
  return async () => {
    await stream.return(undefined);
  };
}
