/**
 * One benchmark contender as its own process, so its CPU can be measured apart from the load
 * generator: `bare` (a node:http JSON responder, the ceiling), `sdk` (the raw MCP SDK v2
 * `createMcpHandler` serving the booking flow) or `parley` (ParleyServer serving the same flow).
 * Prints its URL; answers an IPC `cpu` message with its CPU time so far.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired as sdkInputRequired,
} from '@modelcontextprotocol/server';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';
import * as z from 'zod';

const KEY = 'bench-state-key-'.repeat(2);
const destinationSchema = z.object({ destination: z.string() });
const dateSchema = z.object({ date: z.string() });

function bare(): RequestListener {
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

function sdk(): RequestListener {
  const codec = createRequestStateCodec<{ destination: string }>({ key: KEY });
  const build = () => {
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
        content: [
          { type: 'text', text: `Booked a flight to ${state.destination} on ${when?.date}` },
        ],
      };
    });
    return server;
  };
  return toNodeHandler(createMcpHandler(build, { legacy: 'reject' })) as RequestListener;
}

function parley(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'booking',
    requestStateSecurity: { keys: [KEY] },
    onWarning: () => {},
  });
  const askDestination = elicitRequest('Where would you like to fly?', destinationSchema);
  mcp.tool('book_flight', (_args, ctx) => {
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

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const kind = process.argv[2];
const url =
  kind === 'bare'
    ? await listen(bare())
    : kind === 'sdk'
      ? await listen(sdk())
      : ((await parley().run({ transport: 'http', port: 0 })).url as string);
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') process.exit(0);
});
process.send?.({ url });
