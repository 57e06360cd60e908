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
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const detach = () => {
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const refuse = (outcome: BodyRead) => {
      detach();
      budget.give(size);
      chunks.length = 0;
      void drain(req, maxBytes, outcome).then(resolve);
    };
    const onData = (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.byteLength > maxBytes) return refuse({ kind: 'too-large' });
      if (!budget.take(chunk.byteLength)) return refuse({ kind: 'busy' });
      size += chunk.byteLength;
      chunks.push(chunk);
    };
    const onEnd = () => {
      // The body is whole: nothing more comes, and the listeners go with the request (taking
      // four off is a measurable share of a small request).
      settled = true;
      resolve({
        kind: 'body',
        bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
      });
    };
    const fail = (reason: string) => {
      if (settled) return;
      detach();
      budget.give(size);
      resolve({ kind: 'unreadable', reason });
    };
    const onError = (error: Error) => fail(error.message);
    const onAborted = () => fail('the client went away');
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
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
