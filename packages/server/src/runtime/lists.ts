import { jsonRpcError, type ClientCapabilities } from '@parley/core';
import type { MiddlewareContext } from '@parley/middleware';

import { reachOf } from '../ask/askRoutes.ts';
import type { RequestContext } from '../handler/contextTypes.ts';
import type { ResourceOptions, ToolDefinition } from '../handler/definitions.ts';
import { listedInputSchema, unanswerableAsks } from '../handler/fallback/listedArguments.ts';
import { runInstalledMiddleware } from '../round/middleware.ts';
import { mapFailure } from '../round/errors.ts';
import type { RoundReply } from '../round/request.ts';
import type { ServerRuntime } from './serverRuntime.ts';
import { handshakeToolExecution } from '../tasks/handshakeWire.ts';
import { ANSWER_TOOL_LISTING, withApp } from './appListing.ts';

/**
 * The list methods, for both eras: what `tools/list`, `prompts/list`, `resources/list` and
 * `resources/templates/list` answer, run inside the middleware chain.
 */

/** The list methods. */
export type ListMethod =
  'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** A resource's options as the lists show them: Parley's own options stay on the server. */
function listedFields(options: ResourceOptions): Record<string, unknown> {
  const {
    asks: _asks,
    cacheable: _cacheable,
    complete: _complete,
    maxReasks: _maxReasks,
    relayRound: _relayRound,
    ...listed
  } = options as ResourceOptions;
  return listed;
}

/**
 * A tool as `capabilities` sees it: `undefined` when its fallback hides it from a client that
 * cannot answer its asks; with the arguments standing in for those asks under `'arguments'`.
 */
function listedTool(
  { name, options, input, outputJsonSchema, fallback, task }: ToolDefinition,
  capabilities: ClientCapabilities,
): Record<string, unknown> | undefined {
  if (fallback?.policy === 'hide' && unanswerableAsks(fallback, capabilities, false).length > 0) {
    return undefined;
  }
  const inputSchema = input?.jsonSchema ?? { type: 'object', properties: {} };
  return {
    name,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    inputSchema:
      fallback === undefined ? inputSchema : listedInputSchema(inputSchema, fallback, capabilities),
    ...(outputJsonSchema !== undefined ? { outputSchema: outputJsonSchema } : {}),
    ...(options.annotations !== undefined ? { annotations: options.annotations } : {}),
    ...(task !== undefined ? { execution: handshakeToolExecution(task.support) } : {}),
    ...(options._meta !== undefined ? { _meta: options._meta } : {}),
  };
}

/**
 * The result of a list method, before any era-specific stamping. Tools are listed per client
 * (`capabilities`: the session's on the handshake era, the request's on the modern one).
 */
export function listOf(
  runtime: ServerRuntime,
  method: ListMethod,
  client: Pick<RequestContext, 'clientCapabilities' | 'clientInfo'>,
): Record<string, unknown> {
  switch (method) {
    case 'tools/list': {
      // As a call would reach this client: on the App route, each tool names the App.
      const reach = reachOf(
        runtime.asking,
        client.clientCapabilities,
        client.clientInfo,
        'tools/call',
      );
      const tools = [...runtime.tools.values()].flatMap((tool) => {
        const listed = listedTool(tool, reach.capabilities);
        if (listed === undefined) return [];
        return [reach.app ? withApp(listed) : listed];
      });
      return { tools: reach.app ? [...tools, ANSWER_TOOL_LISTING] : tools };
    }
    case 'prompts/list':
      return {
        prompts: [...runtime.prompts.values()].map(({ name, options, argumentList }) => ({
          name,
          ...(options.title !== undefined ? { title: options.title } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(argumentList !== undefined ? { arguments: argumentList } : {}),
        })),
      };
    case 'resources/list':
      return {
        resources: [...runtime.resources.values()].map(({ uri, options }) => ({
          uri,
          ...listedFields(options as never),
        })),
      };
    case 'resources/templates/list':
      return {
        resourceTemplates: runtime.templates.map(({ uriTemplate, options }) => ({
          uriTemplate,
          ...listedFields(options as never),
        })),
      };
  }
}

/** A request's params as middleware sees them: without the protocol's own fields. */
export function middlewareParams(params: unknown): Record<string, unknown> {
  const {
    _meta: _envelope,
    inputResponses: _answers,
    requestState: _state,
    ...rest
  } = (params ?? {}) as Record<string, unknown>;
  return rest;
}

/**
 * Serve a list method inside the middleware chain. Lists have no handler, no author context
 * and no flow; a throw from middleware goes to the client as its JSON-RPC error.
 */
export async function serveList(
  runtime: ServerRuntime,
  method: ListMethod,
  params: unknown,
  request: RequestContext,
): Promise<RoundReply> {
  if (runtime.middleware.length === 0)
    return { kind: 'result', result: listOf(runtime, method, request) };
  const context: MiddlewareContext = {
    method,
    params: middlewareParams(params),
    era: request.era,
    protocolVersion: request.protocolVersion,
    principal: request.principal,
    handler: undefined,
    flow: undefined,
    inputResponses: null,
    requestState: null,
    isContinuation: false,
    resumesFlow: false,
    pushedRequests: 0,
    store: new Map(),
  };
  try {
    const result = await runInstalledMiddleware(runtime.middleware, context, async () =>
      listOf(runtime, method, request),
    );
    return { kind: 'result', result: result as Record<string, unknown> };
  } catch (error) {
    runtime.report(error, { method, target: '-' });
    const failure = mapFailure(error, { era: request.era, kind: 'prompt', method, target: '-' });
    return failure.kind === 'error'
      ? failure
      : { kind: 'error', error: jsonRpcError('internalError', 'Internal error') };
  }
}
