import {
  InvalidRequestStateError,
  type HandlerInfo,
  type Implementation,
  type InputRequest,
} from '@parley/core';
import type { CompiledResponseType } from '@parley/schema';
import type { Middleware, MiddlewareFunction } from '@parley/middleware';
import type { Server, Transport } from '@modelcontextprotocol/server';
import { createRequestStateSealer } from '@parley/state-sealing';

import {
  jsonSchemaOf,
  objectSchemaOf,
  promptArgumentsOf,
  type ArgsOf,
  type ParameterSchema,
  type PromptDefinition,
  type PromptHandler,
  type PromptOptions,
  type ResourceDefinition,
  type ResourceHandler,
  type ResourceOptions,
  type ResourceTemplateDefinition,
  type ResourceTemplateHandler,
  type StateOf,
  type StateSchema,
  type ToolDefinition,
  type ToolHandler,
  type ToolOptions,
} from './definitions.ts';
import { createBearerGate, protectedResourceMetadataPath } from './http/bearerAuth.ts';
import { LOOPBACK_HOSTNAMES } from './http/hostCheck.ts';
import { HttpEndpoint, type FetchOptions, type HttpOptions } from './http/httpEndpoint.ts';
import { endpointLimits, listenerLimits } from './http/limits.ts';
import { createNodeHandler, type NodeHandler } from './http/nodeHandler.ts';
import { listenNode } from './http/nodeListener.ts';
import { paramHeadersOf } from './http/paramHeaders.ts';
import { loadMiddlewareRunner } from './middlewareRunner.ts';
import { ModernDispatcher } from './modern/dispatcher.ts';
import { ChangeNotifier, type ListKind } from './notifications.ts';
import type { HttpRunOptions, ParleyServerOptions, RunOptions, RunningServer } from './options.ts';
import { declaredFormAsk } from './asks.ts';
import { compiled } from './compiledResponseTypes.ts';
import { toolFallbackOf, type ToolFallback } from './fallback/askArguments.ts';
import { checkFallback, type AskFallback } from './fallback/policy.ts';
import { askedEntryOf, type AskedRecord } from './round/asked.ts';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES } from './round/limits.ts';
import { createMemorySingleUseStore, type SingleUsePolicy } from './round/singleUse.ts';
import type { ServerRuntime } from './runtime.ts';
import {
  createSchemaLinter,
  declaredSchema,
  isDeclaredRequest,
  type DeclaredAsk,
} from './schemaWarnings.ts';
import { loadSessionServer } from './sdk/load.ts';
import { TaskEngine } from './tasks/taskEngine.ts';
import { resolveTaskOptions } from './tasks/taskOptions.ts';
import { toolInputOf, type ToolInputSchema } from './toolInput.ts';
import { uriTemplate as templateMatcher, uriTemplatesReady } from './uriTemplates.ts';

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const DEFAULT_ELICITATION_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_REASKS = 3;
const DEFAULT_REPLAY_WINDOW_MS = 60_000;
const DEFAULT_ROUND_LEASE_MS = 30_000;

function defaultWarn(message: string): void {
  // eslint-disable-next-line no-console -- the default server log is stderr, which stdio leaves free
  console.warn(`[parley] warning: ${message}`);
}

function defaultReport(error: unknown, where: { method: string; target: string }): void {
  const detail =
    error instanceof InvalidRequestStateError
      ? `requestState rejected: ${error.data?.reason}`
      : String(error);
  // eslint-disable-next-line no-console -- the default server log is stderr, which stdio leaves free
  console.error(`[parley] ${where.method} ${where.target}: ${detail}`);
}

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
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #prompts = new Map<string, PromptDefinition>();
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates: ResourceTemplateDefinition[] = [];
  readonly #middleware: (Middleware | MiddlewareFunction)[] = [];
  readonly #lintSchema: ServerRuntime['lintSchema'];
  /** What every transport shares; its registries are the live maps, so it is built once. */
  readonly #runtime: ServerRuntime;
  /** Modern requests over stdio (each HTTP endpoint has its own, over the same runtime). */
  readonly #dispatcher: ModernDispatcher;
  readonly #changes = new ChangeNotifier();
  /** Set once the server has served anything: later registrations are announced to clients. */
  #serving = false;
  #http: HttpEndpoint | undefined;

  constructor(options: ParleyServerOptions) {
    if (typeof options?.name !== 'string' || options.name.length === 0) {
      throw new TypeError('ParleyServer: options.name must be a non-empty string.');
    }
    this.name = options.name;
    this.#options = options;
    const info: Implementation = {
      name: options.name,
      version: options.version ?? '0.0.0',
      ...(options.title !== undefined ? { title: options.title } : {}),
    };
    // A misconfigured http.auth fails here, not on the first request.
    if (options.http?.auth !== undefined) createBearerGate(options.http.auth, () => {});
    // …and so does a bad bound.
    if (options.http !== undefined) endpointLimits(options.http);
    const warn = options.onWarning ?? defaultWarn;
    this.#lintSchema = createSchemaLinter(warn);
    checkFallback('ParleyServer', options.askFallback);
    const security = options.requestStateSecurity ?? {};
    const maxReasks = options.maxReasks ?? DEFAULT_MAX_REASKS;
    if (!Number.isSafeInteger(maxReasks) || maxReasks < 0) {
      throw new RangeError(
        `ParleyServer: options.maxReasks must be a whole number >= 0 (got ${String(maxReasks)}).`,
      );
    }
    this.#runtime = {
      info,
      instructions: options.instructions,
      tools: this.#tools,
      prompts: this.#prompts,
      resources: this.#resources,
      templates: this.#templates,
      sealer: createRequestStateSealer({
        audience: options.name,
        ...(security.keys !== undefined ? { keys: security.keys } : {}),
        ...(security.ttlSeconds !== undefined ? { ttlSeconds: security.ttlSeconds } : {}),
        ...(security.maxTokenBytes !== undefined ? { maxTokenBytes: security.maxTokenBytes } : {}),
        ...(security.now !== undefined ? { now: security.now } : {}),
      }),
      elicitationTimeoutMs: options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
      report: options.onError ?? defaultReport,
      lintSchema: this.#lintSchema,
      warn,
      maxReasks,
      singleUse: singleUsePolicyOf(security),
      limits: {
        maxDepth: options.limits?.maxDepth ?? DEFAULT_MAX_DEPTH,
        maxNodes: options.limits?.maxNodes ?? DEFAULT_MAX_NODES,
      },
      middleware: this.#middleware,
      changes: this.#changes,
      now: security.now ?? Date.now,
      tasks: new TaskEngine({
        ...options.tasks,
        report: (error, where) => (options.onError ?? defaultReport)(error, where),
      }),
    };
    this.#dispatcher = new ModernDispatcher(this.#runtime, (name) => this.#paramHeadersOf(name));
  }

  /**
   * Register a tool. `args` are parsed and typed from `options.inputSchema`; `ctx.state` is
   * typed from `options.stateSchema`.
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
  tool<
    TSchema extends ToolInputSchema | undefined = undefined,
    TStateSchema extends StateSchema | undefined = undefined,
  >(
    name: string,
    options: ToolOptions<TSchema, TStateSchema>,
    handler: ToolHandler<ArgsOf<TSchema>, StateOf<TStateSchema>>,
  ): this;
  tool(name: string, handler: ToolHandler<Record<string, never>>): this;
  tool(
    name: string,
    optionsOrHandler: AnyToolOptions | ToolHandler<never, never>,
    maybeHandler?: ToolHandler<never, never>,
  ): this {
    const [options, handler] = splitArgs<AnyToolOptions, ToolHandler<never, never>>(
      'tool',
      optionsOrHandler,
      maybeHandler,
    );
    this.#assertNew('tool', this.#tools, name);
    const api = `tool '${name}'`;
    const input = toolInputOf(api, options.inputSchema);
    checkHandlerOptions(api, options);
    const declared = this.#checkAsks(
      api,
      { kind: 'tool', name, cacheable: options.cacheable === true },
      options.asks,
    );
    this.#tools.set(name, {
      name,
      options,
      declaredAsks: declared.record,
      fallback: this.#fallbackOf(api, options, declared.requests, input?.jsonSchema),
      input,
      paramHeaders: input === undefined ? [] : paramHeadersOf(input.jsonSchema),
      outputJsonSchema:
        options.outputSchema === undefined
          ? undefined
          : jsonSchemaOf(options.outputSchema, 'output'),
      task: resolveTaskOptions(api, options.task),
      handler: handler as ToolHandler<unknown>,
    });
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
  prompt<
    TSchema extends ParameterSchema | undefined = undefined,
    TStateSchema extends StateSchema | undefined = undefined,
  >(
    name: string,
    options: PromptOptions<TSchema, TStateSchema>,
    handler: PromptHandler<ArgsOf<TSchema>, StateOf<TStateSchema>>,
  ): this;
  prompt(name: string, handler: PromptHandler<Record<string, never>>): this;
  prompt(
    name: string,
    optionsOrHandler: AnyPromptOptions | PromptHandler<never, never>,
    maybeHandler?: PromptHandler<never, never>,
  ): this {
    const [options, handler] = splitArgs<AnyPromptOptions, PromptHandler<never, never>>(
      'prompt',
      optionsOrHandler,
      maybeHandler,
    );
    this.#assertNew('prompt', this.#prompts, name);
    const api = `prompt '${name}'`;
    const input = objectSchemaOf(api, options.arguments);
    checkHandlerOptions(api, options);
    this.#prompts.set(name, {
      name,
      options,
      declaredAsks: this.#checkAsks(api, { kind: 'prompt', name, cacheable: false }, options.asks)
        .record,
      input,
      argumentList: promptArgumentsOf(input),
      handler: handler as PromptHandler<unknown>,
    });
    this.#announce('prompts');
    return this;
  }

  /**
   * Register a resource at a fixed URI. It may ask before it renders, as a resource template does.
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
  resource<TStateSchema extends StateSchema | undefined = undefined>(
    uri: string,
    options: ResourceOptions<TStateSchema>,
    handler: ResourceHandler<StateOf<TStateSchema>>,
  ): this {
    if (!URL.canParse(uri))
      throw new TypeError(`resource: ${JSON.stringify(uri)} is not an absolute URI.`);
    this.#assertNew('resource', this.#resources, uri);
    assertName('resource', options);
    const api = `resource '${uri}'`;
    checkHandlerOptions(api, options);
    this.#resources.set(uri, {
      uri,
      options: options as AnyResourceOptions,
      declaredAsks: this.#checkAsks(
        api,
        { kind: 'resource', name: uri, cacheable: options.cacheable === true },
        options.asks,
      ).record,
      handler: handler as ResourceHandler,
    });
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
  resourceTemplate<TStateSchema extends StateSchema | undefined = undefined>(
    uriTemplate: string,
    options: ResourceOptions<TStateSchema>,
    handler: ResourceTemplateHandler<StateOf<TStateSchema>>,
  ): this {
    if (this.#templates.some((template) => template.uriTemplate === uriTemplate)) {
      throw new TypeError(`resourceTemplate: '${uriTemplate}' is already registered.`);
    }
    assertName('resourceTemplate', options);
    const api = `resourceTemplate '${uriTemplate}'`;
    checkHandlerOptions(api, options);
    this.#templates.push({
      uriTemplate,
      options: options as AnyResourceOptions,
      declaredAsks: this.#checkAsks(
        api,
        {
          kind: 'resourceTemplate',
          name: uriTemplate,
          uriTemplate,
          cacheable: options.cacheable === true,
        },
        options.asks,
      ).record,
      matcher: templateMatcher(uriTemplate),
      handler: handler as ResourceTemplateHandler,
    });
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
   * (unless `http.sessions` is `false`), so `ctx.elicit()` works over HTTP.
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
      this.#serving = true;
      const [{ serveStdio }, { ModernStdioRouter }, { LineTransport }, { buildSessionServer }] =
        await Promise.all([
          import('@modelcontextprotocol/server/stdio'),
          import('./stdio/modernStdio.ts'),
          import('./stdio/lineTransport.ts'),
          loadSessionServer(),
          this.#ready(),
        ]);
      // Handshake-era traffic goes to the SDK's session; modern requests to Parley's dispatcher.
      const handle = serveStdio(() => buildSessionServer(this.#runtime), {
        transport: new ModernStdioRouter(
          new LineTransport(process.stdin, process.stdout),
          this.#dispatcher,
        ),
      });
      return {
        close: async () => {
          // This process's tasks end now, saying why, not when another replica's lease check
          // notices.
          await this.#runtime.tasks.close();
          await handle.close();
        },
      };
    }
    if (options.transport === 'http') return this.#runHttp(options);
    throw new TypeError(
      `run: unknown transport ${JSON.stringify((options as { transport?: unknown }).transport)} (use 'stdio' or 'http').`,
    );
  }

  async #runHttp(options: HttpRunOptions): Promise<RunningServer> {
    const {
      transport: _transport,
      host = '127.0.0.1',
      port = 3000,
      path = '/mcp',
      readinessPath = '/ready',
      headersTimeoutMs,
      requestTimeoutMs,
      keepAliveTimeoutMs,
      maxConnections,
      ...http
    } = options;
    const limits = listenerLimits({
      headersTimeoutMs,
      requestTimeoutMs,
      keepAliveTimeoutMs,
      maxConnections,
    });
    if (
      readinessPath !== false &&
      (typeof readinessPath !== 'string' || !readinessPath.startsWith('/'))
    ) {
      throw new TypeError(
        `run: readinessPath must be a path ('/ready') or false (got ${JSON.stringify(readinessPath)}).`,
      );
    }
    const allowedHosts =
      http.allowedHosts ?? (LOOPBACK_HOSTS.has(host) ? [...LOOPBACK_HOSTNAMES, host] : undefined);
    const endpoint = this.#httpEndpoint({
      ...this.#options.http,
      ...http,
      ...(allowedHosts !== undefined ? { allowedHosts } : {}),
    });
    await this.#ready();
    const auth = http.auth ?? this.#options.http?.auth;
    const listener = await listenNode(endpoint, {
      host,
      port,
      path,
      // The OAuth protected resource metadata the endpoint publishes lives beside it.
      alsoServe:
        auth?.authorizationServers === undefined
          ? []
          : [protectedResourceMetadataPath(new URL(path, 'http://localhost'))],
      readinessPath,
      limits,
    });
    return { url: listener.url, close: (closeOptions) => listener.close(closeOptions) };
  }

  /** What must be loaded before anything is served (the SDK, when resource templates need it). */
  #ready(): Promise<void> {
    return this.#templates.length === 0 ? Promise.resolve() : uriTemplatesReady();
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

  #paramHeadersOf(name: string): ToolDefinition['paramHeaders'] {
    return this.#tools.get(name)?.paramHeaders ?? [];
  }

  #httpEndpoint(options: HttpOptions): HttpEndpoint {
    this.#serving = true;
    const endpoint = new HttpEndpoint(
      this.#runtime,
      options,
      (name) => this.#paramHeadersOf(name),
      (error) => this.#runtime.report(error, { method: 'http.auth', target: 'verifyToken' }),
    );
    this.#changes.addStreams(endpoint.notify);
    return endpoint;
  }

  #announce(kind: ListKind): void {
    if (this.#serving) this.#changes.listChanged(kind);
  }

  /**
   * Compile and lint the asks a handler declares, before it is ever called; their record is
   * what a first round may accept answers to (a client answering before being asked).
   */
  #checkAsks(
    api: string,
    handler: HandlerInfo,
    asks: Record<string, DeclaredAsk> | undefined,
  ): { record: AskedRecord; requests: Record<string, InputRequest> } {
    if (asks !== undefined && (typeof asks !== 'object' || asks === null || Array.isArray(asks))) {
      throw new TypeError(`${api}: asks must be an object of asks by key.`);
    }
    const record: Record<string, AskedRecord[string]> = {};
    const requests: Record<string, InputRequest> = {};
    for (const [key, ask] of Object.entries(asks ?? {})) {
      const schema = declaredSchema(api, key, ask);
      if (schema !== undefined) this.#lintSchema({ handler, key }, schema);
      requests[key] = isDeclaredRequest(ask)
        ? ask
        : declaredFormAsk(compiled(ask) as CompiledResponseType<unknown>);
      record[key] = askedEntryOf(requests[key]);
    }
    return { record, requests };
  }

  /** A tool's fallback policy (its own, or the server's default), checked against its asks. */
  #fallbackOf(
    api: string,
    options: { askFallback?: AskFallback },
    declared: Record<string, InputRequest>,
    inputJsonSchema: Record<string, unknown> | undefined,
  ): ToolFallback | undefined {
    const own = checkFallback(api, options.askFallback);
    const policy = own ?? this.#options.askFallback;
    if (policy === undefined || policy === 'error') return undefined;
    const declaresAsks = Object.keys(declared).length > 0;
    if ((policy === 'hide' || policy === 'arguments') && !declaresAsks) {
      if (own === undefined) return undefined;
      throw new TypeError(
        `${api}: askFallback '${policy}' needs the tool's asks declared (options.asks), so a ` +
          'listing knows what a client must be able to answer.',
      );
    }
    return toolFallbackOf(api, policy, declared, inputJsonSchema);
  }

  #assertNew(api: string, registry: ReadonlyMap<string, unknown>, key: string): void {
    if (typeof key !== 'string' || key.length === 0)
      throw new TypeError(`${api}: the name must be a non-empty string.`);
    if (registry.has(key)) throw new TypeError(`${api}: '${key}' is already registered.`);
  }
}

type AnyToolOptions = ToolOptions<ToolInputSchema | undefined, StateSchema | undefined>;
type AnyPromptOptions = PromptOptions<ParameterSchema | undefined, StateSchema | undefined>;
type AnyResourceOptions = ResourceOptions<StateSchema | undefined>;

/** The `(name, handler)` and `(name, options, handler)` forms, as one pair. */
function splitArgs<TOptions extends object, THandler>(
  api: string,
  optionsOrHandler: TOptions | THandler,
  maybeHandler: THandler | undefined,
): [TOptions, THandler] {
  const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
  if (typeof handler !== 'function') throw new TypeError(`${api}: a handler function is required.`);
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  return [options as TOptions, handler as THandler];
}

/** The options every handler shares, checked where it is registered. */
function checkHandlerOptions(
  api: string,
  options: { maxReasks?: unknown; stateSchema?: unknown },
): void {
  const { maxReasks, stateSchema } = options;
  if (maxReasks !== undefined && (!Number.isSafeInteger(maxReasks) || (maxReasks as number) < 0)) {
    throw new RangeError(
      `${api}: maxReasks must be a whole number >= 0 (got ${String(maxReasks)}).`,
    );
  }
  const standard = (stateSchema as { '~standard'?: { validate?: unknown } } | undefined)?.[
    '~standard'
  ];
  if (stateSchema !== undefined && typeof standard?.validate !== 'function') {
    throw new TypeError(`${api}: stateSchema must be a Standard Schema (a zod schema, say).`);
  }
}

/** Single use, as the server's options ask for it. */
function singleUsePolicyOf(
  security: NonNullable<ParleyServerOptions['requestStateSecurity']>,
): SingleUsePolicy | undefined {
  const { singleUse } = security;
  if (singleUse === undefined || singleUse === false) return undefined;
  return {
    store: singleUse === true ? createMemorySingleUseStore() : singleUse,
    leaseMs: security.roundLeaseMs ?? DEFAULT_ROUND_LEASE_MS,
    replayWindowMs: security.replayWindowMs ?? DEFAULT_REPLAY_WINDOW_MS,
  };
}

function assertName(api: string, options: { name?: unknown }): void {
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new TypeError(`${api}: options.name must be a non-empty string.`);
  }
}
