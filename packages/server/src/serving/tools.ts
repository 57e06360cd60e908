import { InputRequiredToolResult, ToolResult } from '@parley/core';
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { runMiddleware, type CallToolParams, type HandlerInfo } from '@parley/middleware';

import type { HandlerTarget } from '../context.ts';
import {
  errorText,
  isProtocolLevel,
  toProtocolError,
  urlElicitationAsk,
} from '../protocolErrors.ts';
import { toToolResult } from '../results.ts';
import { middlewareParams, roundMiddlewareContext } from './middlewareContext.ts';
import { validArgs } from './parseArgs.ts';
import type { RoundRunner } from './roundRunner.ts';

/**
 * `tools/list` and `tools/call`. A call runs the middleware chain around the handler; after
 * it, an ask goes on the wire (sealed, era-gated), a protocol-level Parley error becomes its
 * JSON-RPC error, and any other throw becomes an `isError` result, as MCP wants tool failures.
 */
export function registerTools(server: Server, runner: RoundRunner): void {
  const { runtime } = runner;
  if (runtime.tools.size === 0) return;

  server.setRequestHandler('tools/list', (request, ctx) =>
    runner.runList(ctx, 'tools/list', request.params, () => ({
      tools: [...runtime.tools.values()].map(({ name, options, input, outputJsonSchema }) => ({
        name,
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.description !== undefined ? { description: options.description } : {}),
        inputSchema: (input?.jsonSchema ?? { type: 'object', properties: {} }) as never,
        ...(outputJsonSchema !== undefined ? { outputSchema: outputJsonSchema as never } : {}),
        ...(options.annotations !== undefined ? { annotations: options.annotations } : {}),
        ...(options._meta !== undefined ? { _meta: options._meta } : {}),
      })),
    })),
  );

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = runtime.tools.get(request.params.name);
    if (tool === undefined)
      throw new ProtocolError(-32602, `Tool ${request.params.name} not found`);
    const target: HandlerTarget = { kind: 'tool', name: tool.name };
    const args = await validArgs(tool.input, request.params.arguments, `tool ${tool.name}`);
    const round = await runner.openRound(ctx, target, 'tools/call', request.params.arguments);
    const { context, binding } = round;
    const hasOutputSchema = tool.options.outputSchema !== undefined;
    const handler: HandlerInfo = {
      kind: 'tool',
      name: tool.name,
      cacheable: tool.options.cacheable === true,
    };
    const params: CallToolParams = {
      ...middlewareParams(request.params),
      name: tool.name,
      arguments: request.params.arguments ?? {},
    };
    let result: ToolResult;
    try {
      // What the chain resolves to is normalised like a handler's return value.
      result = toToolResult(
        await runMiddleware(
          runtime.middleware,
          roundMiddlewareContext(round, handler, params),
          async () => toToolResult(await tool.handler(args, context), hasOutputSchema),
        ),
        hasOutputSchema,
      );
    } catch (error) {
      const ask = urlElicitationAsk(error, context.era);
      if (ask !== undefined) {
        result = new InputRequiredToolResult(ask);
      } else if (isProtocolLevel(error)) {
        runtime.report(error, { method: 'tools/call', target: tool.name });
        throw toProtocolError(error);
      } else {
        result = new ToolResult({
          content: [{ type: 'text', text: errorText(error) }],
          isError: true,
        });
      }
    }
    if (result instanceof InputRequiredToolResult) {
      return (await runner.askOnWire(context, target, result.toJSON(), binding)) as never;
    }
    const wire = result.toJSON() as Parameters<Server['projectCallToolResult']>[0];
    if (tool.options.outputSchema !== undefined && !result.isError) {
      const checked = await tool.options.outputSchema.safeParseAsync(wire.structuredContent);
      if (!checked.success) {
        throw new ProtocolError(
          -32603,
          `Tool ${tool.name} returned structured content that does not match its outputSchema: ${checked.error.message}`,
        );
      }
    }
    return server.projectCallToolResult(wire, tool.outputJsonSchema);
  });
}
