import { InvalidRequestStateError, type Implementation } from '@parley/core';
import type { Middleware, MiddlewareFunction } from '@parley/middleware';
import {
  localhostAllowedHostnames,
  type Server,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  createRequestStateSealer,
  type ReplayStore,
  type RequestStateSealer,
} from '@parley/state-sealing';

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
  type ToolDefinition,
  type ToolHandler,
  type ToolOptions,
} from './definitions.ts';
import { toolInputOf, type ToolInputSchema } from './toolInput.ts';
import { paramHeadersOf } from './http/paramHeaders.ts';
import { createBearerGate, protectedResourceMetadataPath } from './http/bearerAuth.ts';
import { HttpEndpoint, type FetchOptions, type HttpOptions } from './http/httpEndpoint.ts';
import { ChangeNotifier, type ListKind } from './notifications.ts';
import { buildSdkServer, type ServerRuntime, type ServingUnit } from './sdkServer.ts';
import {
  createSchemaLinter,
  declaredSchema,
  type DeclaredAsk,
  type WarningReporter,
  type WarningSource,
} from './schemaWarnings.ts';

/** How `requestState` is sealed. */
export interface RequestStateSecurity {
  /**
   * A key ring shared by every replica: `keys[0]` seals, every key opens. Each secret must be at
   * least 32 bytes. Default: one random key per process (right for stdio and single workers).
   */
  keys?: ReadonlyArray<string | Uint8Array>;
  /** How long a round's state stays valid. Default 600 (10 minutes). */
  ttlSeconds?: number;
  /** The largest sealed state the server will mint. Default 8 KiB. */
  maxTokenBytes?: number;
  /** Make every state single-use (a second use of the same token is rejected). */
  replayStore?: ReplayStore;
  /** The clock, in milliseconds since the epoch (for tests). Default `Date.now`. */
  now?: () => number;
}

/** Options of {@link ParleyServer}. */
export interface ParleyServerOptions {
  /** The server's name: shown to clients, and the audience every sealed state is bound to. */
  name: string;
  version?: string;
  title?: string;
  instructions?: string;
  requestStateSecurity?: RequestStateSecurity;
  /** Default wait for a person to answer a handshake-era request. Default 600 000 (10 minutes). */
  elicitationTimeoutMs?: number;
  /**
   * Server-side reports: why a `requestState` was rejected (the client only ever sees "Invalid or
   * expired requestState"), and failures of handlers. Default: one line on stderr.
   */
  onError?: (error: unknown, where: { method: string; target: string }) => void;
  /**
   * Compatibility warnings about the schemas handlers ask with (a top-level title, a field that
   * looks like a secret, a wrapper left with a generic label…), each reported once: at
   * registration for declared `asks`, otherwise when first sent. Default: one line on stderr.
   */
  onWarning?: WarningReporter;
  /** HTTP behaviour: sessions for handshake-era clients, DNS-rebinding protection, body limit. */
  http?: HttpOptions;
  /**
   * Opt-in bridge between the eras: an `inputRequired(...)` returned on a handshake-era
   * connection is fulfilled by pushing its requests to the client (real `elicitation/create`,
   * `sampling/createMessage`, `roots/list`) and running the handler again with the answers and
   * the state, as a modern client would. Off by default: the era gate is strict, and a guard
   * that returns an ask on a handshake connection fails with an `EraMismatchError`.
   */
  eraBridge?: boolean;
}

/** A running server, as `run()` returns it. */
export interface RunningServer {
  /** The endpoint's URL (HTTP only), e.g. `http://127.0.0.1:3001/mcp`. */
  url?: string;
  close(): Promise<void>;
}

/** Serve over stdio: one process, both eras. */
export interface StdioRunOptions {
  transport: 'stdio';
}

/** Serve over HTTP on Node: one endpoint, both eras. */
export interface HttpRunOptions extends HttpOptions {
  transport: 'http';
  /** Default `127.0.0.1`. Binding elsewhere needs `allowedHosts` for DNS-rebinding protection. */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from the returned `url`). */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
}

/** Options of {@link ParleyServer.run}. */
export type RunOptions = StdioRunOptions | HttpRunOptions;

/** The SDK's own default request-body limit (4 MiB). */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const DEFAULT_ELICITATION_TIMEOUT_MS = 600_000;

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
 * An MCP server whose tools, prompts and resources can ask the user for input: with
 * `await ctx.elicit(...)` on handshake-era connections, and by returning `inputRequired(...)`
 * (the guard pattern) on the modern protocol. Built on the official MCP SDK v2.
 */
export class ParleyServer {
  readonly name: string;
  readonly #info: Implementation;
  readonly #options: ParleyServerOptions;
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #prompts = new Map<string, PromptDefinition>();
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates: ResourceTemplateDefinition[] = [];
  readonly #middleware: (Middleware | MiddlewareFunction)[] = [];
  readonly #sealer: RequestStateSealer;
  readonly #lintSchema: ServerRuntime['lintSchema'];
  /** What every serving unit shares; its registries are the live maps, so it is built once. */
  readonly #runtime: ServerRuntime;
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
    this.#info = {
      name: options.name,
      version: options.version ?? '0.0.0',
      ...(options.title !== undefined ? { title: options.title } : {}),
    };
    // A misconfigured http.auth fails here, not on the first request.
    if (options.http?.auth !== undefined) createBearerGate(options.http.auth, () => {});
    this.#lintSchema = createSchemaLinter(options.onWarning ?? defaultWarn);
    const security = options.requestStateSecurity ?? {};
    this.#sealer = createRequestStateSealer({
      audience: options.name,
      ...(security.keys !== undefined ? { keys: security.keys } : {}),
      ...(security.ttlSeconds !== undefined ? { ttlSeconds: security.ttlSeconds } : {}),
      ...(security.maxTokenBytes !== undefined ? { maxTokenBytes: security.maxTokenBytes } : {}),
      ...(security.replayStore !== undefined ? { replayStore: security.replayStore } : {}),
      ...(security.now !== undefined ? { now: security.now } : {}),
    });
    this.#runtime = {
      info: this.#info,
      instructions: this.#options.instructions,
      tools: this.#tools,
      prompts: this.#prompts,
      resources: this.#resources,
      templates: this.#templates,
      sealer: this.#sealer,
      elicitationTimeoutMs: this.#options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
      report: this.#options.onError ?? defaultReport,
      lintSchema: this.#lintSchema,
      middleware: this.#middleware,
      changes: this.#changes,
      eraBridge: this.#options.eraBridge === true,
      now: this.#options.requestStateSecurity?.now ?? Date.now,
    };
  }

  /** Register a tool. `args` are parsed and typed from `options.inputSchema`. */
  tool<TSchema extends ToolInputSchema | undefined = undefined>(
    name: string,
    options: ToolOptions<TSchema>,
    handler: ToolHandler<ArgsOf<TSchema>>,
  ): this;
  tool(name: string, handler: ToolHandler<Record<string, never>>): this;
  tool(
    name: string,
    optionsOrHandler: ToolOptions<ToolInputSchema | undefined> | ToolHandler<never>,
    maybeHandler?: ToolHandler<never>,
  ): this {
    const [options, handler] = splitArgs<
      ToolOptions<ToolInputSchema | undefined>,
      ToolHandler<never>
    >('tool', optionsOrHandler, maybeHandler);
    this.#assertNew('tool', this.#tools, name);
    const input = toolInputOf(`tool '${name}'`, options.inputSchema);
    this.#checkAsks(`tool '${name}'`, { kind: 'tool', name }, options.asks);
    this.#tools.set(name, {
      name,
      options,
      input,
      paramHeaders: input === undefined ? [] : paramHeadersOf(input.jsonSchema),
      outputJsonSchema:
        options.outputSchema === undefined
          ? undefined
          : jsonSchemaOf(options.outputSchema, 'output'),
      handler: handler as ToolHandler<unknown>,
    });
    this.#announce('tools');
    return this;
  }

  /** Register a prompt. It may ask before it renders, exactly like a tool. */
  prompt<TSchema extends ParameterSchema | undefined = undefined>(
    name: string,
    options: PromptOptions<TSchema>,
    handler: PromptHandler<ArgsOf<TSchema>>,
  ): this;
  prompt(name: string, handler: PromptHandler<Record<string, never>>): this;
  prompt(
    name: string,
    optionsOrHandler: PromptOptions<ParameterSchema | undefined> | PromptHandler<never>,
    maybeHandler?: PromptHandler<never>,
  ): this {
    const [options, handler] = splitArgs<
      PromptOptions<ParameterSchema | undefined>,
      PromptHandler<never>
    >('prompt', optionsOrHandler, maybeHandler);
    this.#assertNew('prompt', this.#prompts, name);
    const input = objectSchemaOf(`prompt '${name}'`, options.arguments);
    this.#checkAsks(`prompt '${name}'`, { kind: 'prompt', name }, options.asks);
    this.#prompts.set(name, {
      name,
      options,
      input,
      argumentList: promptArgumentsOf(input),
      handler: handler as PromptHandler<unknown>,
    });
    this.#announce('prompts');
    return this;
  }

  /** Register a resource at a fixed URI. It may ask before it renders. */
  resource(uri: string, options: ResourceOptions, handler: ResourceHandler): this {
    if (!URL.canParse(uri))
      throw new TypeError(`resource: ${JSON.stringify(uri)} is not an absolute URI.`);
    this.#assertNew('resource', this.#resources, uri);
    assertName('resource', options);
    this.#checkAsks(`resource '${uri}'`, { kind: 'resource', name: uri }, options.asks);
    this.#resources.set(uri, { uri, options, handler });
    this.#announce('resources');
    return this;
  }

  /** Register a resource template (RFC 6570), e.g. `report://{quarter}/revenue`. */
  resourceTemplate(
    uriTemplate: string,
    options: ResourceOptions,
    handler: ResourceTemplateHandler,
  ): this {
    if (this.#templates.some((template) => template.uriTemplate === uriTemplate)) {
      throw new TypeError(`resourceTemplate: '${uriTemplate}' is already registered.`);
    }
    assertName('resourceTemplate', options);
    this.#checkAsks(
      `resourceTemplate '${uriTemplate}'`,
      { kind: 'resourceTemplate', name: uriTemplate },
      options.asks,
    );
    this.#templates.push({ uriTemplate, options, handler });
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
    return this;
  }

  /**
   * Serve one handshake-era session over an SDK transport (for example one side of
   * `InMemoryTransport.createLinkedPair()`). Returns the SDK server, to close it.
   */
  async connect(transport: Transport): Promise<Server> {
    const server = this.sdkServerFor({ era: 'legacy' });
    await server.connect(transport);
    return server;
  }

  /**
   * A web-standard `fetch` handler (Workers, Deno, Bun, serverless, or any router): one endpoint
   * for both eras. Modern requests are served statelessly; handshake-era clients get sessions
   * (unless `http.sessions` is `false`), so `ctx.elicit()` works over HTTP.
   */
  fetch(request: Request, options?: FetchOptions): Promise<Response> {
    this.#http ??= this.#httpEndpoint(this.#options.http ?? {});
    return this.#http.fetch(request, options);
  }

  /**
   * Serve over stdio (both eras in one process; each connection keeps the era it opened with),
   * or over HTTP on Node (`{ transport: 'http', host, port, path }`: one endpoint, both eras).
   */
  async run(options: RunOptions): Promise<RunningServer> {
    if (options.transport === 'stdio') {
      const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
      const handle = serveStdio((unit) => this.sdkServerFor(unit));
      return { close: () => handle.close() };
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
      ...http
    } = options;
    const allowedHosts =
      http.allowedHosts ??
      (LOOPBACK_HOSTS.has(host) ? [...localhostAllowedHostnames(), host] : undefined);
    const endpoint = this.#httpEndpoint({
      ...this.#options.http,
      ...http,
      ...(allowedHosts !== undefined ? { allowedHosts } : {}),
    });
    const { listenNode } = await import('./http/nodeListener.ts');
    const maxBodyBytes =
      http.maxBodyBytes ?? this.#options.http?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const auth = http.auth ?? this.#options.http?.auth;
    const listener = await listenNode((request) => endpoint.fetch(request), {
      host,
      port,
      path,
      // The OAuth protected resource metadata the endpoint publishes lives beside it.
      alsoServe:
        auth?.authorizationServers === undefined
          ? []
          : [protectedResourceMetadataPath(new URL(path, 'http://localhost'))],
      maxBodyBytes,
    });
    return {
      url: listener.url,
      close: async () => {
        await endpoint.close();
        await listener.close();
      },
    };
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

  /** @internal The SDK server for one serving unit; transports call this. */
  sdkServerFor(unit: ServingUnit): Server {
    this.#serving = true;
    return buildSdkServer(this.#runtime, unit);
  }

  #httpEndpoint(options: HttpOptions): HttpEndpoint {
    const endpoint = new HttpEndpoint(
      (unit) => this.sdkServerFor(unit),
      options,
      (name) => this.#tools.get(name)?.paramHeaders ?? [],
      (error) => this.#runtime.report(error, { method: 'http.auth', target: 'verifyToken' }),
    );
    this.#changes.addStreams(endpoint.notify);
    return endpoint;
  }

  #announce(kind: ListKind): void {
    if (this.#serving) this.#changes.listChanged(kind);
  }

  /** Compile and lint the asks a handler declares, before it is ever called. */
  #checkAsks(
    api: string,
    target: WarningSource,
    asks: Record<string, DeclaredAsk> | undefined,
  ): void {
    for (const [key, ask] of Object.entries(asks ?? {})) {
      const schema = declaredSchema(api, key, ask);
      if (schema !== undefined) this.#lintSchema({ ...target, key }, schema);
    }
  }

  #assertNew(api: string, registry: ReadonlyMap<string, unknown>, key: string): void {
    if (typeof key !== 'string' || key.length === 0)
      throw new TypeError(`${api}: the name must be a non-empty string.`);
    if (registry.has(key)) throw new TypeError(`${api}: '${key}' is already registered.`);
  }
}

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

function assertName(api: string, options: ResourceOptions): void {
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new TypeError(`${api}: options.name must be a non-empty string.`);
  }
}
