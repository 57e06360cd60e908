import type {
  Era,
  GetPromptResult,
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

/** One logical call across its rounds (the same id on every round, across replicas). */
export interface FlowInfo {
  id: string;
  /** 1 on the first round, then 2, 3, … */
  round: number;
  /** When the first round started, in ms since the epoch. */
  startedAt: number;
}

/** The part of the author's Parley `Context` middleware can read. */
export interface RoundContextView {
  readonly era: Era;
  readonly inputResponses: Readonly<InputResponses> | null;
  readonly requestState: string | null;
  readonly flow: FlowInfo;
  /** True on every round after the first: `inputResponses !== null || requestState !== null`. */
  readonly isContinuation: boolean;
  readonly requestContext: {
    readonly protocolVersion: string;
    readonly era: Era;
    readonly method: string;
    readonly principal: string | undefined;
    readonly sessionId: string | undefined;
  };
}

/** The handler a request is for, as middleware may need to know it. */
export interface HandlerInfo {
  kind: 'tool' | 'prompt' | 'resource' | 'resourceTemplate';
  /** Tool or prompt name, or the resource URI (template: the URI read). */
  name: string;
  /** The author marked this handler's final results as safe to cache. */
  cacheable: boolean;
}

/** What every middleware hook receives. */
export interface MiddlewareContext<TParams = Record<string, unknown>> {
  /** The MCP method: `tools/call`, `prompts/get`, `resources/read`, `tools/list`, … */
  readonly method: string;
  /** The request's params, without the protocol's own fields (`_meta`, `inputResponses`, `requestState`). */
  readonly params: TParams;
  readonly era: Era;
  readonly protocolVersion: string;
  /** For `tools/call`, `prompts/get` and `resources/read`: the handler. */
  readonly handler: HandlerInfo | undefined;
  /** For `tools/call`, `prompts/get` and `resources/read`: the author's context of this round. */
  readonly parleyContext: RoundContextView | undefined;
  /** Shorthand for `parleyContext.flow`. */
  readonly flow: FlowInfo | undefined;
  /** Shorthand for `parleyContext.isContinuation` (false for lists). */
  readonly isContinuation: boolean;
  /** A store shared by every middleware of this one request. */
  readonly store: Map<string | symbol, unknown>;
}

/** Runs the rest of the chain (and finally the handler) once; a second call is an error. */
export type CallNext<TResult> = () => Promise<TResult>;

/** The params of a `tools/call` as middleware sees them. */
export interface CallToolParams {
  name: string;
  arguments: Record<string, unknown>;
}

/** The params of a `prompts/get`. */
export interface GetPromptParams {
  name: string;
  arguments: Record<string, string>;
}

/** The params of a `resources/read`. */
export interface ReadResourceParams {
  uri: string;
}

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
