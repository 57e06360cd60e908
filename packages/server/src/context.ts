import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  clientFeatureOf,
  EraMismatchError,
  InvalidAnswerError,
  UnsupportedCapabilityError,
  requiredCapabilities,
  supportsRequest,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitationSchema,
  type ElicitRequest,
  type Era,
  type HandlerKind,
  type Implementation,
  type InputRequest,
  type InputResponses,
  type Root,
} from '@parley/core';
import { type InferResponse, type ResponseType, type ResponseTypeOptions } from '@parley/schema';

import { elicitAnswerOf, rootsAnswerOf, samplingAnswerOf, toElicitationResult } from './answers.ts';
import { askInfoOf, samplingParams, type SampleInit, type TypedElicitRequest } from './asks.ts';
import { compiled } from './compiledResponseTypes.ts';
import type { PushChannel } from './pushChannel.ts';
import { problemOf, reaskRequest } from './round/reask.ts';
import { elicitParamsFor } from './round/versionSchemas.ts';

/** Who is asking: the handler kind and its name (or URI). */
export interface HandlerTarget {
  kind: HandlerKind;
  name: string;
}

/** The facts of the request being served. */
export interface RequestContext {
  /** The negotiated (handshake era) or per-request (modern era) protocol version. */
  protocolVersion: string;
  era: Era;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The capabilities the client declared (on the session, or on this very request). */
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The HTTP session, on handshake-era HTTP connections. */
  sessionId: string | undefined;
  /** The authenticated principal, when the transport verified one. */
  principal: string | undefined;
}

/** One logical call across its rounds. */
export interface Flow {
  /** The same for every round of one call, across replicas (it travels sealed in `requestState`). */
  id: string;
  /** 1 on the first round, then 2, 3, … */
  round: number;
  /** When the first round started (ms since the epoch), carried across rounds and replicas. */
  startedAt: number;
}

/** Logging levels, as MCP names them. */
export type LogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Options of `ctx.elicit()`. */
export interface ElicitOptions extends ResponseTypeOptions {
  /** How long to wait for the person to answer. Default: the server's `elicitationTimeoutMs` (10 minutes). */
  timeoutMs?: number;
}

/** What `ctx.elicitUrl()` resolves to when the user agreed to open the URL. */
export interface UrlElicitation {
  elicitationId: string;
  /** Tell the client the out-of-band step finished (`notifications/elicitation/complete`). */
  complete(): Promise<void>;
}

/** What the server builds a {@link Context} from (internal). */
export interface ContextInit {
  target: HandlerTarget;
  request: RequestContext;
  flow: Flow;
  inputResponses: InputResponses | null;
  requestState: string | null;
  /** The state the previous round returned, as a JSON value (`inputRequired({ state })`). */
  state: unknown;
  /** How many times a bad answer to a handshake-era `ctx.elicit` is asked again. */
  maxReasks: number;
  signal: AbortSignal;
  push: PushChannel | undefined;
  log: (level: LogLevel, data: unknown) => Promise<void>;
  progress: ((progress: number, total?: number, message?: string) => Promise<void>) | undefined;
  elicitationTimeoutMs: number;
  /** Reports compatibility warnings about a schema this handler asks with. */
  lintSchema: (schema: ElicitationSchema) => void;
}

/**
 * What a handler gets besides its arguments: the era it is served on, the answers and state of
 * the modern guard pattern, and the handshake era's server-initiated requests.
 *
 * `TState` is the type of {@link Context.state}, from the handler's `stateSchema`.
 */
export class Context<TState = unknown> {
  readonly requestContext: RequestContext;
  /** `'handshake'` or `'modern'`: which input API this request can use. */
  readonly era: Era;
  /**
   * Modern era: the client's answers to what the previous round asked, or `null` on the first
   * round. Answers to anything that round did not ask have already been dropped.
   */
  readonly inputResponses: Readonly<InputResponses> | null;
  /**
   * Modern era: the state the previous round returned (already verified), as a string: the
   * `requestState` it gave, or the JSON text of its `state`; `null` on the first round.
   */
  readonly requestState: string | null;
  /**
   * Modern era: the state the previous round returned with `inputRequired({ state })`, parsed
   * (and checked against the handler's `stateSchema`, when it declares one); `null` on the first
   * round, or when the previous round gave its state as a `requestState` string.
   */
  readonly state: TState | null;
  readonly flow: Flow;
  readonly #init: ContextInit;

  constructor(init: ContextInit) {
    this.#init = init;
    this.requestContext = init.request;
    this.era = init.request.era;
    this.inputResponses = init.inputResponses;
    this.requestState = init.requestState;
    this.state = (init.state ?? null) as TState | null;
    this.flow = init.flow;
  }

  /** Aborted when the client cancels the request. */
  get signal(): AbortSignal {
    // Read through: hosts make the signal only when something asks for it (most rounds never do).
    return this.#init.signal;
  }

  /**
   * Handshake era over HTTP: close this call's SSE stream now, without ending the call. The
   * client reconnects after the server's `retry` with `Last-Event-ID` and gets everything sent
   * meanwhile (SEP-1699 polling: a long call need not hold a connection). `false` (and nothing
   * done) where the call has no resumable stream: stdio, the modern era, or an endpoint without
   * an event store.
   */
  closeStream(): boolean {
    return this.#init.push?.closeStream?.() ?? false;
  }

  /** True on every round after the first (answers or state came back). */
  get isContinuation(): boolean {
    return this.inputResponses !== null || this.requestState !== null;
  }

  /**
   * Handshake era: ask the user now and wait for the answer, validated and typed (a schema
   * library's response type is validated by that library, and typed with its output). Decline
   * and cancel resolve as results. An answer that does not fit is asked again, saying what was
   * wrong (up to the server's `maxReasks`, default 3), then rejects with an
   * {@link InvalidAnswerError}. Throws an {@link EraMismatchError} on a modern request (return
   * `inputRequired(...)` there) and an {@link UnsupportedCapabilityError} when the client cannot
   * answer elicitations (or cannot express this one in its protocol version).
   */
  async elicit<const R extends ResponseType>(
    message: string,
    responseType: R,
    options: ElicitOptions = {},
  ): Promise<ElicitationResult<InferResponse<R>>> {
    const push = this.#pushChannel('ctx.elicit()');
    const { timeoutMs, ...labels } = options;
    const compiledType = compiled(responseType, labels);
    const question = { message, requestedSchema: compiledType.requestedSchema };
    const request: ElicitRequest = {
      method: 'elicitation/create',
      params: { mode: 'form', ...question },
    };
    this.#assertSupported(push, request);
    this.#init.lintSchema(compiledType.requestedSchema);
    const version = this.requestContext.protocolVersion;
    let params = elicitParamsFor(request.params, version);
    for (let reasks = 0; ; reasks++) {
      const answer = await push.elicit(params, this.#waitOptions(timeoutMs));
      try {
        return toElicitationResult(answer, compiledType);
      } catch (error) {
        if (!(error instanceof InvalidAnswerError) || reasks >= this.#init.maxReasks) throw error;
        params = elicitParamsFor(
          reaskRequest(question, problemOf(undefined, error)).params,
          version,
        );
      }
    }
  }

  /**
   * Handshake era: ask the user to complete a step at `url` out of band (URL mode, for secrets
   * and third-party sign-in that must never pass through the client).
   */
  async elicitUrl(
    message: string,
    url: string | URL,
    options: { timeoutMs?: number; elicitationId?: string } = {},
  ): Promise<ElicitationResult<UrlElicitation>> {
    const push = this.#pushChannel('ctx.elicitUrl()');
    const elicitationId = options.elicitationId ?? crypto.randomUUID();
    const request: ElicitRequest = {
      method: 'elicitation/create',
      params: { mode: 'url', message, url: String(url), elicitationId },
    };
    this.#assertSupported(push, request);
    const params = elicitParamsFor(request.params, this.requestContext.protocolVersion);
    const answer = toElicitationResult(
      await push.elicit(params, this.#waitOptions(options.timeoutMs)),
      compiled(null),
    );
    if (answer.action === 'decline') return new DeclinedElicitation();
    if (answer.action === 'cancel') return new CancelledElicitation();
    return new AcceptedElicitation({
      elicitationId,
      complete: () => push.completeElicitation(elicitationId),
    });
  }

  /** Handshake era: have the client's model generate a message. */
  async sample(
    init: SampleInit,
    options: { maxTokens?: number; timeoutMs?: number } = {},
  ): Promise<CreateMessageResult> {
    const push = this.#pushChannel('ctx.sample()');
    const params = samplingParams(init, options.maxTokens);
    this.#assertSupported(push, { method: 'sampling/createMessage', params });
    return push.sample(params, this.#waitOptions(options.timeoutMs));
  }

  /** Handshake era: the roots the client exposes. */
  async listRoots(options: { timeoutMs?: number } = {}): Promise<Root[]> {
    const push = this.#pushChannel('ctx.listRoots()');
    this.#assertSupported(push, { method: 'roots/list' });
    return push.listRoots(this.#waitOptions(options.timeoutMs));
  }

  /**
   * Modern era: the answer to the elicitation asked under `key` on the previous round,
   * validated against `responseType` (or the request built by `elicitRequest`) and typed;
   * `undefined` when the client sent no answer under that key (ask again).
   *
   * An answer that did not fit the question as asked has already been asked again by the
   * server (up to `maxReasks` times) before the handler runs; one that fits the question but
   * not `responseType` (a refinement the schema cannot express) throws here, and if the handler
   * lets it go, the server asks again too.
   *
   * @throws {InvalidAnswerError} when accepted content does not fit the type.
   */
  answer<TData>(key: string, ask: TypedElicitRequest<TData>): ElicitationResult<TData> | undefined;
  answer<const R extends ResponseType>(
    key: string,
    responseType: R,
  ): ElicitationResult<InferResponse<R>> | undefined;
  answer(
    key: string,
    typeOrAsk: ResponseType | TypedElicitRequest<unknown>,
  ): ElicitationResult<unknown> | undefined {
    const answer = elicitAnswerOf(this.inputResponses, key);
    if (answer === undefined) return undefined;
    const compiledType = isElicitRequest(typeOrAsk)
      ? (askInfoOf(typeOrAsk)?.compiled ??
        compiled(typeOrAsk.params.mode === 'url' ? null : typeOrAsk.params.requestedSchema))
      : compiled(typeOrAsk);
    return toElicitationResult(answer, compiledType, key);
  }

  /** Modern era: the sampling result answered under `key`, or `undefined`. */
  samplingAnswer(key: string): CreateMessageResult | undefined {
    return samplingAnswerOf(this.inputResponses, key);
  }

  /** Modern era: the roots answered under `key`, or `undefined`. */
  rootsAnswer(key: string): Root[] | undefined {
    return rootsAnswerOf(this.inputResponses, key);
  }

  /**
   * Send a log message to the client. Handshake era: subject to the level the client set;
   * modern era: only when the request asked for logs (SEP-2577 deprecates this channel).
   */
  log(level: LogLevel, data: unknown): Promise<void> {
    return this.#init.log(level, data);
  }

  /** Report progress, when the client asked for it with a progress token; otherwise a no-op. */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    await this.#init.progress?.(progress, total, message);
  }

  #pushChannel(
    api: 'ctx.elicit()' | 'ctx.elicitUrl()' | 'ctx.sample()' | 'ctx.listRoots()',
  ): PushChannel {
    const push = this.#init.push;
    if (this.era === 'modern' || push === undefined) {
      throw new EraMismatchError({
        kind: this.#init.target.kind,
        name: this.#init.target.name,
        protocolVersion: this.requestContext.protocolVersion,
        used: api,
      });
    }
    return push;
  }

  #assertSupported(push: PushChannel, request: InputRequest): void {
    const unavailable = push.unavailable?.(request);
    if (unavailable !== undefined) throw unavailable;
    if (!supportsRequest(this.requestContext.clientCapabilities, request)) {
      const required = requiredCapabilities(request);
      throw new UnsupportedCapabilityError({
        feature: clientFeatureOf(required),
        requiredCapabilities: required,
      });
    }
  }

  #waitOptions(timeoutMs: number | undefined): { timeout: number; signal: AbortSignal } {
    return { timeout: timeoutMs ?? this.#init.elicitationTimeoutMs, signal: this.signal };
  }
}

/** True for an elicitation request built by `elicitRequest` (or by hand). */
function isElicitRequest(value: unknown): value is ElicitRequest {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { method?: unknown }).method === 'elicitation/create' &&
    typeof (value as { params?: unknown }).params === 'object'
  );
}
