/**
 * The contenders of `bench:http`, each serving the same three-round booking flow (where to, when,
 * booked), as node:http request listeners or Parley servers:
 *
 * - `bare`: a node:http JSON responder with no checks and fake state: the ceiling;
 * - `limit`: the practical limit: what any correct server must do per round, with no framework:
 *   node:http, `JSON.parse`, a zod check of the answer, AES-256-GCM seal/open with node:crypto
 *   bound to a SHA-256 of method + tool + arguments (the sealed state also records what was
 *   asked and when it expires), `JSON.stringify`;
 * - `sdk`: the raw MCP SDK v2, `createMcpHandler` on `@modelcontextprotocol/node`;
 * - `sdkSessions`: the raw SDK's handshake era: an `McpServer` and a node transport per session,
 *   the tool asking with `elicitInput`;
 * - `parley`: one ParleyServer serving the modern flow (guard pattern) and the handshake flow
 *   (`ctx.elicit`), on `run()`.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired as sdkInputRequired,
} from '@modelcontextprotocol/server';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';
import * as z from 'zod';

export const KEY = 'bench-state-key-'.repeat(2);
const destinationSchema = z.object({ destination: z.string() });
const dateSchema = z.object({ date: z.string() });
const askWhere = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Where would you like to fly?',
    requestedSchema: {
      type: 'object',
      properties: { destination: { type: 'string' } },
      required: ['destination'],
    },
  },
};
const askWhen = (destination: string) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: `When would you like to fly to ${destination}?`,
    requestedSchema: {
      type: 'object',
      properties: { date: { type: 'string' } },
      required: ['date'],
    },
  },
});

export function bare(): RequestListener {
  return (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as {
        id: unknown;
        params?: { inputResponses?: Record<string, unknown>; requestState?: string };
      };
      const params = message.params ?? {};
      const result =
        params.inputResponses === undefined
          ? { resultType: 'input_required', inputRequests: { destination: {} }, requestState: 'r1' }
          : params.requestState === 'r1'
            ? { resultType: 'input_required', inputRequests: { date: {} }, requestState: 'r2' }
            : { resultType: 'complete', content: [{ type: 'text', text: 'Booked' }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  };
}

/**
 * The practical limit: the work every correct server does per round, and nothing else. The
 * state carries what the round asked (so an answer to a question that was never asked, say a
 * confirmation the user was never shown, is ignored) and an expiry, both sealed; a token that
 * does not open, has expired or was minted for another request is refused with a JSON-RPC error
 * instead of crashing the process. Two seals and two opens per three-round flow, as Parley does.
 */
export function limit(): RequestListener {
  const key = createHash('sha256').update(KEY).digest();
  const TTL_MS = 10 * 60_000;
  const binding = (method: string, tool: string, args: unknown) =>
    createHash('sha256')
      .update(`${method}\n${tool}\n${JSON.stringify(args ?? {})}`)
      .digest();
  interface State {
    /** The key the round asked. */
    a: 'destination' | 'date';
    /** Expiry, ms since the epoch. */
    e: number;
    destination?: string;
  }
  const seal = (state: State, aad: Buffer): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(aad);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  };
  const open = (token: unknown, aad: Buffer): State | undefined => {
    if (typeof token !== 'string') return undefined;
    try {
      const bytes = Buffer.from(token, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAAD(aad);
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const plain = Buffer.concat([decipher.update(bytes.subarray(12, -16)), decipher.final()]);
      const state = JSON.parse(plain.toString('utf8')) as State;
      return state.e >= Date.now() ? state : undefined;
    } catch {
      return undefined;
    }
  };
  const reply = (res: ServerResponse, status: number, message: unknown) => {
    const body = JSON.stringify(message);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
  const ask = (asked: State['a'], destination: string | undefined, aad: Buffer) => ({
    resultType: 'input_required',
    inputRequests: {
      [asked]: asked === 'destination' ? askWhere : askWhen(destination as string),
    },
    requestState: seal(
      {
        a: asked,
        e: Date.now() + TTL_MS,
        ...(destination !== undefined ? { destination } : {}),
      },
      aad,
    ),
  });
  return (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: string | number;
        method: string;
        params: {
          name: string;
          arguments?: unknown;
          inputResponses?: Record<string, { action: string; content?: unknown }>;
          requestState?: unknown;
        };
      };
      const { params } = message;
      const aad = binding(message.method, params.name, params.arguments);
      // Only the key the state says was asked is read; any other answer is ignored.
      const answer = (key: string) => params.inputResponses?.[key]?.content;
      let result: Record<string, unknown>;
      if (params.requestState === undefined) {
        result = ask('destination', undefined, aad);
      } else {
        const state = open(params.requestState, aad);
        if (state === undefined) {
          return reply(res, 200, {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32602, message: 'Invalid params: requestState rejected' },
          });
        }
        if (state.a === 'destination') {
          const where = destinationSchema.safeParse(answer('destination'));
          result = where.success
            ? ask('date', where.data.destination, aad)
            : ask('destination', undefined, aad);
        } else {
          const when = dateSchema.safeParse(answer('date'));
          result = when.success
            ? {
                resultType: 'complete',
                content: [
                  {
                    type: 'text',
                    text: `Booked a flight to ${state.destination} on ${when.data.date}`,
                  },
                ],
              }
            : ask('date', state.destination, aad);
        }
      }
      reply(res, 200, { jsonrpc: '2.0', id: message.id, result });
    });
  };
}

function sdkBookingServer(): McpServer {
  const codec = createRequestStateCodec<{ destination: string }>({ key: KEY });
  const server = new McpServer(
    { name: 'booking', version: '1.0.0' },
    { requestState: { verify: codec.verify } },
  );
  server.registerTool('book_flight', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const state = ctx.mcpReq.requestState<{ destination: string }>();
    if (state === undefined) {
      const where = acceptedContent(ctx.mcpReq.inputResponses, 'destination', destinationSchema);
      if (where === undefined) {
        return sdkInputRequired({
          inputRequests: {
            destination: sdkInputRequired.elicit({
              message: 'Where would you like to fly?',
              requestedSchema: destinationSchema,
            }),
          },
        });
      }
      return sdkInputRequired({
        inputRequests: {
          date: sdkInputRequired.elicit({
            message: `When would you like to fly to ${where.destination}?`,
            requestedSchema: dateSchema,
          }),
        },
        requestState: await codec.mint({ destination: where.destination }),
      });
    }
    const when = acceptedContent(ctx.mcpReq.inputResponses, 'date', dateSchema);
    return {
      content: [{ type: 'text', text: `Booked a flight to ${state.destination} on ${when?.date}` }],
    };
  });
  return server;
}

export function sdk(): RequestListener {
  return toNodeHandler(createMcpHandler(sdkBookingServer, { legacy: 'reject' })) as RequestListener;
}

/** The SDK's handshake era: a server and a transport per session, as its examples wire them. */
export function sdkSessions(): RequestListener {
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const build = () => {
    const server = new McpServer({ name: 'booking', version: '1.0.0' });
    server.registerTool('book_flight', { inputSchema: z.object({}) }, async (_args, ctx) => {
      // Related to the call, so the question rides the call's stream (as Parley's does).
      const related = { relatedRequestId: ctx.mcpReq.id };
      const where = await ctx.mcpReq.elicitInput(
        {
          mode: 'form',
          message: 'Where would you like to fly?',
          requestedSchema: askWhere.params.requestedSchema as never,
        },
        related,
      );
      const destination = destinationSchema.parse(where.content).destination;
      const when = await ctx.mcpReq.elicitInput(
        {
          mode: 'form',
          message: `When would you like to fly to ${destination}?`,
          requestedSchema: askWhen(destination).params.requestedSchema as never,
        },
        related,
      );
      const { date } = dateSchema.parse(when.content);
      return { content: [{ type: 'text', text: `Booked a flight to ${destination} on ${date}` }] };
    });
    return server;
  };
  return (req, res) => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? transports.get(id) : undefined;
    if (existing !== undefined) {
      void existing.handleRequest(req, res);
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void transports.set(sessionId, transport),
      onsessionclosed: (sessionId) => void transports.delete(sessionId),
    });
    void build()
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  };
}

export function parley(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'booking',
    requestStateSecurity: { keys: [KEY] },
    onWarning: () => {},
  });
  const askDestination = elicitRequest('Where would you like to fly?', destinationSchema);
  mcp.tool('book_flight', async (_args, ctx) => {
    if (ctx.era === 'handshake') {
      const where = await ctx.elicit('Where would you like to fly?', destinationSchema);
      if (where.action !== 'accept') return 'No destination';
      const when = await ctx.elicit(
        `When would you like to fly to ${where.data.destination}?`,
        dateSchema,
      );
      return `Booked a flight to ${where.data.destination} on ${when.action === 'accept' ? when.data.date : '?'}`;
    }
    if (ctx.requestState === null) {
      const where = ctx.answer('destination', askDestination);
      if (where === undefined || where.action !== 'accept')
        return inputRequired({ inputRequests: { destination: askDestination } });
      return inputRequired({
        inputRequests: {
          date: elicitRequest(
            `When would you like to fly to ${where.data.destination}?`,
            dateSchema,
          ),
        },
        requestState: where.data.destination,
      });
    }
    const when = ctx.answer('date', dateSchema);
    return `Booked a flight to ${ctx.requestState} on ${when?.action === 'accept' ? when.data.date : '?'}`;
  });
  return mcp;
}
