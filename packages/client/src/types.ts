import type {
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitContentValue,
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  Era,
  Implementation,
  InputRequests,
  InputResponses,
  Meta,
  Root,
  SamplingMessage,
  Task,
} from '@parley/core';
import type { ResponseBuilder } from '@parley/schema';
import type { FetchLike, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { TracerProvider } from '@opentelemetry/api';

/**
 * The public vocabulary of `@parley/client`: what a `Client` connects to, the handlers that
 * answer a server's questions, and what a call returns.
 */

/** `'auto'`: modern when the server offers 2026-07-28, handshake otherwise. */
export type ClientMode = 'auto' | 'modern' | 'handshake';

/**
 * A server in the same process, such as a `ParleyServer`: `connect()` serves one handshake-era
 * session over an SDK transport, `fetch()` serves modern requests statelessly.
 */
export interface InProcessServer {
  connect(transport: Transport): Promise<{ close(): Promise<void> }>;
  fetch(request: Request): Promise<Response>;
}

/** A server to start as a child process speaking MCP over stdio. */
export interface StdioServerCommand {
  command: string;
  args?: string[];
  /** Added to a safe default environment (PATH, HOME, …), not a replacement for it. */
  env?: Record<string, string>;
  cwd?: string;
  /** Where the child's stderr goes: this process's stderr (default), or nowhere. */
  stderr?: 'inherit' | 'ignore';
}

/** What a `Client` connects to: an in-process server, an `http(s)` URL, or a stdio command. */
export type ClientTarget = InProcessServer | string | URL | StdioServerCommand;

/** The three requests that can ask for input. */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** Which call a request belongs to: the method and the tool or prompt name, or resource URI. */
export interface CallInfo {
  method: CallMethod;
  name: string;
}

/** What every handler gets besides the request itself. */
export interface InputContext {
  era: Era;
  protocolVersion: string;
  /**
   * The call the request belongs to. `undefined` when it cannot be attributed to exactly one
   * call: a handshake-era server pushed it while no call, or several calls, were in flight.
   */
  call: CallInfo | undefined;
  /** The round of `call` this request is part of (1, 2, …); 0 when `call` is undefined. */
  round: number;
  /**
   * Modern era: the `inputRequests` key. Handshake era: the ask's key when the server sends one
   * (`_meta['dev.parley/askKey']`, as Parley's server does: the key the modern era would use),
   * else the pushed request's JSON-RPC id.
   */
  key: string;
  /** Aborted when the call is cancelled or fails (another request of the round failed, …). */
  signal: AbortSignal;
}

/**
 * What an elicitation handler may return: what `responseType(...)` built; the field values as a
 * plain object (checked, defaults applied); a bare value when the form is a single `value`
 * field; or an explicit result (`{ action: 'decline' }`, `{ action: 'cancel' }`,
 * `{ action: 'accept', content }`). `AcceptedElicitation`, `DeclinedElicitation` and
 * `CancelledElicitation` from `@parley/core` work too.
 */
export type ElicitationAnswer =
  | ElicitResult
  | { action: 'accept'; content?: Record<string, unknown> }
  | Record<string, unknown>
  | ElicitContentValue;

/**
 * Answers `elicitation/create`, form and URL mode alike. `responseType` is the typed builder for
 * the requested schema (`@parley/schema`'s `createResponseType`); for a URL-mode request it
 * takes no fields and `params.url` is the URL to show.
 */
export type ElicitationHandler = (
  message: string,
  responseType: ResponseBuilder,
  params: ElicitFormParams | ElicitUrlParams,
  ctx: InputContext,
) => ElicitationAnswer | Promise<ElicitationAnswer>;

/** Answers `sampling/createMessage`: the generated text, or a full sampling result. */
export type SamplingHandler = (
  messages: SamplingMessage[],
  params: CreateMessageParams,
  ctx: InputContext,
) => string | CreateMessageResult | Promise<string | CreateMessageResult>;

/** Answers `roots/list`: a fixed list, or a function asked each time. */
export type RootsProvider =
  readonly Root[] | ((ctx: InputContext) => readonly Root[] | Promise<readonly Root[]>);

/** One answered round of a call, for host UIs and logs. */
export interface RoundEvent {
  era: Era;
  call: CallInfo;
  /** 1 for the first round the server asked, then 2, 3, … */
  round: number;
  maxRounds: number;
  /**
   * What the server asked, by key (handshake era: the key the server sent in
   * `_meta['dev.parley/askKey']`, else the pushed request's JSON-RPC id).
   */
  asked: InputRequests;
  /** What the handlers answered, under the same keys. */
  answered: InputResponses;
  /** Modern era: the opaque state the round carried (echoed back unchanged). */
  requestState?: string;
}

/** A bearer token: fixed, or asked for before every request (`undefined` sends none). */
export type BearerToken = string | (() => string | undefined | Promise<string | undefined>);

/**
 * Where the authorization server sent the user back after they signed in: the redirect URL with
 * its `code`, `state` and `iss` parameters, or just its query string.
 */
export type AuthorizationResponse = URL | URLSearchParams | string;

/**
 * Sign in with OAuth (MCP authorization): discovery from the server's `401`, client
 * registration (dynamic, a metadata document URL, or pre-registered), PKCE, the token
 * exchange, refresh, and step-up on `403 insufficient_scope`, all run by the SDK through the
 * provider.
 */
export interface OAuthAuth {
  /**
   * The SDK's `OAuthClientProvider`: your own (to persist tokens), or `createOAuthProvider()`'s
   * in-memory one.
   */
  oauth: OAuthClientProvider;
  /**
   * When signing in needs the user: called with the authorization URL (after the provider's
   * `redirectToAuthorization`); send the user there and resolve with where they came back. The
   * client then checks `state`, exchanges the code and sends the request that needed it again.
   * Without it such a request fails with the SDK's `UnauthorizedError`.
   */
  authorizationResponse?: (authorizationUrl: URL) => Promise<AuthorizationResponse>;
}

/** How an HTTP client proves who it is: a bearer token, or OAuth. */
export type ClientAuth = { bearerToken: BearerToken } | OAuthAuth;

/** Options of a `Client`. */
export interface ClientOptions {
  /** Default `'auto'`. */
  mode?: ClientMode;
  /** How the client introduces itself. Default `{ name: 'parley-client', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  elicitationHandler?: ElicitationHandler;
  samplingHandler?: SamplingHandler;
  roots?: RootsProvider;
  /**
   * The most rounds one call may take before it fails with `RoundsExceededError`. Default 10; a
   * call's own `maxRounds` overrides it.
   */
  maxRounds?: number;
  /**
   * How long to wait for the server each time it is its turn. Time spent in your handlers is not
   * counted. Default 60 000 ms.
   */
  timeoutMs?: number;
  /** Called after each answered round. Exceptions it throws are ignored. */
  onRound?: (event: RoundEvent) => void;
  /**
   * Warnings about what a server sent that the client read although it is off the spec: a
   * `requestedSchema` near the spec with one reading (a multi-select without `items.type`, a
   * select without `type`, a bound as a numeric string…), naming the server and the defect, each
   * given once. Default: one line on stderr. Exceptions it throws are ignored.
   */
  onWarning?: (message: string) => void;
  /**
   * Handshake era: the server says a URL elicitation is done
   * (`notifications/elicitation/complete`). Exceptions it throws are ignored.
   */
  onElicitationComplete?: (elicitationId: string) => void;
  /**
   * The server's list of tools, prompts or resources changed (`notifications/…/list_changed`
   * on a handshake-era session; a `subscriptions/listen` stream the client opens on a modern
   * connection). Only for the lists the server says change. Exceptions it throws are ignored.
   */
  onListChanged?: (kind: ListChangedKind) => void;
  /** HTTP targets: authorization on every request (a bearer token or OAuth). */
  auth?: ClientAuth;
  /**
   * HTTP targets: headers added to every request to the server (not to an authorization
   * server). The protocol's own headers (`Authorization`, `Mcp-*`, `Content-Type`, `Accept`,
   * `Last-Event-ID`) are not yours to set.
   */
  headers?: Record<string, string>;
  /** HTTP targets: the `fetch` every request goes through, OAuth's included. */
  fetch?: FetchLike;
  /**
   * Take tasks: declare the `io.modelcontextprotocol/tasks` extension (2026-07-28) and ask
   * for a task when a tool supports one (2025-11-25 `params.task`), then drive each task to
   * its result. Default `true`; `false` declares nothing, so servers answer synchronously (or
   * refuse tools that run only as tasks).
   */
  tasks?: boolean;
  /**
   * Protocol extensions to declare in the client's capabilities, by id, with their settings:
   * `{ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } }` is a host
   * that draws MCP Apps. The client only declares them; what the server sends for them (a tool
   * result's `_meta`, a resource to show) is yours to act on. The tasks extension is the `tasks`
   * option's.
   */
  extensions?: Record<string, object>;
  /**
   * OpenTelemetry spans for each call, each of its requests (rounds) and each request a
   * handshake-era server pushes, with W3C trace context sent to the server (`_meta` and the
   * HTTP header). Default: the global tracer provider (nothing is recorded until the
   * application registers an SDK); `false` turns them off.
   */
  telemetry?: ClientTelemetryOptions | false;
}

/** `Client`'s `telemetry` option. */
export interface ClientTelemetryOptions {
  /** Where spans go. Default: the global tracer provider. */
  tracerProvider?: TracerProvider;
}

/** Options of one `callTool`, `getPrompt` or `readResource`. */
export interface CallOptions {
  /**
   * Overrides the client's `maxRounds` for this call. In a task, each poll that
   * brings new questions counts as a round.
   */
  maxRounds?: number;
  /** Cancels the call (and tells the server; a task is cancelled with `tasks/cancel`). */
  signal?: AbortSignal;
  /**
   * Overrides the client's `timeoutMs` for this call. A call that became a task is not timed
   * as a whole (a task may take hours): each request of it is (`tasks/get`, `tasks/update`).
   */
  timeoutMs?: number;
  /**
   * `callTool` only: called once, when the server turns the call into a task, with a handle
   * to watch it (status, status message) or cancel it. `callTool` still resolves with the
   * final result, as if the call had been synchronous.
   */
  onTask?: (task: TaskHandle) => void;
  /**
   * Called with each `notifications/progress` the server sends for this call (the client asks
   * for them with a progress token). Exceptions it throws are ignored.
   */
  onProgress?: (progress: CallProgress) => void;
}

/** What a retry round adds to a call's params: the answers, and the server's state as it sent it. */
export interface RoundContinuation {
  inputResponses?: InputResponses;
  requestState?: string;
}

/**
 * One round of a modern-era call for {@link Client.sendRound}: the request's params as the wire
 * carries them, answers and state included.
 */
export type SingleRound =
  | {
      method: 'tools/call';
      params: { name: string; arguments?: Record<string, unknown> } & RoundContinuation;
    }
  | {
      method: 'prompts/get';
      params: { name: string; arguments?: Record<string, string> } & RoundContinuation;
    }
  | { method: 'resources/read'; params: { uri: string } & RoundContinuation };

/** Options of {@link Client.sendRound}: one request, so no round bound and no task. */
export type SingleRoundOptions = Pick<CallOptions, 'signal' | 'timeoutMs' | 'onProgress'>;

/** A list a server may say has changed. */
export type ListChangedKind = 'tools' | 'prompts' | 'resources';

/** One progress notification of a call. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What the client knows of a task at one moment: the task as the server last described it. */
export type TaskSnapshot = Task;

/** A call that became a task, for callers who want to watch it or cancel it. */
export interface TaskHandle {
  readonly taskId: string;
  /** The call it is the task of. */
  readonly call: CallInfo;
  /** The era it runs in: `tasks/update` (modern) or pushed requests (handshake) carry its questions. */
  readonly era: Era;
  /** The latest state the client has seen. */
  readonly current: TaskSnapshot;
  /** Called on each change of status or status message; returns the way to stop. */
  onChange(listener: (task: TaskSnapshot) => void): () => void;
  /**
   * Ask the server to cancel the task (`tasks/cancel`). Cancelling is cooperative: the call
   * rejects with `TaskCancelledError` once the task ends `cancelled` (it may still complete,
   * if the work finished first).
   */
  cancel(): Promise<void>;
}

/** A tool's final result. */
export interface ToolCallResult<TData = unknown> {
  content: ContentBlock[];
  /** As the server sent it (handshake era: a scalar output may arrive wrapped as `{ result }`). */
  structuredContent: unknown;
  isError: boolean;
  /**
   * The structured result: `structuredContent`, unwrapped from the handshake era's
   * `{ result: … }` envelope when the tool's listed output schema is that envelope.
   */
  data: TData | undefined;
  _meta?: Meta;
}
