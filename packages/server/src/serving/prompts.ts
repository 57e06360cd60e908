import { isInputRequiredResult } from '@parley/core';
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import {
  runMiddleware,
  type GetPromptParams,
  type HandlerInfo,
  type PromptRoundResult,
} from '@parley/middleware';

import type { HandlerTarget } from '../context.ts';
import { handlerFailure, urlElicitationAsk } from '../protocolErrors.ts';
import { toPromptResult } from '../results.ts';
import { middlewareParams, roundMiddlewareContext } from './middlewareContext.ts';
import { parseArgs } from './parseArgs.ts';
import type { RoundRunner } from './roundRunner.ts';

/** `prompts/list` and `prompts/get`; a prompt may ask before it renders, exactly like a tool. */
export function registerPrompts(server: Server, runner: RoundRunner): void {
  const { runtime } = runner;
  if (runtime.prompts.size === 0) return;

  server.setRequestHandler('prompts/list', (request, ctx) =>
    runner.runList(ctx, 'prompts/list', request.params, () => ({
      prompts: [...runtime.prompts.values()].map(({ name, options, argumentList }) => ({
        name,
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.description !== undefined ? { description: options.description } : {}),
        ...(argumentList !== undefined ? { arguments: argumentList } : {}),
      })),
    })),
  );

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const prompt = runtime.prompts.get(request.params.name);
    if (prompt === undefined)
      throw new ProtocolError(-32602, `Prompt ${request.params.name} not found`);
    const target: HandlerTarget = { kind: 'prompt', name: prompt.name };
    const args = await parseArgs(prompt.input, request.params.arguments, `prompt ${prompt.name}`);
    const round = await runner.openRound(ctx, target, 'prompts/get', request.params.arguments);
    const { context, binding } = round;
    const handler: HandlerInfo = { kind: 'prompt', name: prompt.name, cacheable: false };
    const params: GetPromptParams = {
      ...middlewareParams(request.params),
      name: prompt.name,
      arguments: request.params.arguments ?? {},
    };
    let result: PromptRoundResult;
    try {
      result = await runMiddleware(
        runtime.middleware,
        roundMiddlewareContext(round, handler, params),
        async () => toPromptResult(await prompt.handler(args, context)),
      );
    } catch (error) {
      const ask = urlElicitationAsk(error, context.era);
      if (ask === undefined) {
        runtime.report(error, { method: 'prompts/get', target: prompt.name });
        throw handlerFailure(error);
      }
      result = ask;
    }
    if (isInputRequiredResult(result))
      return (await runner.askOnWire(context, target, result, binding)) as never;
    return result as never;
  });
}
