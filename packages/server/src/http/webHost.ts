import { SSE_HEADERS, type EventSink, type Reply, type Responder } from './wire.ts';

/**
 * The web-standard host of the endpoint (`mcp.fetch`): its answers as a `Response`, its event
 * streams as a `ReadableStream` (Workers, Deno, Bun, any router that speaks fetch).
 */

/** A whole answer as a web `Response`. */
export function webReply(reply: Reply): Response {
  return new Response(reply.json ?? null, {
    status: reply.status,
    headers: {
      ...(reply.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...reply.headers,
    },
  });
}

const encoder = new TextEncoder();

/** A responder whose answer is a web `Response`. */
export function webResponder(): { responder: Responder; response: Promise<Response> } {
  let resolve!: (response: Response) => void;
  const response = new Promise<Response>((settle) => (resolve = settle));
  return {
    response,
    responder: {
      send: (reply) => resolve(webReply(reply)),
      web: (reply) => resolve(reply),
      events: (headers, gone): EventSink => {
        let controller!: ReadableStreamDefaultController<Uint8Array>;
        const body = new ReadableStream<Uint8Array>({
          start: (start) => void (controller = start),
          cancel: () => gone?.(),
        });
        resolve(new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } }));
        return {
          write: (text) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              // The client went away; the request's signal tells the handler.
            }
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // Cancelled by the client.
            }
          },
        };
      },
    },
  };
}
