import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  McpServer,
  ProtocolError,
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
  type CallToolResult,
} from '@modelcontextprotocol/server';

/**
 * A modern-only server written only with the raw MCP SDK v2 (`createMcpHandler` with
 * `legacy: 'reject'`), on a real socket: its asks are `InputRequiredResult`s with its own
 * `requestState`, and a handshake-era client cannot talk to it at all.
 */

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const field = (name: string) => ({
  type: 'object' as const,
  properties: { [name]: { type: 'string' as const } },
  required: [name],
});

/** Entries into each tool, by name (a modern server runs again every round). */
export type Entries = Record<string, number>;

function build(entries: Entries): McpServer {
  const server = new McpServer({ name: 'raw-sdk-modern', version: '2.4.0' });
  const entered = (name: string) => (entries[name] = (entries[name] ?? 0) + 1);
  server.registerTool(
    'book_trip',
    { description: 'Two rounds, state in requestState' },
    async (ctx) => {
      entered('book_trip');
      const state = ctx.mcpReq.requestState<string>();
      if (state === undefined) {
        const answered = inputResponse(ctx.mcpReq.inputResponses, 'where');
        if (answered.kind === 'elicit' && answered.action !== 'accept') {
          return text(`no trip (${answered.action})`);
        }
        const where = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'where');
        if (where === undefined) {
          return inputRequired({
            inputRequests: {
              where: inputRequired.elicit({ message: 'Where to?', requestedSchema: field('name') }),
            },
          });
        }
        return inputRequired({
          inputRequests: {
            when: inputRequired.elicit({
              message: `When to ${where.name}?`,
              requestedSchema: field('name'),
            }),
          },
          requestState: where.name,
        });
      }
      const when = inputResponse(ctx.mcpReq.inputResponses, 'when');
      if (when.kind !== 'elicit' || when.action !== 'accept')
        return text(`no date (${when.kind === 'elicit' ? when.action : when.kind})`);
      return text(`Trip to ${state} on ${String(when.content?.name)}`);
    },
  );
  server.registerTool(
    'survey',
    { description: 'A form, sampling and roots in one round' },
    async (ctx) => {
      entered('survey');
      const responses = ctx.mcpReq.inputResponses;
      const purpose = inputResponse(responses, 'purpose');
      const roots = inputResponse(responses, 'roots');
      const summary = inputResponse(responses, 'summary');
      if (purpose.kind !== 'elicit' || roots.kind !== 'roots' || summary.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            purpose: inputRequired.elicit({ message: 'Purpose?', requestedSchema: field('name') }),
            roots: inputRequired.listRoots(),
            summary: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the day' } }],
              maxTokens: 20,
            }),
          },
        });
      }
      const said = Array.isArray(summary.result.content)
        ? '?'
        : (summary.result.content as { text?: string }).text;
      return text(
        `${String(purpose.content?.name)} | ${roots.roots.map((r) => r.uri).join(',')} | ${said}`,
      );
    },
  );
  server.registerTool('fail', { description: 'A JSON-RPC error' }, () => {
    throw new ProtocolError(-32099, 'The upstream refuses', { why: 'on purpose' });
  });
  return server;
}

export interface SdkModernServer {
  url: string;
  entries: Entries;
  close(): Promise<void>;
}

export async function startSdkModernServer(): Promise<SdkModernServer> {
  const entries: Entries = {};
  const handler = createMcpHandler(() => build(entries), { legacy: 'reject' });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
        method: req.method,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      // Streamed as it comes: a listen stream (SSE) stays open.
      void handler.fetch(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        const reader = response.body?.getReader();
        for (let read = await reader?.read(); read !== undefined && !read.done;) {
          res.write(read.value);
          read = await reader!.read();
        }
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    entries,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
    },
  };
}
