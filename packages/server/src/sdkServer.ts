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
import type { Middleware, MiddlewareFunction } from '@parley/middleware';
import type { RequestBinding, RequestStateSealer } from '@parley/state-sealing';
import type * as z from 'zod';

import { checkInputResponses } from './answers.ts';
import { Context, type HandlerTarget, type LogLevel, type RequestContext } from './context.ts';
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.ts';
import { errorText, handlerFailure, isProtocolLevel, toProtocolError } from './protocolErrors.ts';
import type { PushChannel } from './pushChannel.ts';
import { toPromptResult, toResourceResult, toToolResult } from './results.ts';
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
  return {
    logging: {},
    ...(runtime.tools.size > 0 ? { tools: {} } : {}),
    ...(runtime.prompts.size > 0 ? { prompts: {} } : {}),
    ...(runtime.resources.size > 0 || runtime.templates.length > 0 ? { resources: {} } : {}),
  };
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

  const pushChannelOf = (ctx: SdkContext): PushChannel | undefined => {
    if (era === 'modern') return undefined;
    const unavailable = unit.pushUnavailable;
    return {
      // Plain related requests (not the SDK's elicitInput), so answers are validated once, by
      // Parley, into its typed errors.
      elicit: (params, o) =>
        ctx.mcpReq.send({ method: 'elicitation/create', params: params as never }, o) as never,
      sample: (params, o) =>
        ctx.mcpReq.send({ method: 'sampling/createMessage', params: params as never }, o) as never,
      listRoots: async (o) =>
        ((await ctx.mcpReq.send({ method: 'roots/list', params: {} }, o)) as { roots: Root[] })
          .roots,
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
  ): Promise<{ context: Context; binding: RequestBinding }> => {
    const request = requestContextOf(ctx, method);
    const binding: RequestBinding = {
      method,
      target: target.name,
      arguments: args ?? {},
      ...(principal !== undefined ? { principal } : {}),
    };
    const { inputResponses, start } = await asProtocolErrors(
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
        return { inputResponses, start };
      },
    );
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const context = new Context({
      target,
      request,
      flow: start.flow,
      inputResponses,
      requestState: start.requestState,
      signal: ctx.mcpReq.signal,
      push: pushChannelOf(ctx),
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
    return { context, binding };
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

  registerTools(server, runtime, openRound, askOnWire);
  registerPrompts(server, runtime, openRound, askOnWire);
  registerResources(server, runtime, openRound, askOnWire);
  return server;
}

type OpenRound = (
  ctx: SdkContext,
  target: HandlerTarget,
  method: string,
  args: unknown,
) => Promise<{ context: Context; binding: RequestBinding }>;
type AskOnWire = (
  context: Context,
  target: HandlerTarget,
  ask: InputRequiredResult,
  binding: RequestBinding,
) => Promise<InputRequiredResult>;

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
): void {
  if (runtime.tools.size === 0) return;
  server.setRequestHandler('tools/list', () => ({
    tools: [...runtime.tools.values()].map((tool) => ({
      name: tool.name,
      ...(tool.options.title !== undefined ? { title: tool.options.title } : {}),
      ...(tool.options.description !== undefined ? { description: tool.options.description } : {}),
      inputSchema: tool.inputJsonSchema as never,
      ...(tool.outputJsonSchema !== undefined
        ? { outputSchema: tool.outputJsonSchema as never }
        : {}),
      ...(tool.options.annotations !== undefined ? { annotations: tool.options.annotations } : {}),
      ...(tool.options._meta !== undefined ? { _meta: tool.options._meta } : {}),
    })),
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = runtime.tools.get(request.params.name);
    if (tool === undefined)
      throw new ProtocolError(-32602, `Tool ${request.params.name} not found`);
    const target: HandlerTarget = { kind: 'tool', name: tool.name };
    const args = await parseArgs(tool.input, request.params.arguments, `tool ${tool.name}`);
    const { context, binding } = await openRound(
      ctx,
      target,
      'tools/call',
      request.params.arguments,
    );
    let result: ToolResult;
    try {
      result = toToolResult(
        await tool.handler(args, context),
        tool.options.outputSchema !== undefined,
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
): void {
  if (runtime.prompts.size === 0) return;
  server.setRequestHandler('prompts/list', () => ({
    prompts: [...runtime.prompts.values()].map((prompt) => ({
      name: prompt.name,
      ...(prompt.options.title !== undefined ? { title: prompt.options.title } : {}),
      ...(prompt.options.description !== undefined
        ? { description: prompt.options.description }
        : {}),
      ...(prompt.argumentList !== undefined ? { arguments: prompt.argumentList } : {}),
    })),
  }));

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const prompt = runtime.prompts.get(request.params.name);
    if (prompt === undefined)
      throw new ProtocolError(-32602, `Prompt ${request.params.name} not found`);
    const target: HandlerTarget = { kind: 'prompt', name: prompt.name };
    const args = await parseArgs(prompt.input, request.params.arguments, `prompt ${prompt.name}`);
    const { context, binding } = await openRound(
      ctx,
      target,
      'prompts/get',
      request.params.arguments,
    );
    let result;
    try {
      result = toPromptResult(await prompt.handler(args, context));
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
): void {
  if (runtime.resources.size === 0 && runtime.templates.length === 0) return;
  const templates = runtime.templates.map((definition) => ({
    definition,
    matcher: new UriTemplate(definition.uriTemplate),
  }));

  server.setRequestHandler('resources/list', () => ({
    resources: [...runtime.resources.values()].map(({ uri, options }) => ({ uri, ...options })),
  }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: runtime.templates.map(({ uriTemplate, options }) => ({
      uriTemplate,
      ...options,
    })),
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    const fixed = runtime.resources.get(uri);
    let read: (context: Context) => Promise<unknown>;
    let target: HandlerTarget;
    let mimeType: string | undefined;
    if (fixed !== undefined) {
      target = { kind: 'resource', name: uri };
      mimeType = fixed.options.mimeType;
      read = async (context) => fixed.handler(new URL(uri), context);
    } else {
      const match = templates
        .map(({ definition, matcher }) => ({ definition, variables: matcher.match(uri) }))
        .find((candidate) => candidate.variables !== null);
      if (match === undefined || match.variables === null) throw new ResourceNotFoundError(uri);
      const { definition, variables } = match;
      target = { kind: 'resourceTemplate', name: uri };
      mimeType = definition.options.mimeType;
      read = async (context) => definition.handler(new URL(uri), variables, context);
    }
    const { context, binding } = await openRound(ctx, target, 'resources/read', undefined);
    let result;
    try {
      result = toResourceResult((await read(context)) as never, uri, mimeType);
    } catch (error) {
      runtime.report(error, { method: 'resources/read', target: uri });
      throw handlerFailure(error);
    }
    if (isInputRequiredResult(result))
      return (await askOnWire(context, target, result, binding)) as never;
    return result as never;
  });
}
