import { curlCommand, type CurlRequest } from './curl.ts';
import { h, pretty } from './dom.ts';

/**
 * The raw JSON-RPC pane: every message the page's Client sends and receives, in order, with its
 * direction and time — requests, responses, notifications, and the server's own requests that
 * arrive on event streams. It sees them by wrapping the `fetch` the Client uses: a JSON body is
 * read from a clone, an event stream from one branch of a tee, so the Client's own reading is
 * untouched.
 */

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** What the pane needs to know about the connection. */
export interface RawConnection {
  /** The server's real URL (curl goes there), or `undefined` for a stdio command. */
  realUrl: string | undefined;
  /** The Authorization header the person typed, sent with every request. */
  authorization: string | undefined;
}

export interface RawLog {
  /** The Client's `fetch` for a connection, logging everything through it. */
  fetchFor(connection: RawConnection, base?: Fetch): Fetch;
  /** The newest request's headers and `_meta`, for a curl of a call not yet made. */
  latest(): { meta?: unknown; mcpHeaders: Record<string, string> };
  clear(): void;
}

/** Messages in an event stream's body, as they are complete. */
async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  each: (data: string) => void,
) {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data !== '') each(data);
    }
  }
}

/** A request, response or notification, as the pane names it. */
function describe(message: Record<string, unknown>): string {
  const id = message['id'] !== undefined ? ` #${String(message['id'])}` : '';
  if (typeof message['method'] === 'string') {
    return `${message['id'] !== undefined ? 'request' : 'notification'} ${message['method']}${id}`;
  }
  return `${message['error'] !== undefined ? 'error' : 'response'}${id}`;
}

function time(at: Date): string {
  return at.toISOString().slice(11, 23);
}

export function createRawLog(
  list: HTMLOListElement,
  options: { includeAuthorization(): boolean; copy(command: string): void },
): RawLog {
  let latest: ReturnType<RawLog['latest']> = { mcpHeaders: {} };

  function add(
    direction: 'sent' | 'received',
    text: string,
    curl: Omit<CurlRequest, 'authorization'> | undefined,
    authorization: string | undefined,
  ): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = text;
    }
    const messages = Array.isArray(message) ? message : [message];
    for (const one of messages) {
      const record =
        typeof one === 'object' && one !== null ? (one as Record<string, unknown>) : {};
      const arrow = direction === 'sent' ? '→ sent' : '← received';
      const copy =
        curl !== undefined
          ? h('button', { type: 'button', class: 'copy-curl' }, 'Copy as curl')
          : null;
      copy?.addEventListener('click', () =>
        options.copy(
          curlCommand({
            ...curl!,
            ...(authorization !== undefined && options.includeAuthorization()
              ? { authorization }
              : {}),
          }),
        ),
      );
      // The message is written out when opened: a long session has many.
      const body = h('pre', {});
      const details = h(
        'details',
        {},
        h(
          'summary',
          {},
          h('time', { datetime: new Date().toISOString() }, time(new Date())),
          ` ${arrow} `,
          h('code', {}, describe(record)),
        ),
        body,
      );
      details.addEventListener('toggle', () => {
        if (details.open && body.textContent === '') body.textContent = pretty(one);
      });
      list.append(
        h('li', { class: `raw ${direction}`, 'data-direction': direction }, details, copy),
      );
    }
  }

  return {
    fetchFor(connection, base = (input, init) => fetch(input, init)) {
      return async (input, init) => {
        const headers = new Headers(init?.headers);
        if (connection.authorization !== undefined && !headers.has('authorization')) {
          headers.set('authorization', connection.authorization);
        }
        const body = typeof init?.body === 'string' ? init.body : undefined;
        if (body !== undefined) {
          // The protocol's headers as sent: a curl needs them all (a modern server checks them).
          const mcpHeaders = Object.fromEntries(
            [...headers].filter(([name]) => name.toLowerCase().startsWith('mcp-')),
          );
          let meta: unknown;
          try {
            meta = (JSON.parse(body) as { params?: { _meta?: unknown } }).params?._meta;
          } catch {
            meta = undefined;
          }
          latest = { mcpHeaders, meta: meta ?? latest.meta };
          const curl =
            connection.realUrl === undefined
              ? undefined
              : { url: connection.realUrl, body, mcpHeaders };
          add('sent', body, curl, connection.authorization);
        }
        const response = await base(input, { ...init, headers });
        const type = response.headers.get('content-type') ?? '';
        if (type.startsWith('application/json')) {
          const text = await response.clone().text();
          if (text !== '') add('received', text, undefined, undefined);
          return response;
        }
        if (!type.startsWith('text/event-stream') || response.body === null) return response;
        const [forClient, forLog] = response.body.tee();
        const logReader = forLog.getReader();
        readEvents(logReader, (data) => add('received', data, undefined, undefined)).catch(
          () => {},
        );
        // Cancelling the Client's branch cancels the log's too, so the stream can close.
        const reader = forClient.getReader();
        const relayed = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
          async cancel(reason) {
            await Promise.all([reader.cancel(reason), logReader.cancel(reason).catch(() => {})]);
          },
        });
        return new Response(relayed, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      };
    },
    latest: () => latest,
    clear: () => list.replaceChildren(),
  };
}
