import { isInputRequiredResult, type ReadResourceResult } from '@parley/core';
import { ResourceNotFoundError, UriTemplate, type Server } from '@modelcontextprotocol/server';
import {
  runMiddleware,
  type HandlerInfo,
  type ReadResourceParams,
  type ResourceRoundResult,
} from '@parley/middleware';

import type { Context, HandlerTarget } from '../context.ts';
import type { ResourceOptions } from '../definitions.ts';
import { handlerFailure, urlElicitationAsk } from '../protocolErrors.ts';
import { toResourceResult } from '../results.ts';
import { middlewareParams, roundMiddlewareContext } from './middlewareContext.ts';
import type { RoundRunner } from './roundRunner.ts';

/** A resource's options as the lists show them: Parley's own options stay on the server. */
function listedFields(
  options: ResourceOptions,
): Omit<ResourceOptions, 'asks' | 'cacheable' | 'complete'> {
  const { asks: _asks, cacheable: _cacheable, complete: _complete, ...listed } = options;
  return listed;
}

/** What a `resources/read` resolves to: the handler, and how middleware and the ask see it. */
interface ResolvedRead {
  target: HandlerTarget;
  handler: HandlerInfo;
  mimeType: string | undefined;
  read: (context: Context) => Promise<unknown>;
}

/**
 * A final read that followed answers depends on them, and they are not part of any cache key:
 * on the modern protocol it says so with the strictest hints the spec allows (stale at once,
 * private), since the fields themselves are required on every read result.
 */
function uncacheable(result: ReadResourceResult): ReadResourceResult {
  return { ...result, ttlMs: 0, cacheScope: 'private' } as ReadResourceResult;
}

/** `resources/list`, `resources/templates/list` and `resources/read`; a read may ask first. */
export function registerResources(server: Server, runner: RoundRunner): void {
  const { runtime } = runner;
  if (runtime.resources.size === 0 && runtime.templates.length === 0) return;
  const templates = runtime.templates.map((definition) => ({
    definition,
    matcher: new UriTemplate(definition.uriTemplate),
  }));

  const resolve = (uri: string): ResolvedRead => {
    const fixed = runtime.resources.get(uri);
    if (fixed !== undefined) {
      return {
        target: { kind: 'resource', name: uri },
        handler: { kind: 'resource', name: uri, cacheable: fixed.options.cacheable === true },
        mimeType: fixed.options.mimeType,
        read: async (context) => fixed.handler(new URL(uri), context),
      };
    }
    for (const { definition, matcher } of templates) {
      const variables = matcher.match(uri);
      if (variables === null) continue;
      return {
        target: { kind: 'resourceTemplate', name: uri },
        handler: {
          kind: 'resourceTemplate',
          name: uri,
          uriTemplate: definition.uriTemplate,
          cacheable: definition.options.cacheable === true,
        },
        mimeType: definition.options.mimeType,
        read: async (context) => definition.handler(new URL(uri), variables, context),
      };
    }
    throw new ResourceNotFoundError(uri);
  };

  server.setRequestHandler('resources/list', (request, ctx) =>
    runner.runList(ctx, 'resources/list', request.params, () => ({
      resources: [...runtime.resources.values()].map(({ uri, options }) => ({
        uri,
        ...listedFields(options),
      })),
    })),
  );
  server.setRequestHandler('resources/templates/list', (request, ctx) =>
    runner.runList(ctx, 'resources/templates/list', request.params, () => ({
      resourceTemplates: runtime.templates.map(({ uriTemplate, options }) => ({
        uriTemplate,
        ...listedFields(options),
      })),
    })),
  );

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const { target, handler, mimeType, read } = resolve(uri);
    const round = await runner.openRound(ctx, target, 'resources/read', undefined);
    const { context, binding } = round;
    const params: ReadResourceParams = { ...middlewareParams(request.params), uri };
    let result: ResourceRoundResult;
    try {
      result = await runMiddleware(
        runtime.middleware,
        roundMiddlewareContext(round, handler, params),
        async () => toResourceResult((await read(context)) as never, uri, mimeType),
      );
    } catch (error) {
      const ask = urlElicitationAsk(error, context.era);
      if (ask === undefined) {
        runtime.report(error, { method: 'resources/read', target: uri });
        throw handlerFailure(error);
      }
      result = ask;
    }
    if (isInputRequiredResult(result))
      return (await runner.askOnWire(context, target, result, binding)) as never;
    return (
      context.era === 'modern' && context.isContinuation ? uncacheable(result) : result
    ) as never;
  });
}

/** Resource subscriptions of a handshake-era session (the modern era subscribes with `subscriptions/listen`). */
export function registerSubscriptions(server: Server, runner: RoundRunner): void {
  const { changes } = runner.runtime;
  server.setRequestHandler('resources/subscribe', (request) => {
    changes.subscribe(server, request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    changes.unsubscribe(server, request.params.uri);
    return {};
  });
}
