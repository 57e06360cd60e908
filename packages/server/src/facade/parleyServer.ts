import type { Server, Transport } from '@modelcontextprotocol/server';
import type { Middleware, MiddlewareFunction } from '@parley/middleware';

import { checkOptionKeys } from '@parley/core';

import { createSchemaLinter } from '../ask/schemaWarnings.ts';
import { registerAskApp } from './askApp.ts';
import type { ParleyServerOptions, RunOptions, RunningServer } from './options.ts';
import { Registrations, type AnyPromptOptions, type AnyToolOptions } from './registrations.ts';
import { STDIO_OPTIONS } from './optionChecks.ts';
import { checkKeysForHttp, configuredKeys, type ConfiguredKeys } from './requestStateKeys.ts';
import { checkServerOptions, defaultWarn, runtimeOf, warningsOf } from './runtimeOf.ts';
import type {
  PromptHandler,
  PromptOptions,
  ResourceHandler,
  ResourceOptions,
  ResourceTemplateHandler,
  ToolHandler,
  ToolOptions,
} from '../handler/definitions.ts';
import type { ArgsOf, ParameterSchema, ToolInputSchema } from '../handler/parameters.ts';
import { loadSessionServer } from '../handshake/load.ts';
import { HttpEndpoint } from '../http/httpEndpoint.ts';
import type { FetchOptions, HttpOptions } from '../http/httpOptions.ts';
import { createNodeHandler, type NodeHandler } from '../http/nodeHandler.ts';
import { runHttp } from '../http/runHttp.ts';
import { ModernDispatcher } from '../modern/dispatcher.ts';
import { loadMiddlewareRunner } from '../round/middleware.ts';
import { ChangeNotifier, type ListKind } from '../runtime/changes.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';

/**
 * An MCP server whose tools, prompts and resources can ask the user for input, in both protocol
 * eras, with one code path: `await ctx.ask(key, ask)` (a request to the client on handshake-era
 * connections, sealed replay on the modern protocol). The strict per-era layer beneath it
 * (`ctx.elicit`, and returning `inputRequired(...)`) is there too. Built on the official MCP SDK v2.
 *
 * @example
 * ```ts
 * // docs/examples/gettingStarted/server.ts#server
 * import { ParleyServer, elicitRequest } from '@parley/server';
 *
 * export function createServer(): ParleyServer {
 *   const mcp = new ParleyServer({ name: 'Greeter' });
 *
 *   mcp.tool(
 *     'greet',
 *     { description: 'Greets you by name.' },
 *     async (_args, ctx) => {
 *       // One code path for both eras: a request the client answers mid-call (≤ 2025-11-25),
 *       // or a round that returns the question and runs again with the answer (2026-07-28).
 *       const name = await ctx.ask(
 *         'name',
 *         elicitRequest("What's your name?", String, {
 *           responseTitle: 'Name',
 *         }),
 *       );
 *       return name.action === 'accept'
 *         ? `Hello, ${name.data}!`
 *         : 'Hello, stranger!';
 *     },
 *   );
 *
 *   return mcp;
 * }
 * ```
 */
export class ParleyServer {
  readonly name: string;
  readonly #options: ParleyServerOptions;
  /** What is registered, checked as it is (the live maps every round resolves from). */
  readonly #registry: Registrations;
  readonly #middleware: (Middleware | MiddlewareFunction)[] = [];
  readonly #changes = new ChangeNotifier();
  /** What every transport shares; its registries are the live maps, so it is built once. */
  readonly #runtime: ServerRuntime;
  /** Modern requests over stdio (each HTTP endpoint has its own, over the same runtime). */
  readonly #dispatcher: ModernDispatcher;
  /** Set once the server has served anything: later registrations are announced to clients. */
  #serving = false;
  #http: HttpEndpoint | undefined;
  /** The request-state key ring, and where it came from (`run()` over HTTP checks it). */
  readonly #keys: ConfiguredKeys;

  constructor(options: ParleyServerOptions) {
    checkServerOptions(options);
    this.name = options.name;
    this.#options = options;
    const lintSchema = createSchemaLinter(warningsOf(options));
    this.#keys = configuredKeys(options.requestStateSecurity, options.name);
    this.#registry = new Registrations(lintSchema, options.askFallback);
    this.#runtime = runtimeOf(options, {
      registry: this.#registry,
      middleware: this.#middleware,
      changes: this.#changes,
      lintSchema,
      keys: this.#keys,
    });
    this.#dispatcher = new ModernDispatcher(this.#runtime, (name) =>
      this.#registry.paramHeadersOf(name),
    );
    if (this.#runtime.asking.routes.includes('app')) registerAskApp(this);
  }

  /**
   * Register a tool. Its handler asks with `ctx.ask` (or `ctx.askAll`), on both eras, and keeps
   * the work between questions with `ctx.remember`. `args` are parsed and typed from
   * `options.inputSchema`; `ctx.state` is typed from `options.stateSchema`.
   *
   * @example
   * ```ts
   * // docs/examples/elicitation/ask.ts#bookFlight
   * mcp.tool('book_flight', async (_args, ctx) => {
   *   const where = await ctx.ask('destination', askDestination);
   *   if (where.action !== 'accept') return 'Booking cancelled.';
   *   const { destination } = where.data;
   *
   *   // Work between questions: once per flow, replayed from the sealed state after that.
   *   const fare = await ctx.remember('fare', () => lookUpFare(destination));
   *
   *   const when = await ctx.ask('date', askDate(destination));
   *   if (when.action !== 'accept') return 'Booking cancelled.';
   *   return `Booked ${destination} on ${when.data.date} for €${fare}`;
   * });
   * ```
   */
  tool<TSchema extends ToolInputSchema | undefined = undefined>(
    name: string,
    options: ToolOptions<TSchema>,
    handler: ToolHandler<ArgsOf<TSchema>>,
  ): this;
  tool(name: string, handler: ToolHandler<Record<string, never>>): this;
  tool(
    name: string,
    optionsOrHandler: AnyToolOptions | ToolHandler<never>,
    maybeHandler?: ToolHandler<never>,
  ): this {
    this.#registry.addTool(name, optionsOrHandler, maybeHandler);
    this.#announce('tools');
    return this;
  }

  /**
   * Register a prompt. It may ask before it renders, exactly like a tool.
   *
   * @example
   * ```ts
   * // docs/examples/elicitation/ask.ts#prompt
   * mcp.prompt('trip_summary', async (_args, ctx) => {
   *   const where = await ctx.ask('destination', askDestination);
   *   return where.action === 'accept'
   *     ? `Summarize a trip to ${where.data.destination}.`
   *     : 'Summarize a trip anywhere.';
   * });
   * ```
   */
  prompt<TSchema extends ParameterSchema | undefined = undefined>(
    name: string,
    options: PromptOptions<TSchema>,
    handler: PromptHandler<ArgsOf<TSchema>>,
  ): this;
  prompt(name: string, handler: PromptHandler<Record<string, never>>): this;
  prompt(
    name: string,
    optionsOrHandler: AnyPromptOptions | PromptHandler<never>,
    maybeHandler?: PromptHandler<never>,
  ): this {
    this.#registry.addPrompt(name, optionsOrHandler, maybeHandler);
    this.#announce('prompts');
    return this;
  }

  /**
   * Register a resource at a fixed URI. It may ask before it renders, as a resource template does.
   *
   * @example
   * ```ts
   * // docs/examples/elicitation/ask.ts#resource
   * mcp.resource(
   *   'fares://today',
   *   { name: 'todays-fares', mimeType: 'text/plain' },
   *   async (_uri, ctx) => {
   *     const currency = await ctx.ask(
   *       'currency',
   *       elicitRequest('In which currency?', ['EUR', 'USD'], {
   *         responseTitle: 'Currency',
   *       }),
   *     );
   *     const code = currency.action === 'accept' ? currency.data : 'EUR';
   *     return `Lisbon: ${lookUpFare('Lisbon')} ${code}`;
   *   },
   * );
   * ```
   */
  resource(uri: string, options: ResourceOptions, handler: ResourceHandler): this {
    this.#registry.addResource(uri, options, handler);
    this.#announce('resources');
    return this;
  }

  /**
   * Register a resource template (RFC 6570), e.g. `report://{quarter}/revenue`.
   *
   * @example
   * ```ts
   * // docs/examples/elicitation/ask.ts#resourceTemplate
   * mcp.resourceTemplate(
   *   'fares://{destination}',
   *   { name: 'fare', mimeType: 'text/plain' },
   *   async (_uri, { destination }, ctx) => {
   *     const currency = await ctx.ask(
   *       'currency',
   *       elicitRequest('In which currency?', ['EUR', 'USD'], {
   *         responseTitle: 'Currency',
   *       }),
   *     );
   *     const code = currency.action === 'accept' ? currency.data : 'EUR';
   *     return `${String(destination)}: ${lookUpFare(String(destination))} ${code}`;
   *   },
   * );
   * ```
   */
  resourceTemplate(
    uriTemplate: string,
    options: ResourceOptions,
    handler: ResourceTemplateHandler,
  ): this {
    this.#registry.addTemplate(uriTemplate, options, handler);
    this.#announce('resources');
    return this;
  }

  /**
   * Install middleware. It runs on every request, on every round of a multi-round call, in the
   * order given (the first outermost); call `use` again to append more.
   */
  use(...middleware: (Middleware | MiddlewareFunction)[]): this {
    for (const entry of middleware) {
      if (typeof entry !== 'function' && (typeof entry !== 'object' || entry === null)) {
        throw new TypeError('use: each middleware must be a Middleware instance or a function.');
      }
      // A hook that no longer exists would never run, without a word.
      if (typeof entry === 'object' && 'onMessage' in entry) {
        throw new TypeError(
          'use: onMessage is not a Middleware hook (it was removed); use onRequest, which runs ' +
            'for every request.',
        );
      }
    }
    this.#middleware.push(...middleware);
    // A rejection here is the first round's to report; this only starts the load early.
    loadMiddlewareRunner().catch(() => undefined);
    return this;
  }

  /**
   * Serve one handshake-era session over an SDK transport (for example one side of
   * `InMemoryTransport.createLinkedPair()`). Returns the SDK server, to close it.
   */
  async connect(transport: Transport): Promise<Server> {
    this.#serving = true;
    const [{ buildSessionServer }] = await Promise.all([loadSessionServer(), this.#ready()]);
    const server = buildSessionServer(this.#runtime);
    await server.connect(transport);
    return server;
  }

  /**
   * A web-standard `fetch` handler (Workers, Deno, Bun, serverless, or any router): one endpoint
   * for both eras. Modern requests are served statelessly; handshake-era clients get sessions
   * (unless `http.sessions` is `false`), so `ctx.ask` (and `ctx.elicit()`) can send them requests
   * over HTTP.
   */
  async fetch(request: Request, options?: FetchOptions): Promise<Response> {
    this.#http ??= this.#httpEndpoint(this.#options.http ?? {});
    await this.#ready();
    return this.#http.fetch(request, options);
  }

  /**
   * A `(req, res)` handler for Node hosts (Express, Fastify, `node:http`): the same endpoint as
   * {@link fetch}, read and answered straight on Node's request and response. A body the host
   * already parsed is used as it is (Express' `req.body` after `express.json()`, or the third
   * argument, say Fastify's `request.body`).
   */
  nodeHandler(): NodeHandler {
    this.#http ??= this.#httpEndpoint(this.#options.http ?? {});
    const handle = createNodeHandler(this.#http);
    return async (req, res, parsedBody) => {
      await this.#ready();
      return handle(req, res, parsedBody);
    };
  }

  /**
   * Serve over stdio (both eras in one process; each connection keeps the era it opened with),
   * or over HTTP on Node (`{ transport: 'http', host, port, path }`: one endpoint, both eras).
   */
  async run(options: RunOptions): Promise<RunningServer> {
    if (options.transport === 'stdio') {
      checkOptionKeys('run', 'options', options, STDIO_OPTIONS);
      this.#serving = true;
      const [{ runStdio }] = await Promise.all([import('../stdio/runStdio.ts'), this.#ready()]);
      return runStdio(this.#runtime, this.#dispatcher);
    }
    if (options.transport === 'http') {
      // About the server, not a handler: stderr, whatever `onWarning` is (its source names one).
      checkKeysForHttp(this.#keys, this.#options.requestStateSecurity, defaultWarn);
      return runHttp(
        options,
        this.#options.http,
        (http) => this.#httpEndpoint(http),
        () => this.#ready(),
      );
    }
    throw new TypeError(
      `run: unknown transport ${JSON.stringify((options as { transport?: unknown }).transport)} (use 'stdio' or 'http').`,
    );
  }

  /**
   * Tell connected clients a list changed. Registering a tool, prompt or resource after the server
   * started serving announces itself; call this when a list changes for reasons of your own.
   */
  notifyListChanged(kind: ListKind): void {
    this.#changes.listChanged(kind);
  }

  /** Tell clients subscribed to `uri` that the resource changed. */
  notifyResourceUpdated(uri: string): void {
    this.#changes.resourceUpdated(uri);
  }

  /** What must be loaded before anything is served (the SDK, when resource templates need it). */
  #ready(): Promise<void> {
    return this.#registry.ready();
  }

  #httpEndpoint(options: HttpOptions): HttpEndpoint {
    this.#serving = true;
    const endpoint = new HttpEndpoint(
      this.#runtime,
      options,
      (name) => this.#registry.paramHeadersOf(name),
      (error) => this.#runtime.report(error, { method: 'http.auth', target: 'verifyToken' }),
    );
    this.#changes.addStreams(endpoint.notify);
    return endpoint;
  }

  #announce(kind: ListKind): void {
    if (this.#serving) this.#changes.listChanged(kind);
  }
}
