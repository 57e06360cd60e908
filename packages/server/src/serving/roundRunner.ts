import {
  EraMismatchError,
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  ParleyError,
  type ClientCapabilities,
  type Era,
  type Implementation,
  type InputRequiredResult,
  type Root,
} from '@parley/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { runMiddleware, type MiddlewareContext } from '@parley/middleware';
import type { RequestBinding } from '@parley/state-sealing';

import { checkInputResponses } from '../answers.ts';
import { Context, type HandlerTarget, type LogLevel, type RequestContext } from '../context.ts';
import { handlerFailure, toProtocolError } from '../protocolErrors.ts';
import type { PushChannel } from '../pushChannel.ts';
import { finishAsk, startRound } from '../round.ts';
import { middlewareParams } from './middlewareContext.ts';
import type { ServerRuntime, ServingUnit } from './runtime.ts';

/** One round, opened: the author's context, what its state is bound to, and what middleware sees. */
export interface OpenedRound {
  context: Context;
  binding: RequestBinding;
  /** The round carried a sealed state that opened. */
  resumesFlow: boolean;
  /** Handshake era: server-initiated requests sent so far in this round. */
  pushedRequests: () => number;
}

/**
 * What every handler of one serving unit shares: reading the request's era, version and client,
 * opening a round (answers checked, state opened and verified, the author's `Context` built),
 * putting an ask on the wire (era gate, capability filter, sealing), and running middleware
 * around lists. Parley errors raised on the way become their JSON-RPC errors here.
 */
export class RoundRunner {
  readonly runtime: ServerRuntime;
  readonly #server: Server;
  readonly #unit: ServingUnit;
  readonly #era: Era;
  readonly #principal: string | undefined;

  constructor(server: Server, runtime: ServerRuntime, unit: ServingUnit) {
    this.#server = server;
    this.runtime = runtime;
    this.#unit = unit;
    this.#era = unit.era === 'modern' ? 'modern' : 'handshake';
    this.#principal = unit.authInfo?.clientId;
  }

  get era(): Era {
    return this.#era;
  }

  /** The facts of one request: its version and era, and what the client declared. */
  requestContext(ctx: ServerContext, method: string): RequestContext {
    const principal = this.#principal;
    if (this.#era === 'modern') {
      const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
      return {
        protocolVersion:
          (envelope[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? MODERN_PROTOCOL_VERSION,
        era: 'modern',
        method,
        clientCapabilities:
          (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {},
        clientInfo: envelope[CLIENT_INFO_META_KEY] as Implementation | undefined,
        sessionId: undefined,
        principal,
      };
    }
    const server = this.#server;
    return {
      protocolVersion: server.getNegotiatedProtocolVersion() ?? LATEST_HANDSHAKE_PROTOCOL_VERSION,
      era: 'handshake',
      method,
      clientCapabilities: (server.getClientCapabilities() ?? {}) as ClientCapabilities,
      clientInfo: server.getClientVersion() as Implementation | undefined,
      sessionId: ctx.sessionId,
      principal,
    };
  }

  /**
   * Open one round: check the answers, open the state (bound to this server, method, target,
   * arguments and principal), and build the author's Context with the era's channels.
   */
  async openRound(
    ctx: ServerContext,
    target: HandlerTarget,
    method: string,
    args: unknown,
  ): Promise<OpenedRound> {
    const { runtime } = this;
    const request = this.requestContext(ctx, method);
    const binding: RequestBinding = {
      method,
      target: target.name,
      arguments: args ?? {},
      ...(this.#principal !== undefined ? { principal: this.#principal } : {}),
    };
    const modern = this.#era === 'modern';
    // Bridged handshake rounds carry answers and state too (the SDK re-enters with them).
    const readsInputs = modern || this.runtime.eraBridge;
    const { inputResponses, start, resumesFlow } = await this.protocolErrors(
      { method, target: target.name },
      async () => {
        const inputResponses = readsInputs
          ? checkInputResponses(ctx.mcpReq.inputResponses, ctx.mcpReq.droppedInputResponseKeys)
          : null;
        const rawState = readsInputs ? ctx.mcpReq.requestState() : undefined;
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
      push: modern ? undefined : this.#pushChannel(ctx, () => (pushed += 1)),
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
  }

  /** The wire form of an ask, or the era error when the connection cannot carry one. */
  askOnWire(
    context: Context,
    target: HandlerTarget,
    ask: InputRequiredResult,
    binding: RequestBinding,
  ): Promise<InputRequiredResult> {
    return this.protocolErrors({ method: binding.method, target: target.name }, () => {
      if (context.era !== 'modern' && !this.runtime.eraBridge) {
        throw new EraMismatchError({
          kind: target.kind,
          name: target.name,
          protocolVersion: context.requestContext.protocolVersion,
          used: 'inputRequired',
        });
      }
      for (const [key, request] of Object.entries(ask.inputRequests ?? {})) {
        if (request.method === 'elicitation/create' && request.params.mode !== 'url') {
          this.runtime.lintSchema({ ...target, key }, request.params.requestedSchema);
        }
      }
      const declared = context.requestContext.clientCapabilities;
      return finishAsk(this.runtime.sealer, ask, declared, context.flow, binding);
    });
  }

  /**
   * Run a list method's middleware around `build`. Lists have no handler, no author context and
   * no flow; a throw from middleware goes to the client as its JSON-RPC error.
   */
  async runList<T>(
    ctx: ServerContext,
    method: string,
    params: unknown,
    build: () => T,
  ): Promise<T> {
    if (this.runtime.middleware.length === 0) return build();
    const request = this.requestContext(ctx, method);
    const context: MiddlewareContext = {
      method,
      params: middlewareParams(params),
      era: request.era,
      protocolVersion: request.protocolVersion,
      principal: this.#principal,
      handler: undefined,
      parleyContext: undefined,
      flow: undefined,
      isContinuation: false,
      resumesFlow: false,
      pushedRequests: 0,
      store: new Map(),
    };
    try {
      return await runMiddleware(this.runtime.middleware, context, async () => build());
    } catch (error) {
      this.runtime.report(error, { method, target: '-' });
      throw handlerFailure(error);
    }
  }

  /** Run `work`; a Parley error it throws is reported and sent as its JSON-RPC error. */
  async protocolErrors<T>(
    where: { method: string; target: string },
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ParleyError) {
        this.runtime.report(error, where);
        throw toProtocolError(error);
      }
      throw error;
    }
  }

  /** The handshake era's server-initiated requests; `sent` counts them for middleware. */
  #pushChannel(ctx: ServerContext, sent: () => void): PushChannel {
    const unavailable = this.#unit.pushUnavailable;
    const server = this.#server;
    return {
      // Plain related requests (not the SDK's elicitInput), so answers are validated once, by
      // Parley, into its typed errors.
      elicit: (params, options) => {
        sent();
        return ctx.mcpReq.send(
          { method: 'elicitation/create', params: params as never },
          options,
        ) as never;
      },
      sample: (params, options) => {
        sent();
        return ctx.mcpReq.send(
          { method: 'sampling/createMessage', params: params as never },
          options,
        ) as never;
      },
      listRoots: async (options) => {
        sent();
        const result = (await ctx.mcpReq.send({ method: 'roots/list', params: {} }, options)) as {
          roots: Root[];
        };
        return result.roots;
      },
      completeElicitation: (id) => server.createElicitationCompletionNotifier(id)(),
      ...(unavailable !== undefined ? { unavailable: () => unavailable() } : {}),
    };
  }
}
