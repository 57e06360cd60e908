/**
 * A real SDK v2 client connected in-process to a Parley server, in either era, and raw modern
 * JSON-RPC for the rounds no well-behaved client sends (answers without state, a state carried to
 * another replica, a tampered state).
 */
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { ElicitResult } from '@parley/core';
import type { ParleyServer } from '@parley/server';

export type TestEra = 'handshake' | 'modern';

export interface Connected {
  client: Client;
  /** The messages of the elicitations the client answered, in order. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * Connect a real SDK client that answers elicitations with `answer(message)`: over an in-memory
 * pair on the handshake era, through the server's `fetch` face pinned to 2026-07-28 otherwise
 * (the SDK's own input_required driver answers and retries every round).
 */
export async function connect(
  server: ParleyServer,
  era: TestEra,
  answer: (message: string) => ElicitResult = () => ({ action: 'decline' }),
): Promise<Connected> {
  const asked: string[] = [];
  const client = new Client(
    { name: 'middleware-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = String(request.params.message);
    asked.push(message);
    return answer(message) as never;
  });
  let closeServer = async (): Promise<void> => {};
  if (era === 'handshake') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const sdkServer = await server.connect(serverSide);
    closeServer = () => sdkServer.close();
    await client.connect(clientSide);
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://parley.test/mcp'), {
        fetch: (input, init) => server.fetch(new Request(input, init)),
      }),
    );
  }
  return {
    client,
    asked,
    close: async () => {
      await client.close();
      await closeServer();
    },
  };
}

/** The text of a result's content blocks. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

export interface RawResult {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

/** One modern `tools/call` as raw JSON-RPC, exactly as given. */
export async function rawToolCall(
  server: ParleyServer,
  call: {
    name: string;
    arguments?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    requestState?: string;
  },
): Promise<RawResult> {
  const params = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    },
    name: call.name,
    arguments: call.arguments ?? {},
    ...(call.inputResponses !== undefined ? { inputResponses: call.inputResponses } : {}),
    ...(call.requestState !== undefined ? { requestState: call.requestState } : {}),
  };
  const response = await server.fetch(
    new Request('http://parley.test/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': call.name,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params }),
    }),
  );
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .at(-1)
        ?.slice(6) ?? '{}');
  return JSON.parse(json) as RawResult;
}

/** An accepted elicitation answer, as a client sends it back. */
export function accepted(content: Record<string, string | number | boolean>): ElicitResult {
  return { action: 'accept', content };
}
