/**
 * A handshake-era client written by hand over an in-memory transport: it negotiates whatever
 * version it is told to and answers the server's requests with whatever it is scripted to,
 * valid or not, which no SDK client would send.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';

import type { ParleyServer } from '../../src/index.ts';

export interface PushedRequest {
  method: string;
  params: Record<string, unknown>;
}

export interface RawHandshake {
  /** The server's requests the client answered, in order. */
  pushed: PushedRequest[];
  /** The server's notifications, in order. */
  notifications: PushedRequest[];
  /** Call a tool; resolves with the JSON-RPC `result` or `error`. */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  }>;
  /** Any request; resolves with the JSON-RPC `result` or `error`. */
  request(
    method: string,
    params: Record<string, unknown>,
  ): Promise<{
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  }>;
  close(): Promise<void>;
}

export async function rawHandshake(
  server: ParleyServer,
  options: {
    protocolVersion?: string;
    capabilities?: Record<string, unknown>;
    /** The answer to each pushed request, in order; a function sees the request. */
    answer: (request: PushedRequest, index: number) => unknown;
  },
): Promise<RawHandshake> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sdkServer = await server.connect(serverSide);
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  const pushed: PushedRequest[] = [];
  const notifications: PushedRequest[] = [];
  clientSide.onmessage = (raw) => {
    const message = raw as Record<string, unknown>;
    if (typeof message.method === 'string' && !('id' in message)) {
      notifications.push({
        method: message.method,
        params: (message.params ?? {}) as Record<string, unknown>,
      });
      return;
    }
    if (typeof message.method === 'string' && 'id' in message) {
      const request = {
        method: message.method,
        params: (message.params ?? {}) as Record<string, unknown>,
      };
      pushed.push(request);
      const result = options.answer(request, pushed.length - 1);
      void clientSide.send({ jsonrpc: '2.0', id: message.id as number, result } as never);
      return;
    }
    if ('id' in message) pending.get(message.id as number)?.(message);
  };
  await clientSide.start();
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void clientSide.send({ jsonrpc: '2.0', id, method, params } as never);
    });
  const init = await request('initialize', {
    protocolVersion: options.protocolVersion ?? '2025-11-25',
    capabilities: options.capabilities ?? { elicitation: { form: {}, url: {} } },
    clientInfo: { name: 'raw-handshake', version: '0' },
  });
  if ('error' in init) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as never);
  return {
    pushed,
    notifications,
    call: async (name, args = {}) =>
      (await request('tools/call', { name, arguments: args })) as never,
    request: async (method, params) => (await request(method, params)) as never,
    close: async () => {
      await clientSide.close();
      await sdkServer.close();
    },
  };
}
