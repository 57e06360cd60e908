import { request } from 'node:http';

/**
 * Bare handshake-era requests over a real socket, as a web `Response`: `initialize`, a request of
 * a session, its `DELETE`. Each can be sent from another local address (`from`): on Linux every
 * address of 127.0.0.0/8 is the loopback, so `127.0.0.2` is another client of a server on
 * 127.0.0.1.
 */

export const handshakeHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

export interface SendOptions {
  /** The local address to send from. */
  from?: string;
  headers?: Record<string, string>;
}

/** One HTTP request; its answer read whole. */
export function send(
  url: string,
  method: string,
  body: string | undefined,
  options: SendOptions = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method, headers: options.headers, localAddress: options.from },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of [value ?? []].flat()) headers.append(name, one);
          }
          const status = answer.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          const bodiless = [204, 205, 304].includes(status);
          resolve(new Response(bodiless ? null : text, { status, headers }));
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

export function initialize(url: string, options: SendOptions = {}): Promise<Response> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'limits', version: '1' },
    },
  });
  return send(url, 'POST', body, {
    ...options,
    headers: { ...handshakeHeaders, ...options.headers },
  });
}

/** A new session's id (`initialize`, answered `200`). */
export async function session(url: string, options: SendOptions = {}): Promise<string> {
  const response = await initialize(url, options);
  await response.text();
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}`);
  return response.headers.get('mcp-session-id') as string;
}

/** A JSON-RPC message (`jsonrpc` added) on session `id`. */
export function inSession(
  url: string,
  id: string,
  message: object,
  options: SendOptions = {},
): Promise<Response> {
  return send(url, 'POST', JSON.stringify({ jsonrpc: '2.0', ...message }), {
    ...options,
    headers: {
      ...handshakeHeaders,
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
      ...options.headers,
    },
  });
}

/** End session `id`. */
export function endSession(url: string, id: string, options: SendOptions = {}): Promise<Response> {
  return send(url, 'DELETE', undefined, {
    ...options,
    headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', ...options.headers },
  });
}
