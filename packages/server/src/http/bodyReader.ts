import type { IncomingMessage } from 'node:http';

import type { BodyBudget } from './limits.ts';

/**
 * Reading a request body whole, within bounds. Past a bound the rest of the body is still read
 * (and dropped) before the refusal is sent: a server that answers and closes while the client
 * is still uploading resets the connection, and the client never sees why. Only a client that
 * keeps sending far past the bound is cut off.
 */

export type BodyRead =
  | { kind: 'body'; bytes: Buffer }
  /** Longer than the per-request bound. */
  | { kind: 'too-large' }
  /** The server is holding as many body bytes as it may. */
  | { kind: 'busy' }
  /** Not decodable: a bad `Content-Encoding`, or the client went away mid-body. */
  | { kind: 'unreadable'; reason: string };

/** How far past the bound a refused upload is still read before the connection is cut. */
const DRAIN_FACTOR = 4;
const MIN_DRAIN_BYTES = 16 * 1024 * 1024;

function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined) return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/** A body being read: what the shared listeners below find on its request. */
interface Reading {
  chunks: Buffer[];
  size: number;
  readonly maxBytes: number;
  readonly budget: BodyBudget;
  readonly resolve: (read: BodyRead) => void;
}

/**
 * Where a request being read keeps its {@link Reading}. The listeners are the same four
 * functions for every request (`this` is the request, as emitters call their listeners), not
 * closures made for each one: a request whose answer is a stream (a handshake-era call waiting
 * on its user) keeps its listeners for as long as it is open.
 */
const READING = Symbol('parley.reading');
type ReadRequest = IncomingMessage & { [READING]?: Reading | undefined };

/** Stop reading: the listeners off, the state dropped. */
function detach(req: ReadRequest): void {
  req[READING] = undefined;
  req.off('data', onData);
  req.off('end', onEnd);
  req.off('error', onError);
  req.off('aborted', onAborted);
}

/** The rest of the body is read and dropped before the refusal (see `drain`). */
function refuse(req: ReadRequest, reading: Reading, outcome: BodyRead): void {
  detach(req);
  reading.budget.give(reading.size);
  void drain(req, reading.maxBytes, outcome).then(reading.resolve);
}

function fail(req: ReadRequest, reason: string): void {
  const reading = req[READING];
  if (reading === undefined) return;
  detach(req);
  reading.budget.give(reading.size);
  reading.resolve({ kind: 'unreadable', reason });
}

function onData(this: ReadRequest, chunk: Buffer): void {
  const reading = this[READING];
  if (reading === undefined) return;
  if (reading.size + chunk.byteLength > reading.maxBytes) {
    return refuse(this, reading, { kind: 'too-large' });
  }
  if (!reading.budget.take(chunk.byteLength)) return refuse(this, reading, { kind: 'busy' });
  reading.size += chunk.byteLength;
  reading.chunks.push(chunk);
}

function onEnd(this: ReadRequest): void {
  const reading = this[READING];
  if (reading === undefined) return;
  // The body is whole and nothing more comes: the listeners stay with the request (taking four
  // off is a measurable share of a small request), and find nothing to do from now on.
  this[READING] = undefined;
  const { chunks, size } = reading;
  reading.resolve({
    kind: 'body',
    bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
  });
}

function onError(this: ReadRequest, error: Error): void {
  fail(this, error.message);
}

function onAborted(this: ReadRequest): void {
  fail(this, 'the client went away');
}

/**
 * The body of a node request as one buffer. Chunks are counted against `budget` while they are
 * held; the caller gives the bytes back (`budget.give`) once the request is done with them.
 */
export function readNodeBody(
  req: IncomingMessage,
  maxBytes: number,
  budget: BodyBudget,
): Promise<BodyRead> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return drain(req, maxBytes, {
      kind: 'unreadable',
      reason: `Content-Encoding ${JSON.stringify(encoding)} is not accepted: send the JSON body unencoded`,
    });
  }
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxBytes) {
    return drain(req, maxBytes, { kind: 'too-large' });
  }
  return new Promise((resolve) => {
    const reading: ReadRequest = req;
    reading[READING] = { chunks: [], size: 0, maxBytes, budget, resolve };
    reading.on('data', onData);
    reading.on('end', onEnd);
    reading.on('error', onError);
    reading.on('aborted', onAborted);
  });
}

/**
 * Read and drop the rest of a refused body, then resolve with `outcome`; a client that sends
 * far more than it was told it may has its connection cut instead.
 */
function drain(req: IncomingMessage, maxBytes: number, outcome: BodyRead): Promise<BodyRead> {
  if (req.complete) return Promise.resolve(outcome);
  const limit = Math.max(maxBytes * DRAIN_FACTOR, MIN_DRAIN_BYTES);
  return new Promise((resolve) => {
    let dropped = 0;
    const done = () => {
      req.off('data', onData);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.byteLength;
      if (dropped > limit) {
        req.off('data', onData);
        req.socket.destroy();
        resolve(outcome);
      }
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('error', done);
    req.once('close', done);
    req.resume();
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body of a web `Request` as UTF-8 text, within the same bounds (no Node APIs). */
export async function readWebBody(
  request: Request,
  maxBytes: number,
  budget: BodyBudget,
): Promise<{ kind: 'text'; text: string } | Exclude<BodyRead, { kind: 'body' }>> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isSafeInteger(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { kind: 'too-large' };
  }
  if (request.body === null) return { kind: 'text', text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > maxBytes) {
        await reader.cancel().catch(() => {});
        return { kind: 'too-large' };
      }
      if (!budget.take(value.byteLength)) {
        await reader.cancel().catch(() => {});
        return { kind: 'busy' };
      }
      size += value.byteLength;
      chunks.push(value);
    }
  } catch (error) {
    return { kind: 'unreadable', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    budget.give(size);
  }
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = decodeUtf8(whole);
  return text === undefined
    ? { kind: 'unreadable', reason: 'the body is not valid UTF-8' }
    : { kind: 'text', text };
}

/** UTF-8 text, or `undefined` for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
