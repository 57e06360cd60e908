import {
  EraMismatchError,
  InputRequiredToolResult,
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  ParleyError,
  ToolResult,
  isInputRequiredResult,
  type ClientCapabilities,
  type ElicitationSchema,
  type Era,
  type Implementation,
  type InputRequiredResult,
  type Root,
} from '@parley/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ResourceNotFoundError,
  Server,
  UriTemplate,
  type AuthInfo,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  runMiddleware,
  type CallToolParams,
  type GetPromptParams,
  type HandlerInfo,
  type Middleware,
  type MiddlewareContext,
  type MiddlewareFunction,
  type PromptRoundResult,
  type ReadResourceParams,
  type ResourceRoundResult,
} from '@parley/middleware';
import type { RequestBinding, RequestStateSealer } from '@parley/state-sealing';
import type * as z from 'zod';

import { checkInputResponses } from './answers.ts';
import { Context, type HandlerTarget, type LogLevel, type RequestContext } from './context.ts';
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceOptions,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.ts';
import { errorText, handlerFailure, isProtocolLevel, toProtocolError } from './protocolErrors.ts';
import type { PushChannel } from './pushChannel.ts';
import { toPromptResult, toResourceResult, toToolResult } from './results.ts';
import { registerCompletion } from './completion.ts';
import type { ChangeNotifier } from './notifications.ts';
import { finishAsk, startRound } from './round.ts';
import type { WarningSource } from './schemaWarnings.ts';

/** Everything a serving unit needs from the `ParleyServer` that owns it. */
export interface ServerRuntime {
  info: Implementation;
  instructions: string | undefined;
  tools: ReadonlyMap<string, ToolDefinition>;
  prompts: ReadonlyMap<string, PromptDefinition>;
  resources: ReadonlyMap<string, ResourceDefinition>;
  templates: readonly ResourceTemplateDefinition[];
  sealer: RequestStateSealer;
  elicitationTimeoutMs: number;
  /** Server-side reports: rejected state (with its reason), unexpected failures. */
  report(error: unknown, where: { method: string; target: string }): void;
  /** Reports compatibility warnings about a schema, once per handler and schema. */
  lintSchema(source: WarningSource, schema: ElicitationSchema): void;
  /** The clock flows are timed with (ms since the epoch). */
  now: () => number;
  /** Where list changes and resource updates are announced. */
  changes: ChangeNotifier;
  /** The middleware chain, in the order it was installed. */
  middleware: readonly (Middleware | MiddlewareFunction)[];
}

/** One serving unit: a handshake-era session, or one modern request. */
export interface ServingUnit {
  era: 'legacy' | 'modern';
  authInfo?: AuthInfo | undefined;
  /** Why server-initiated requests cannot reach this unit's client, if they cannot. */
  pushUnavailable?: (() => ParleyError) | undefined;
}

type SdkContext = ServerContext;

function capabilitiesOf(runtime: ServerRuntime): ServerCapabilities {
  const hasResources = runtime.resources.size > 0 || runtime.templates.length > 0;
  return {
    logging: {},
    ...(runtime.tools.size > 0 ? { tools: { listChanged: true } } : {}),
    ...(runtime.prompts.size > 0 ? { prompts: { listChanged: true } } : {}),
    ...(hasResources ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(runtime.prompts.size > 0 || runtime.templates.length > 0 ? { completions: {} } : {}),
  };
}

/** Resource subscriptions of a handshake-era session (the modern era subscribes with `subscriptions/listen`). */
function registerSubscriptions(server: Server, runtime: ServerRuntime): void {
  server.setRequestHandler('resources/subscribe', (request) => {
    runtime.changes.subscribe(server, request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    runtime.changes.unsubscribe(server, request.params.uri);
    return {};
  });
}

/**
 * Build the SDK server for one serving unit, with Parley's handlers for every method. The SDK
 * keeps the protocol (framing, negotiation, discover, wire validation); Parley owns dispatch,
 * the era gate, sealing and the author's context.
 */
export function buildSdkServer(runtime: ServerRuntime, unit: ServingUnit): Server {
  const server = new Server(runtime.info, {
    capabilities: capabilitiesOf(runtime),
    ...(runtime.instructions !== undefined ? { instructions: runtime.instructions } : {}),
    // The era gate is Parley's: an ask on a handshake connection is an error, not bridged.
    inputRequired: { legacyShim: false },
  });
  const era: Era = unit.era === 'modern' ? 'modern' : 'handshake';
  const principal = unit.authInfo?.clientId;

  const requestContextOf = (ctx: SdkContext, method: string): RequestContext => {
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    return era === 'modern'
      ? {
          protocolVersion:
            (envelope[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? MODERN_PROTOCOL_VERSION,
          era,
          method,
          clientCapabilities:
            (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {},
          clientInfo: envelope[CLIENT_INFO_META_KEY] as Implementation | undefined,
          sessionId: undefined,
          principal,
        }
      : {
          protocolVersion:
            server.getNegotiatedProtocolVersion() ?? LATEST_HANDSHAKE_PROTOCOL_VERSION,
          era,
          method,
          clientCapabilities: (server.getClientCapabilities() ?? {}) as ClientCapabilities,
          clientInfo: server.getClientVersion() as Implementation | undefined,
          sessionId: ctx.sessionId,
          principal,
        };
  };

  /** `sent` counts each pushed request, so middleware knows a result followed answers. */
  const pushChannelOf = (ctx: SdkContext, sent: () => void): PushChannel | undefined => {
    if (era === 'modern') return undefined;
    const unavailable = unit.pushUnavailable;
    return {
      // Plain related requests (not the SDK's elicitInput), so answers are validated once, by
      // Parley, into its typed errors.
      elicit: (params, o) => {
        sent();
        return ctx.mcpReq.send(
          { method: 'elicitation/create', params: params as never },
          o,
        ) as never;
      },
      sample: (params, o) => {
        sent();
        return ctx.mcpReq.send(
          { method: 'sampling/createMessage', params: params as never },
          o,
        ) as never;
      },
      listRoots: async (o) => {
        sent();
        return (
          (await ctx.mcpReq.send({ method: 'roots/list', params: {} }, o)) as { roots: Root[] }
        ).roots;
      },
      completeElicitation: (id) => server.createElicitationCompletionNotifier(id)(),
      ...(unavailable !== undefined ? { unavailable: () => unavailable() } : {}),
    };
  };

  /**
   * Build the Context for one round: check the answers, open the state (bound to this server,
   * method, target, arguments and principal), and wire the era's channels.
   */
  const openRound = async (
    ctx: SdkContext,
    target: HandlerTarget,
    method: string,
    args: unknown,
  ): Promise<OpenedRound> => {
    const request = requestContextOf(ctx, method);
    const binding: RequestBinding = {
      method,
      target: target.name,
      arguments: args ?? {},
      ...(principal !== undefined ? { principal } : {}),
    };
    const { inputResponses, start, resumesFlow } = await asProtocolErrors(
      { method, target: target.name },
      async () => {
        const inputResponses =
          era === 'modern'
            ? checkInputResponses(ctx.mcpReq.inputResponses, ctx.mcpReq.droppedInputResponseKeys)
            : null;
        const rawState = era === 'modern' ? ctx.mcpReq.requestState() : undefined;
        const start = await startRound(
          runtime.sealer,
          rawState,
          inputResponses,
          binding,
          runtime.now,
        );
        // Only a state that opened gets this far: the round resumes a flow this server started.
        return { inputResponses, start, resumesFlow: rawState !== undefined };
      },
    );
    let pushed = 0;
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const context = new Context({
      target,
      request,
      flow: start.flow,
      inputResponses,
      requestState: start.requestState,
      signal: ctx.mcpReq.signal,
      push: pushChannelOf(ctx, () => {
        pushed += 1;
      }),
      log: (level: LogLevel, data: unknown) => ctx.mcpReq.log(level, data),
      progress:
        progressToken === undefined
          ? undefined
          : (progress, total, message) =>
              ctx.mcpReq.notify({
                method: 'notifications/progress',
                params: {
                  progressToken,
                  progress,
                  ...(total !== undefined ? { total } : {}),
                  ...(message !== undefined ? { message } : {}),
                },
              }),
      elicitationTimeoutMs: runtime.elicitationTimeoutMs,
      lintSchema: (schema) => runtime.lintSchema(target, schema),
    });
    return { context, binding, resumesFlow, pushedRequests: () => pushed };
  };

  /** The wire form of an ask, or the era error when the connection cannot carry one. */
  const askOnWire = (
    context: Context,
    target: HandlerTarget,
    ask: InputRequiredResult,
    binding: RequestBinding,
  ): Promise<InputRequiredResult> =>
    asProtocolErrors({ method: binding.method, target: target.name }, () => {
      if (context.era !== 'modern') {
        throw new EraMismatchError({
          kind: target.kind,
          name: target.name,
          protocolVersion: context.requestContext.protocolVersion,
          used: 'inputRequired',
        });
      }
      for (const [key, request] of Object.entries(ask.inputRequests ?? {})) {
        if (request.method === 'elicitation/create' && request.params.mode !== 'url') {
          runtime.lintSchema({ ...target, key }, request.params.requestedSchema);
        }
      }
      const declared = context.requestContext.clientCapabilities;
      return finishAsk(runtime.sealer, ask, declared, context.flow, binding);
    });

  /** Run `work`; a Parley error it throws is reported and sent as its JSON-RPC error. */
  const asProtocolErrors = async <T>(
    where: { method: string; target: string },
    work: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ParleyError) {
        runtime.report(error, where);
        throw toProtocolError(error);
      }
      throw error;
    }
  };

  /**
   * Run a list method's middleware around `build`. Lists have no handler, no author context and
   * no flow; a throw from middleware goes to the client as its JSON-RPC error.
   */
  const runList: RunList = async (ctx, method, params, build) => {
    if (runtime.middleware.length === 0) return build();
    const request = requestContextOf(ctx, method);
    const context: MiddlewareContext = {
      method,
      params: middlewareParams(params),
      era: request.era,
      protocolVersion: request.protocolVersion,
      principal,
      handler: undefined,
      parleyContext: undefined,
      flow: undefined,
      isContinuation: false,
      resumesFlow: false,
      pushedRequests: 0,
      store: new Map(),
    };
    try {
      return await runMiddleware(runtime.middleware, context, async () => build());
    } catch (error) {
      runtime.report(error, { method, target: '-' });
      throw handlerFailure(error);
    }
  };

  registerTools(server, runtime, openRound, askOnWire, runList);
  registerPrompts(server, runtime, openRound, askOnWire, runList);
  registerResources(server, runtime, openRound, askOnWire, runList);
  if (era === 'handshake') runtime.changes.track(server);
  if (runtime.prompts.size > 0 || runtime.templates.length > 0) {
    registerCompletion(server, runtime.prompts, runtime.templates);
  }
  if (era === 'handshake' && (runtime.resources.size > 0 || runtime.templates.length > 0)) {
    registerSubscriptions(server, runtime);
  }
  return server;
}

/** One round, opened: the author's context, what its state is bound to, and what middleware sees. */
interface OpenedRound {
  context: Context;
  binding: RequestBinding;
  /** The round carried a sealed state that opened. */
  resumesFlow: boolean;
  /** Handshake era: server-initiated requests sent so far in this round. */
  pushedRequests: () => number;
}

type OpenRound = (
  ctx: SdkContext,
  target: HandlerTarget,
  method: string,
  args: unknown,
) => Promise<OpenedRound>;
type AskOnWire = (
  context: Context,
  target: HandlerTarget,
  ask: InputRequiredResult,
  binding: RequestBinding,
) => Promise<InputRequiredResult>;
type RunList = <T>(ctx: SdkContext, method: string, params: unknown, build: () => T) => Promise<T>;

/** A request's params as middleware sees them: without the protocol's own fields. */
function middlewareParams(params: unknown): Record<string, unknown> {
  const {
    _meta: _envelope,
    inputResponses: _answers,
    requestState: _state,
    ...rest
  } = (params ?? {}) as Record<string, unknown>;
  return rest;
}

/** The middleware context of a round, built only after its state was opened and verified. */
function roundMiddlewareContext<TParams extends object>(
  round: OpenedRound,
  handler: HandlerInfo,
  params: TParams,
): MiddlewareContext<TParams> {
  const { context } = round;
  return {
    method: context.requestContext.method,
    params,
    era: context.era,
    protocolVersion: context.requestContext.protocolVersion,
    principal: context.requestContext.principal,
    handler,
    parleyContext: context,
    flow: context.flow,
    isContinuation: context.isContinuation,
    resumesFlow: round.resumesFlow,
    get pushedRequests() {
      return round.pushedRequests();
    },
    store: new Map(),
  };
}

/** A resource's options as the lists show them: Parley's own options stay on the server. */
function listedFields(
  options: ResourceOptions,
): Omit<ResourceOptions, 'asks' | 'cacheable' | 'complete'> {
  const { asks: _asks, cacheable: _cacheable, complete: _complete, ...listed } = options;
  return listed;
}

async function parseArgs(
  schema: z.ZodObject | undefined,
  args: unknown,
  what: string,
): Promise<unknown> {
  if (schema === undefined) return args ?? {};
  const parsed = await schema.safeParseAsync(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new ProtocolError(-32602, `Invalid arguments for ${what}: ${issues.join('; ')}`);
  }
  return parsed.data;
}

function registerTools(
  server: Server,
  runtime: ServerRuntime,
  openRound: OpenRound,
  askOnWire: AskOnWire,
  runList: RunList,
): void {
  if (runtime.tools.size === 0) return;
  server.setRequestHandler('tools/list', (request, ctx) =>
    runList(ctx, 'tools/list', request.params, () => ({
      tools: [...runtime.tools.values()].map((tool) => ({
        name: tool.name,
        ...(tool.options.title !== undefined ? { title: tool.options.title } : {}),
        ...(tool.options.description !== undefined
          ? { description: tool.options.description }
          : {}),
        inputSchema: tool.inputJsonSchema as never,
        ...(tool.outputJsonSchema !== undefined
          ? { outputSchema: tool.outputJsonSchema as never }
          : {}),
        ...(tool.options.annotations !== undefined
          ? { annotations: tool.options.annotations }
          : {}),
        ...(tool.options._meta !== undefined ? { _meta: tool.options._meta } : {}),
      })),
    })),
  );

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = runtime.tools.get(request.params.name);
    if (tool === undefined)
      throw new ProtocolError(-32602, `Tool ${request.params.name} not found`);
    const target: HandlerTarget = { kind: 'tool', name: tool.name };
    const args = await parseArgs(tool.input, request.params.arguments, `tool ${tool.name}`);
    const round = await openRound(ctx, target, 'tools/call', request.params.arguments);
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
      if (isProtocolLevel(error)) {
        runtime.report(error, { method: 'tools/call', target: tool.name });
        throw toProtocolError(error);
      }
      result = new ToolResult({
        content: [{ type: 'text', text: errorText(error) }],
        isError: true,
      });
    }
    if (result instanceof InputRequiredToolResult) {
      return (await askOnWire(context, target, result.toJSON(), binding)) as never;
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

function registerPrompts(
  server: Server,
  runtime: ServerRuntime,
  openRound: OpenRound,
  askOnWire: AskOnWire,
  runList: RunList,
): void {
  if (runtime.prompts.size === 0) return;
  server.setRequestHandler('prompts/list', (request, ctx) =>
    runList(ctx, 'prompts/list', request.params, () => ({
      prompts: [...runtime.prompts.values()].map((prompt) => ({
        name: prompt.name,
        ...(prompt.options.title !== undefined ? { title: prompt.options.title } : {}),
        ...(prompt.options.description !== undefined
          ? { description: prompt.options.description }
          : {}),
        ...(prompt.argumentList !== undefined ? { arguments: prompt.argumentList } : {}),
      })),
    })),
  );

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const prompt = runtime.prompts.get(request.params.name);
    if (prompt === undefined)
      throw new ProtocolError(-32602, `Prompt ${request.params.name} not found`);
    const target: HandlerTarget = { kind: 'prompt', name: prompt.name };
    const args = await parseArgs(prompt.input, request.params.arguments, `prompt ${prompt.name}`);
    const round = await openRound(ctx, target, 'prompts/get', request.params.arguments);
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
      runtime.report(error, { method: 'prompts/get', target: prompt.name });
      throw handlerFailure(error);
    }
    if (isInputRequiredResult(result))
      return (await askOnWire(context, target, result, binding)) as never;
    return result as never;
  });
}

function registerResources(
  server: Server,
  runtime: ServerRuntime,
  openRound: OpenRound,
  askOnWire: AskOnWire,
  runList: RunList,
): void {
  if (runtime.resources.size === 0 && runtime.templates.length === 0) return;
  const templates = runtime.templates.map((definition) => ({
    definition,
    matcher: new UriTemplate(definition.uriTemplate),
  }));

  server.setRequestHandler('resources/list', (request, ctx) =>
    runList(ctx, 'resources/list', request.params, () => ({
      resources: [...runtime.resources.values()].map(({ uri, options }) => ({
        uri,
        ...listedFields(options),
      })),
    })),
  );
  server.setRequestHandler('resources/templates/list', (request, ctx) =>
    runList(ctx, 'resources/templates/list', request.params, () => ({
      resourceTemplates: runtime.templates.map(({ uriTemplate, options }) => ({
        uriTemplate,
        ...listedFields(options),
      })),
    })),
  );

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const fixed = runtime.resources.get(uri);
    let read: (context: Context) => Promise<unknown>;
    let target: HandlerTarget;
    let mimeType: string | undefined;
    let handler: HandlerInfo;
    if (fixed !== undefined) {
      target = { kind: 'resource', name: uri };
      mimeType = fixed.options.mimeType;
      handler = { kind: 'resource', name: uri, cacheable: fixed.options.cacheable === true };
      read = async (context) => fixed.handler(new URL(uri), context);
    } else {
      const match = templates
        .map(({ definition, matcher }) => ({ definition, variables: matcher.match(uri) }))
        .find((candidate) => candidate.variables !== null);
      if (match === undefined || match.variables === null) throw new ResourceNotFoundError(uri);
      const { definition, variables } = match;
      target = { kind: 'resourceTemplate', name: uri };
      mimeType = definition.options.mimeType;
      handler = {
        kind: 'resourceTemplate',
        name: uri,
        uriTemplate: definition.uriTemplate,
        cacheable: definition.options.cacheable === true,
      };
      read = async (context) => definition.handler(new URL(uri), variables, context);
    }
    const round = await openRound(ctx, target, 'resources/read', undefined);
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
      runtime.report(error, { method: 'resources/read', target: uri });
      throw handlerFailure(error);
    }
    if (isInputRequiredResult(result))
      return (await askOnWire(context, target, result, binding)) as never;
    return result as never;
  });
}
