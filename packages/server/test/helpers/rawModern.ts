/**
 * Raw 2026-07-28 JSON-RPC over a server's web-standard `fetch` face: what an attacker, a buggy
 * client or a conformance harness can send, without any client library smoothing it.
 */
import type { ParleyServer } from '../../src/index.ts';

let nextId = 1;

/** The routing headers of a raw 2026-07-28 request (`Mcp-Name` when there is a name). */
function modernHeaders(method: string, name: unknown): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  };
}

/**
 * One raw 2026-07-28 request of any method: the body with the era's `_meta`, and the routing
 * headers (`Mcp-Method`, and `Mcp-Name` from the tool name or task id when there is one).
 * The same for `server.fetch(new Request(url, init))` and `fetch(url, init)` over a socket.
 */
export function modernRequestInit(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
): RequestInit {
  const name = method === 'tools/call' ? params.name : params.taskId;
  return {
    method: 'POST',
    headers: modernHeaders(method, name),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
        },
      },
    }),
  };
}

export interface RawResponse {
  status: number;
  body: {
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

export interface RawCall {
  method?: 'tools/call' | 'prompts/get' | 'resources/read';
  name?: string;
  uri?: string;
  arguments?: Record<string, unknown>;
  inputResponses?: unknown;
  requestState?: unknown;
  capabilities?: Record<string, unknown>;
  /** JSON text spliced in as `arguments`, for values `JSON.stringify` cannot write (5,000 deep). */
  argumentsJson?: string;
  /** JSON text spliced in as `inputResponses`, likewise. */
  inputResponsesJson?: string;
}

export async function rawModernCall(server: ParleyServer, call: RawCall): Promise<RawResponse> {
  const method = call.method ?? 'tools/call';
  const id = nextId++;
  const params: Record<string, unknown> = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': call.capabilities ?? {
        elicitation: { form: {} },
      },
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    },
    ...(method === 'resources/read'
      ? { uri: call.uri }
      : {
          name: call.name,
          arguments: call.argumentsJson !== undefined ? '@@arguments@@' : (call.arguments ?? {}),
        }),
    ...('inputResponses' in call ? { inputResponses: call.inputResponses } : {}),
    ...(call.inputResponsesJson !== undefined ? { inputResponses: '@@inputResponses@@' } : {}),
    ...('requestState' in call ? { requestState: call.requestState } : {}),
  };
  const response = await server.fetch(
    new Request('http://parley.test/mcp', {
      method: 'POST',
      headers: modernHeaders(method, String(method === 'resources/read' ? call.uri : call.name)),
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params })
        .replace('"@@arguments@@"', call.argumentsJson ?? '{}')
        .replace('"@@inputResponses@@"', call.inputResponsesJson ?? '{}'),
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
  return { status: response.status, body: JSON.parse(json) as RawResponse['body'] };
}
