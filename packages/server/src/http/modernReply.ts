import type { JsonRpcOut, ModernDispatcher, ModernTransport } from '../modern/dispatcher.ts';
import type { EventSink, Responder } from './wire.ts';

/**
 * A modern request's answer: one JSON body, written whole, unless the handler sends a
 * notification (progress, a log line) before its result; then the answer becomes an SSE stream
 * carrying the notifications and then the result.
 */

function frame(message: JsonRpcOut): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

export async function answerModern(
  dispatcher: ModernDispatcher,
  message: unknown,
  transport: Omit<ModernTransport, 'notify'>,
  responder: Responder,
): Promise<void> {
  let sink: EventSink | undefined;
  const reply = await dispatcher.handle(message, {
    headers: transport.headers,
    authInfo: transport.authInfo,
    get signal() {
      return transport.signal;
    },
    notify: (notification) => {
      sink ??= responder.events();
      sink.write(frame(notification));
    },
  });
  if (sink === undefined) {
    responder.send(
      reply.message === undefined
        ? { status: reply.status }
        : { status: reply.status, json: JSON.stringify(reply.message) },
    );
    return;
  }
  if (reply.message !== undefined) sink.write(frame(reply.message));
  sink.end();
}
