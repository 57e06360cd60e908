import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

import type { ModernDispatcher } from '../modern/dispatcher.ts';
import type { JsonRpcOut } from '../modern/messages.ts';
import { claimsEnvelope } from '../modern/envelope.ts';

/**
 * stdio for both eras. The SDK's `serveStdio` keeps a connection's handshake-era traffic (the
 * `initialize` handshake, the session, server→client requests); this transport sits between it
 * and the wire and takes every modern request (one that carries the per-request envelope) to
 * Parley's own dispatcher instead, so the modern era is served the same way over stdio as over
 * HTTP. Its `notifications/cancelled` aborts the modern request it names.
 */
export class ModernStdioRouter implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  readonly #wire: Transport;
  readonly #dispatcher: ModernDispatcher;
  /** Modern requests in flight, by id, so a cancellation can abort them. */
  readonly #inFlight = new Map<string | number, AbortController>();

  constructor(wire: Transport, dispatcher: ModernDispatcher) {
    this.#wire = wire;
    this.#dispatcher = dispatcher;
  }

  async start(): Promise<void> {
    this.#wire.onmessage = (message, extra) => this.#route(message, extra);
    this.#wire.onerror = (error) => this.onerror?.(error);
    this.#wire.onclose = () => {
      for (const controller of this.#inFlight.values()) controller.abort();
      this.onclose?.();
    };
    await this.#wire.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#wire.send(message, options);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }

  setProtocolVersion = (version: string): void => {
    this.#wire.setProtocolVersion?.(version);
  };

  #route(
    message: JSONRPCMessage,
    extra?: Parameters<NonNullable<Transport['onmessage']>>[1],
  ): void {
    const candidate = message as { id?: unknown; method?: unknown; params?: unknown };
    if (candidate.method === 'notifications/cancelled') {
      const id = (candidate.params as { requestId?: unknown } | undefined)?.requestId;
      const controller =
        typeof id === 'string' || typeof id === 'number' ? this.#inFlight.get(id) : undefined;
      if (controller !== undefined) {
        controller.abort();
        return;
      }
    }
    const modernRequest =
      typeof candidate.method === 'string' &&
      candidate.method !== 'subscriptions/listen' &&
      'id' in candidate &&
      claimsEnvelope(message);
    if (!modernRequest) {
      this.onmessage?.(message, extra);
      return;
    }
    void this.#serve(message, candidate.id as string | number);
  }

  async #serve(message: unknown, id: string | number): Promise<void> {
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const write = (out: JsonRpcOut) =>
      this.#wire.send(out as JSONRPCMessage).catch((error: unknown) => {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      });
    try {
      const reply = await this.#dispatcher.handle(message, {
        signal: controller.signal,
        notify: (notification) => void write(notification),
      });
      // A cancelled request is not answered (the client has stopped waiting for it).
      if (reply.message !== undefined && !controller.signal.aborted) await write(reply.message);
    } finally {
      this.#inFlight.delete(id);
    }
  }
}
