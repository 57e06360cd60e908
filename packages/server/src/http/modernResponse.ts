import type { JsonRpcOut, ModernDispatcher, ModernTransport } from '../modern/dispatcher.ts';

/**
 * A modern request's answer as a web `Response`: one JSON body, unless the handler sends a
 * notification (progress, a log line) before its result, in which case the response becomes an
 * SSE stream carrying the notifications and then the result.
 */

const encoder = new TextEncoder();

function frame(message: JsonRpcOut): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export function json(status: number, message: unknown): Response {
  return new Response(JSON.stringify(message), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export async function modernResponse(
  dispatcher: ModernDispatcher,
  message: unknown,
  transport: Omit<ModernTransport, 'notify'>,
): Promise<Response> {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let streamed: ((response: Response) => void) | undefined;
  const upgraded = new Promise<Response>((resolve) => (streamed = resolve));
  const notify = (notification: JsonRpcOut) => {
    if (controller === undefined) {
      const body = new ReadableStream<Uint8Array>({
        start: (start) => void (controller = start),
      });
      streamed?.(new Response(body, { status: 200, headers: SSE_HEADERS }));
    }
    try {
      controller?.enqueue(frame(notification));
    } catch {
      // The client went away; the request's signal tells the handler.
    }
  };
  const replied = dispatcher.handle(message, { ...transport, notify }).then((reply) => {
    if (controller === undefined) {
      return reply.message === undefined
        ? new Response(null, { status: reply.status })
        : json(reply.status, reply.message);
    }
    try {
      if (reply.message !== undefined) controller.enqueue(frame(reply.message));
      controller.close();
    } catch {
      // Cancelled by the client.
    }
    return undefined;
  });
  const first = await Promise.race([replied, upgraded]);
  return first ?? (await upgraded);
}
