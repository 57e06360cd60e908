/**
 * The booking flow served in-process, without a socket: each contender's `node:http` listener
 * (the limit's, Parley's `nodeHandler()`, the bare responder) is handed a request and a response
 * that carry just what a listener uses, so what is counted is the contender's own work and the
 * JSON on the client's side (the same for all), not the kernel's or the HTTP parser's. For
 * `rounds.ts`, which counts its instructions under callgrind.
 *
 * Run as a child: `node --import tsx inProcess.ts <kind> <warm flows> <counted flows>` with an IPC
 * channel: it warms up, says `warm`, waits for a message, runs the counted flows, says `done`.
 */
import { EventEmitter } from 'node:events';
import type { RequestListener } from 'node:http';
import { pathToFileURL } from 'node:url';

import { KEY, bare, parley, parleyAsk } from './contenders.ts';
import { limit } from './limit.ts';
import { MODERN_HEADERS, bookingCall, bookingFlow } from './modernBooking.ts';

// Parley checks the Host header (DNS rebinding); a socket's request would carry one.
const HEADERS = { host: '127.0.0.1:3000', ...MODERN_HEADERS };

/** What a listener reads of a request: method, URL, headers, and the body as stream events. */
class Request extends EventEmitter {
  readonly method = 'POST';
  readonly url = '/mcp';
  readonly headers = HEADERS;
  readonly httpVersionMinor = 1;
  readonly complete = true;
}

/** What a listener writes an answer with; `end` hands the body to `done`. */
class Response {
  readonly headersSent = false;
  readonly writableFinished = true;
  constructor(private readonly done: (body: string) => void) {}
  on(): this {
    return this;
  }
  once(): this {
    return this;
  }
  getHeader(): undefined {
    return undefined;
  }
  setHeader(): void {}
  writeHead(): this {
    return this;
  }
  end(body?: string): void {
    this.done(body ?? '');
  }
}

export const KINDS: Record<string, () => RequestListener> = {
  bare,
  limit: () => limit(KEY),
  parley: () => parley().nodeHandler() as unknown as RequestListener,
  'parley-ask': () => parleyAsk().nodeHandler() as unknown as RequestListener,
};

function round(listener: RequestListener, extra: object): Promise<Record<string, unknown>> {
  const body = Buffer.from(bookingCall(1, extra));
  return new Promise((resolve) => {
    const req = new Request();
    listener(req as never, new Response((text) => resolve(JSON.parse(text).result)) as never);
    queueMicrotask(() => {
      req.emit('data', body);
      req.emit('end');
    });
  });
}

/** One booking flow (where to, when, booked), as the load generator runs it over HTTP. */
export function flow(listener: RequestListener): Promise<void> {
  return bookingFlow((extra) => round(listener, extra));
}

const isEntry =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntry && process.send !== undefined) {
  const [kind, warm, counted] = process.argv.slice(2) as [string, string, string];
  const make = KINDS[kind];
  if (make === undefined) throw new Error(`no in-process contender ${kind}`);
  const listener = make();
  for (let i = 0; i < Number(warm); i++) await flow(listener);
  process.send('warm');
  await new Promise((resolve) => process.once('message', resolve));
  for (let i = 0; i < Number(counted); i++) await flow(listener);
  process.send('done');
  await new Promise((resolve) => process.once('message', resolve));
}
