import type {
  Era,
  Flow,
  GetPromptResult,
  HandlerInfo,
  InputRequiredResult,
  InputResponses,
  ReadResourceResult,
  ToolResult,
} from '@parley/core';

/**
 * The contract between a Parley server and its middleware. The server builds a
 * {@link MiddlewareContext} for every request it serves and runs the chain around its handler;
 * middleware never sees the SDK.
 */

/** What every middleware hook receives. */
export interface MiddlewareContext<TParams = Record<string, unknown>> {
  /** The MCP method: `tools/call`, `prompts/get`, `resources/read`, `tools/list`, … */
  readonly method: string;
  /** The request's params, without the protocol's own fields (`_meta`, `inputResponses`, `requestState`). */
  readonly params: TParams;
  readonly era: Era;
  readonly protocolVersion: string;
  /** The authenticated principal, when the transport verified one (lists included). */
  readonly principal: string | undefined;
  /** For `tools/call`, `prompts/get` and `resources/read`: the handler. */
  readonly handler: HandlerInfo | undefined;
  /**
   * For `tools/call`, `prompts/get` and `resources/read`: the call this round belongs to (the
   * same `id` on every round, across replicas; `round` is 1, 2, 3…). `undefined` for lists.
   */
  readonly flow: Flow | undefined;
  /**
   * The client's answers to what the previous round asked (already screened: only asked keys),
   * or `null` on a first round, on the handshake era and for lists.
   */
  readonly inputResponses: Readonly<InputResponses> | null;
  /**
   * The author's state the previous round returned (verified), as text; `null` on a first
   * round, on a round of a flow that carries no author state, and for lists.
   */
  readonly requestState: string | null;
  /** True on every round after the first: `inputResponses !== null || requestState !== null`. */
  readonly isContinuation: boolean;
  /**
   * This round carried a sealed `requestState` that the server opened and verified: it continues
   * a flow an earlier round started (possibly on another replica sharing the key ring). False on
   * first rounds, on lists, on the handshake era, and on a round that brings answers without
   * state (the server starts a new flow for it). Unlike `isContinuation`, a client cannot fake it.
   */
  readonly resumesFlow: boolean;
  /**
   * Handshake era: how many server-initiated requests (elicitation, sampling, roots) this round
   * has sent so far. Read it after `callNext()`: a result that followed one depends on answers.
   * Always 0 on the modern era and for lists.
   */
  readonly pushedRequests: number;
  /** A store shared by every middleware of this one request. */
  readonly store: Map<string | symbol, unknown>;
}

/** Runs the rest of the chain (and finally the handler) once; a second call is an error. */
export type CallNext<TResult> = () => Promise<TResult>;

/**
 * The params of a `tools/call` as middleware sees them. (Type aliases, not interfaces, so a hook
 * typed with a plain `MiddlewareContext` still overrides the base class's.)
 */
export type CallToolParams = {
  name: string;
  arguments: Record<string, unknown>;
};

/** The params of a `prompts/get`. */
export type GetPromptParams = {
  name: string;
  arguments: Record<string, string>;
};

/** The params of a `resources/read`. */
export type ReadResourceParams = {
  uri: string;
};

/** A round of `prompts/get`: the rendered prompt, or an ask. */
export type PromptRoundResult = GetPromptResult | InputRequiredResult;

/** A round of `resources/read`: the contents, or an ask. */
export type ResourceRoundResult = ReadResourceResult | InputRequiredResult;

/** What each method's hooks resolve to. An asking tool round is an `InputRequiredToolResult`. */
export interface MethodResults {
  'tools/call': ToolResult;
  'prompts/get': PromptRoundResult;
  'resources/read': ResourceRoundResult;
  'tools/list': { tools: Record<string, unknown>[] };
  'prompts/list': { prompts: Record<string, unknown>[] };
  'resources/list': { resources: Record<string, unknown>[] };
  'resources/templates/list': { resourceTemplates: Record<string, unknown>[] };
}

/** A middleware written as one function: it runs for every request, like `onRequest`. */
export type MiddlewareFunction = (
  context: MiddlewareContext,
  callNext: CallNext<unknown>,
) => Promise<unknown>;
