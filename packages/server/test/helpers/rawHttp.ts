/**
 * HTTP/1.1 over a bare TCP socket: bytes no HTTP client would send (broken request lines,
 * headers, framing), and the answer as it came back, or how the connection ended.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** The status of the first answer, or `undefined` when none came. */
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** How the connection ended: closed by the server, reset, or still open at the timeout. */
  ended: 'closed' | 'reset' | 'timeout';
}

/** Send `bytes` (optionally in pieces, with a pause between them) and read what comes back. */
export function rawHttp(
  port: number,
  bytes: string | Buffer | (string | Buffer)[],
  options: { timeoutMs?: number; pauseMs?: number } = {},
): Promise<RawAnswer> {
  const { timeoutMs = 3_000, pauseMs = 0 } = options;
  const pieces = Array.isArray(bytes) ? bytes : [bytes];
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let ended: RawAnswer['ended'] | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks), ended ?? 'closed'));
    };
    const timer = setTimeout(() => {
      ended = 'timeout';
      finish();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One complete answer is enough: the connection may stay open (keep-alive).
      if (complete(Buffer.concat(chunks))) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      ended = error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'closed';
      finish();
    });
    socket.on('close', () => finish());
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

function headEnd(bytes: Buffer): number {
  return bytes.indexOf('\r\n\r\n');
}

function complete(bytes: Buffer): boolean {
  const end = headEnd(bytes);
  if (end < 0) return false;
  const head = bytes.subarray(0, end).toString('latin1');
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
  if (length !== undefined) return bytes.length - end - 4 >= Number(length);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    return bytes.subarray(end).includes('\r\n0\r\n\r\n');
  }
  return false;
}

/** A chunked body, decoded. */
function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parse(bytes: Buffer, ended: RawAnswer['ended']): RawAnswer {
  const end = headEnd(bytes);
  if (end < 0) return { status: undefined, headers: {}, body: '', ended };
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['content-length'] !== undefined) {
    body = body.subarray(0, Number(headers['content-length']));
  } else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    body = unchunk(body);
  }
  return {
    status: Number.isNaN(status) ? undefined : status,
    headers,
    body: body.toString('utf8'),
    ended,
  };
}

/** A request as raw bytes: a request line, headers (in order, as given), a body. */
export function rawRequest(
  requestLine: string,
  headers: [string, string][],
  body: string | Buffer = '',
): Buffer {
  const head = `${requestLine}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
  ]);
}
