/**
 * The contenders of `pnpm bench`, each serving the same three-round booking flow (where to, when,
 * booked), as node:http request listeners or Parley servers:
 *
 * - `bare`: a node:http JSON responder with no checks and fake state: the ceiling;
 * - `limit`: the practical limit, in `limit.ts`: the same checks, sealing and encoding as any
 *   correct server, with no framework;
 * - `sdk`: the raw MCP SDK v2, `createMcpHandler` on `@modelcontextprotocol/node`;
 * - `sdkSessions`: the raw SDK's handshake era: an `McpServer` and a node transport per session,
 *   the tool asking with `elicitInput`;
 * - `parley`: one ParleyServer serving the modern flow (guard pattern) and the handshake flow
 *   (`ctx.elicit`), on `run()`;
 * - `parleyAsk`: the same modern flow written once with `await ctx.ask(...)` (sealed replay);
 * - `parley-off` and `parley-otel` (in `serverProcess.ts`): `parley` with `telemetry: false`,
 *   and with an OpenTelemetry SDK registered (spans and metrics recorded, never exported).
 */
import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';

import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired as sdkInputRequired,
} from '@modelcontextprotocol/server';
import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  type ParleyServerOptions,
} from '@parley/server';
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

export function parley(options: Partial<ParleyServerOptions> = {}): ParleyServer {
  const mcp = new ParleyServer({
    name: 'booking',
    requestStateSecurity: { keys: [KEY] },
    onWarning: () => {},
    ...options,
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

/** The booking flow written once with `ctx.ask`: both questions replayed from the sealed state. */
export function parleyAsk(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'booking',
    requestStateSecurity: { keys: [KEY] },
    onWarning: () => {},
  });
  const askDestination = elicitRequest('Where would you like to fly?', destinationSchema);
  mcp.tool('book_flight', async (_args, ctx) => {
    const where = await ctx.ask('destination', askDestination);
    if (where.action !== 'accept') return 'No destination';
    const when = await ctx.ask(
      'date',
      elicitRequest(`When would you like to fly to ${where.data.destination}?`, dateSchema),
    );
    return `Booked a flight to ${where.data.destination} on ${when.action === 'accept' ? when.data.date : '?'}`;
  });
  return mcp;
}
