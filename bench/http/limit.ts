/**
 * The practical limit of `pnpm bench`: the booking flow (where to, when, booked) served with no
 * framework, doing exactly the work a correct modern-era server must do per round and that
 * Parley does, in the least code:
 *
 * - the request: `POST`, `Host` on the allowed list, `Content-Type` and `Accept`, a bounded
 *   body that is UTF-8, one `JSON.parse`, the JSON-RPC shape (version, method, a safe id,
 *   object params);
 * - the envelope: `_meta` with a served protocol version, client capabilities (each an object),
 *   client info; the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers agreeing with
 *   the body;
 * - the round: the tool exists, arguments and answers are objects within bounds; the sealed `requestState`
 *   opens (AES-256-GCM with node:crypto, a key id and a nonce in the clear as associated data,
 *   the claims checked: audience, expiry, a SHA-256 binding to method + tool + arguments); only
 *   answers to what that state says was asked are read, each of the right shape and checked
 *   against its question's schema (zod); the client must have declared form elicitation before
 *   it is asked;
 * - the reply: the next question sealed with the flow's id, round and what was asked (the
 *   question's digest), or the result; `resultType` and the server's identity in `_meta`; one
 *   `JSON.stringify`, a `Content-Length`.
 *
 * A request that fails any check gets the JSON-RPC error for it (never a crash, never a 5xx).
 *
 * It is written the plain way a careful engineer would write it by hand (`randomBytes` for each
 * nonce, `createHash` for each digest); Parley's own tricks (a pool of random bytes, one-shot
 * hashing, digests cached per question) are not copied into it. No function is made per
 * request: the bench runs it through tsx, whose esbuild names every function it sees declared
 * (`__name`, a property definition each time), which a build for production would not do.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';

import * as z from 'zod';

const PROTOCOL_VERSION = '2026-07-28';
const SERVER_INFO = { name: 'booking', version: '1.0.0' };
const ALLOWED_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const TTL_MS = 10 * 60_000;
const MAX_BODY = 4 * 1024 * 1024;
const TOKEN_PREFIX = 'ps1.';
const LOG_LEVELS: ReadonlySet<unknown> = new Set([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

const destinationSchema = z.object({ destination: z.string() });
const dateSchema = z.object({ date: z.string() });

const formAsk = (message: string, field: string) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: {
      type: 'object',
      properties: { [field]: { type: 'string' } },
      required: [field],
    },
  },
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** What a round's sealed state says: the flow, the round, what it asked, and the destination. */
interface State {
  f: string;
  r: number;
  /** The key asked, and the digest of the question asked under it. */
  a: { k: 'destination' | 'date'; d: string };
  destination?: string;
}

interface Claims {
  issuedAt: number;
  expiresAt: number;
  audience: Buffer;
  binding: Buffer;
}

/** The limit, given the key ring's one key (derived once, as Parley derives its own). */
export function limit(secret: string): RequestListener {
  const key = createHash('sha256').update(`aes\n${secret}`).digest();
  const kid = createHash('sha256').update(`kid\n${secret}`).digest().subarray(0, 4);
  const audience = sha256(`audience\n${SERVER_INFO.name}`).subarray(0, 16);
  const digestOf = (ask: unknown) => sha256(JSON.stringify(ask)).toString('base64url');
  const askWhere = formAsk('Where would you like to fly?', 'destination');
  const whereDigest = digestOf(askWhere);
  const bindingOf = (tool: string, args: Record<string, unknown>) =>
    sha256(`binding\n["tools/call",${JSON.stringify(tool)},null,${canonical(args)}]`);

  function seal(state: State, binding: Buffer): string {
    const now = Date.now();
    const claims = Buffer.alloc(16);
    claims.writeDoubleBE(now, 0);
    claims.writeDoubleBE(now + TTL_MS, 8);
    const header = Buffer.concat([kid, randomBytes(12)]);
    const cipher = createCipheriv('aes-256-gcm', key, header.subarray(4));
    cipher.setAAD(header);
    const plain = Buffer.concat([claims, audience, binding, Buffer.from(JSON.stringify(state))]);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return TOKEN_PREFIX + Buffer.concat([header, sealed]).toString('base64url');
  }

  function open(token: unknown, binding: Buffer): State | undefined {
    if (typeof token !== 'string' || !token.startsWith(TOKEN_PREFIX) || token.length > 8192) {
      return undefined;
    }
    const bytes = Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url');
    if (bytes.length < 16 + 16 + 64 || !timingSafeEqual(bytes.subarray(0, 4), kid))
      return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(4, 16));
      decipher.setAAD(bytes.subarray(0, 16));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const plain = Buffer.concat([decipher.update(bytes.subarray(16, -16)), decipher.final()]);
      const claims: Claims = {
        issuedAt: plain.readDoubleBE(0),
        expiresAt: plain.readDoubleBE(8),
        audience: plain.subarray(16, 32),
        binding: plain.subarray(32, 64),
      };
      const now = Date.now();
      if (claims.expiresAt < now || claims.issuedAt > now + 60_000) return undefined;
      if (!timingSafeEqual(claims.audience, audience)) return undefined;
      if (!timingSafeEqual(claims.binding, binding)) return undefined;
      return JSON.parse(plain.subarray(64).toString('utf8')) as State;
    } catch {
      return undefined;
    }
  }

  function reply(res: ServerResponse, status: number, message: unknown): void {
    const body = JSON.stringify(message);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  }

  const fail = (res: ServerResponse, status: number, id: unknown, code: number, message: string) =>
    reply(res, status, {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: { code, message },
    });

  /** Why the headers and body do not agree on version, method and tool, or `undefined`. */
  function headerProblem(req: IncomingMessage, method: string, name: string): string | undefined {
    if (req.headers['mcp-protocol-version'] !== PROTOCOL_VERSION) return 'MCP-Protocol-Version';
    if (req.headers['mcp-method'] !== method) return 'Mcp-Method';
    if (req.headers['mcp-name'] !== name) return 'Mcp-Name';
    return undefined;
  }

  /** Why `meta` is not a valid 2026-07-28 envelope, or `undefined`. */
  function envelopeProblem(meta: unknown): string | undefined {
    if (!isRecord(meta)) return 'params._meta is missing';
    if (meta['io.modelcontextprotocol/protocolVersion'] !== PROTOCOL_VERSION)
      return 'unsupported protocol version';
    const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
    if (!isRecord(capabilities)) return 'clientCapabilities must be an object';
    for (const name in capabilities)
      if (!isRecord(capabilities[name])) return `clientCapabilities.${name} must be an object`;
    const info = meta['io.modelcontextprotocol/clientInfo'];
    if (
      info !== undefined &&
      (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
    )
      return 'clientInfo must be { name, version }';
    const level = meta['io.modelcontextprotocol/logLevel'];
    if (level !== undefined && !LOG_LEVELS.has(level)) return 'logLevel is not a level';
    const token = meta.progressToken;
    if (token !== undefined && typeof token !== 'string' && typeof token !== 'number')
      return 'progressToken must be a string or a number';
    return undefined;
  }

  /** The accepted content under `key`, if the answer has the right shape and fits. */
  function accepted<T>(answers: unknown, key: string, schema: z.ZodType<T>): T | undefined {
    if (!isRecord(answers)) return undefined;
    const answer = answers[key];
    if (!isRecord(answer) || answer.action !== 'accept' || !isRecord(answer.content))
      return undefined;
    const checked = schema.safeParse(answer.content);
    return checked.success ? checked.data : undefined;
  }

  /** The round's ask: the question, and the state that says it was asked, sealed. */
  function ask(
    canElicit: boolean,
    binding: Buffer,
    keyAsked: State['a']['k'],
    question: ReturnType<typeof formAsk>,
    digest: string,
    state: Omit<State, 'a'>,
  ) {
    if (!canElicit) return { code: -32021 };
    return {
      resultType: 'input_required',
      inputRequests: { [keyAsked]: question },
      requestState: seal({ ...state, a: { k: keyAsked, d: digest } }, binding),
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    };
  }

  function round(message: Record<string, unknown>, canElicit: boolean): unknown {
    const params = message.params as Record<string, unknown>;
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const binding = bindingOf('book_flight', args);
    const answers = params.inputResponses;
    if (answers !== undefined && !isRecord(answers)) return { code: -32602 };
    if (params.requestState === undefined) {
      return ask(canElicit, binding, 'destination', askWhere, whereDigest, {
        f: randomBytes(12).toString('hex'),
        r: 1,
      });
    }
    const state = open(params.requestState, binding);
    if (state === undefined) return { code: -32602 };
    // Only what the state says was asked is read: any other answer is ignored.
    if (state.a.k === 'destination') {
      const where = accepted(answers, 'destination', destinationSchema);
      if (where === undefined)
        return ask(canElicit, binding, 'destination', askWhere, whereDigest, state);
      const askWhen = formAsk(`When would you like to fly to ${where.destination}?`, 'date');
      return ask(canElicit, binding, 'date', askWhen, digestOf(askWhen), {
        f: state.f,
        r: state.r + 1,
        destination: where.destination,
      });
    }
    const when = accepted(answers, 'date', dateSchema);
    if (when === undefined) {
      const askWhen = formAsk(`When would you like to fly to ${state.destination}?`, 'date');
      return ask(canElicit, binding, 'date', askWhen, digestOf(askWhen), state);
    }
    return {
      resultType: 'complete',
      content: [{ type: 'text', text: `Booked a flight to ${state.destination} on ${when.date}` }],
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    };
  }

  return (req, res) => {
    const host = req.headers.host?.replace(/:\d+$/, '');
    if (host === undefined || !ALLOWED_HOSTS.has(host))
      return fail(res, 403, null, -32000, 'Host not allowed');
    if (req.method !== 'POST') return fail(res, 405, null, -32000, 'Method not allowed');
    if (req.headers['content-type']?.split(';', 1)[0] !== 'application/json')
      return fail(res, 415, null, -32600, 'Unsupported Media Type');
    const accept = req.headers.accept ?? '*/*';
    if (!/application\/json|text\/event-stream|\*\/\*|application\/\*/.test(accept))
      return fail(res, 406, null, -32600, 'Not Acceptable');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return fail(res, 413, null, -32600, 'Request body too large');
      const bytes = Buffer.concat(chunks);
      // JSON is UTF-8: a body that is not is refused, not read with replacement characters.
      if (!isUtf8(bytes)) return fail(res, 400, null, -32700, 'Parse error: not UTF-8');
      let message: unknown;
      try {
        message = JSON.parse(bytes.toString('utf8'));
      } catch {
        return fail(res, 400, null, -32700, 'Parse error');
      }
      if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string')
        return fail(res, 400, null, -32600, 'Invalid Request');
      const { id, method } = message;
      if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id)))
        return fail(res, 400, null, -32600, 'Invalid Request: id');
      const params = message.params;
      if (!isRecord(params)) return fail(res, 400, id, -32600, 'Invalid Request: params');
      const problem = envelopeProblem(params._meta);
      if (problem !== undefined) return fail(res, 400, id, -32602, `Invalid _meta: ${problem}`);
      if (method !== 'tools/call') return fail(res, 404, id, -32601, 'Method not found');
      if (typeof params.name !== 'string') return fail(res, 200, id, -32602, 'Invalid params');
      const mismatch = headerProblem(req, method, params.name);
      if (mismatch !== undefined) return fail(res, 400, id, -32020, `Header mismatch: ${mismatch}`);
      if (params.name !== 'book_flight') return fail(res, 200, id, -32602, 'Tool not found');
      if (params.arguments !== undefined && !isRecord(params.arguments))
        return fail(res, 200, id, -32602, 'Invalid params: arguments');
      if (!within(params.arguments) || !within(params.inputResponses))
        return fail(res, 200, id, -32602, 'Invalid params: the request is too large');
      const meta = params._meta as Record<string, Record<string, Record<string, unknown>>>;
      const elicitation = meta['io.modelcontextprotocol/clientCapabilities']?.elicitation;
      const canElicit =
        elicitation !== undefined && (elicitation.form !== undefined || !('url' in elicitation));
      const result = round(message, canElicit) as Record<string, unknown>;
      if (typeof result.code === 'number') {
        return fail(res, result.code === -32021 ? 400 : 200, id, result.code, 'Round refused');
      }
      reply(res, 200, { jsonrpc: '2.0', id, result });
    });
  };
}

/** Arguments and answers within 64 levels and 100 000 values (a bound on the work they cause). */
function within(value: unknown, depth = 0, budget = { nodes: 100_000 }): boolean {
  if (--budget.nodes < 0 || depth > 64) return false;
  if (typeof value !== 'object' || value === null) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value))
    if (!within(child, depth + 1, budget)) return false;
  return true;
}

/** JSON with sorted keys: equal arguments bind equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
