import type { AuthInfo } from '@modelcontextprotocol/server';

import type { ModernDispatcher } from '../modern/dispatcher.ts';
import { replyJson } from '../modern/encode.ts';
import type { JsonRpcOut, ModernTransport } from '../modern/messages.ts';
import type { HeaderReader } from '../modern/headers.ts';
import type { EventSink, Inbound, Responder } from './wire.ts';

/**
 * A modern request's answer: one JSON body, written whole, unless the handler sends a
 * notification (progress, a log line) before its result; then the answer becomes an SSE stream
 * carrying the notifications and then the result.
 */

function frame(message: JsonRpcOut): string {
  return `event: message\ndata: ${replyJson(message)}\n\n`;
}

/**
 * The transport of one modern HTTP request. A class, not an object literal with a getter (which
 * is built slowly and lands in dictionary mode): one is made for every request.
 */
class HttpTransport implements ModernTransport {
  readonly headers: HeaderReader;
  readonly authInfo: AuthInfo | undefined;
  readonly #inbound: Inbound;
  readonly #responder: Responder;
  /** The SSE answer, once a notification made the answer a stream. */
  sink: EventSink | undefined;

  constructor(inbound: Inbound, authInfo: AuthInfo | undefined, responder: Responder) {
    this.headers = inbound.headers;
    this.authInfo = authInfo;
    this.#inbound = inbound;
    this.#responder = responder;
  }

  get signal(): AbortSignal {
    return this.#inbound.signal;
  }

  notify(notification: JsonRpcOut): void {
    this.sink ??= this.#responder.events();
    this.sink.write(frame(notification));
  }
}

export async function answerModern(
  dispatcher: ModernDispatcher,
  message: unknown,
  inbound: Inbound,
  authInfo: AuthInfo | undefined,
  responder: Responder,
): Promise<void> {
  const transport = new HttpTransport(inbound, authInfo, responder);
  const reply = await dispatcher.handle(message, transport);
  const sink = transport.sink;
  if (sink === undefined) {
    responder.send(
      reply.message === undefined
        ? { status: reply.status }
        : { status: reply.status, json: replyJson(reply.message) },
    );
    return;
  }
  if (reply.message !== undefined) sink.write(frame(reply.message));
  sink.end();
}
