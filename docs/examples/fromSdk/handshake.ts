// #region server
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** The raw SDK v2 on the handshake era: one question, a JSON Schema written by hand. */
export function createSdkServer(): McpServer {
  const server = new McpServer({ name: 'Greeter', version: '1.0.0' });

  server.registerTool(
    'ask_name',
    { inputSchema: z.object({}) },
    async (_args, ctx) => {
      const result = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message: "What's your name?",
        requestedSchema: {
          type: 'object',
          properties: { value: { type: 'string', title: 'Name' } },
          required: ['value'],
        },
      });
      // The content is the client's, untyped: check it yourself.
      const name = result.content?.value;
      const text =
        result.action === 'accept' && typeof name === 'string'
          ? `Hello, ${name}!`
          : 'Hello, stranger!';
      return { content: [{ type: 'text', text }] };
    },
  );

  return server;
}
// #endregion server
