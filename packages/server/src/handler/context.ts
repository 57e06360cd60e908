import {
  supportsRequest,
  type ClientCapabilities,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitRequest,
  type Era,
  type Flow as FlowIdentity,
  type HandlerInfo,
  type InputRequest,
  type InputResponses,
  type Root,
} from '@parley/core';
import type {
  ElicitableShape,
  InferResponse,
  ResponseType,
  ResponseTypeOptionsFor,
} from '@parley/schema';

import { answerUnder, readAnswer, toElicitationResult } from '../ask/answers.ts';
import {
  checkAsk,
  checkAskKey,
  isAsk,
  samplingParams,
  type AnswerOf,
  type AnswersOf,
  type SampleInit,
  type TypedElicitRequest,
  type UrlElicitRequest,
} from '../ask/builders.ts';
import { compiled } from '../ask/compiled.ts';
import type {
  ContextInit,
  ElicitOptions,
  LogLevel,
  RequestContext,
  UrlElicitation,
  WaitOptions,
} from './contextTypes.ts';
import type { PushChannel } from './pushChannel.ts';
import {
  assertReachable,
  pushAll,
  pushChannelFor,
  pushElicitation,
  pushRoots,
  pushSample,
  pushUrl,
  type PushingApi,
} from './pushedAsks.ts';
import { rejectOnceAwaited, type Flow, type KeyedAsks } from '../flow/flow.ts';

/**
 * What a handler gets besides its arguments: the era it is served on, the asking API of both
 * eras (`ask`, `askAll`, `remember`), and the strict per-era layer beneath it (the handshake
 * era's `elicit`, `sample`, `listRoots`; the modern guard pattern's `answer`, `inputResponses`,
 * `requestState`).
 */
export class Context {
  readonly requestContext: RequestContext;
  /** `'handshake'` or `'modern'`: the era this request is served on. */
  readonly era: Era;
  /** The handler this request is for. */
  readonly handler: HandlerInfo;
  /**
   * Modern era: the client's answers to what the previous round asked, or `null` on the first
   * round. Answers to anything that round did not ask have already been dropped.
   */
  readonly inputResponses: Readonly<InputResponses> | null;
  /**
   * Modern era: the `requestState` the previous round returned with `inputRequired(...)`
   * (already verified: Parley seals it); `null` on the first round.
   */
  readonly requestState: string | null;
  /** The call this round belongs to: the same `id` on every round, across replicas. */
  readonly flow: FlowIdentity;
  readonly #init: ContextInit;
  readonly #flow: Flow;
  /** The handshake era's pushed requests, or a task's questions once the call runs as one. */
  #push: PushChannel | undefined;

  /** @internal The server builds one per round; handlers never construct one. */
  constructor(init: ContextInit) {
    this.#init = init;
    this.requestContext = init.request;
    this.era = init.request.era;
    this.handler = init.handler;
    const flow = init.flow;
    this.inputResponses = flow.answers;
    this.requestState = flow.requestState;
    this.flow = flow.identity;
    this.#flow = flow;
    this.#push = init.push;
  }

  /** Aborted when the client cancels the request. */
  get signal(): AbortSignal {
    // Read through: hosts make the signal only when something asks for it (most rounds never do).
    return this.#init.cancellation.signal;
  }

  /**
   * For a tool declared with `task: { start: 'by-handler' }`: from here on the call runs as a
   * task. What the handler asked before came back by rounds of the call; the client now gets the
   * task, and what the handler asks after this waits on the task (a real await, for as long as
   * the task lives). Anywhere else (a call that is not a task, or one that already is) it does
   * nothing.
   */
  async startTask(): Promise<void> {
    const start = this.#init.startTask;
    if (start === undefined) return;
    this.#push = await start();
  }

  /**
   * Handshake era over HTTP: close this call's SSE stream now, without ending the call; the
   * client reconnects with `Last-Event-ID` and gets everything sent meanwhile (SEP-1699). `false`
   * (nothing done) without a resumable stream: stdio, modern era, a task, no event store.
   */
  closeStream(): boolean {
    return this.#push?.closeStream?.() ?? false;
  }

  /** True on every round after the first (answers or state came back). */
  get isContinuation(): boolean {
    return this.#flow.isContinuation;
  }

  /**
   * Which run of the handler this is: 1, then 2, 3, … on the modern era, where the handler runs
   * again from the top for every round of the flow; always 1 on the handshake era.
   */
  get round(): number {
    return this.flow.round;
  }

  /**
   * The keys `ctx.ask` and `ctx.remember` answered from the flow's record on this run so far:
   * questions answered on an earlier round, values computed on an earlier round.
   */
  get replayed(): readonly string[] {
    return [...this.#flow.replayed];
  }

  /**
   * Ask the user (or the client's model, or the client for its roots) and get the answer, on
   * both eras, with the same code: the ask is any the builders make (`elicitRequest`,
   * `elicitUrlRequest`, `sampleRequest`, `rootsRequest`), and the answer is typed by it.
   *
   * - Handshake era: a real request to the client, awaited.
   * - Modern era: the handler runs again from the top each round. An answer given on an earlier
   *   round to this very question (same key, same ask) returns at once; at the first question
   *   with no answer yet the round ends, asking it, and the handler runs again when the client
   *   answers. So code before the last question may run several times: put side effects in
   *   {@link Context.remember} or after the last question.
   *
   * Decline and cancel are answers (`result.action`). An answer that does not fit is asked again
   * with what was wrong (up to `maxReasks`), then throws an {@link InvalidAnswerError}.
   *
   * @throws {UnsupportedCapabilityError} when the client cannot answer this kind of ask.
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
  ask<TAsk extends InputRequest>(key: string, ask: TAsk): Promise<AnswerOf<TAsk>> {
    try {
      checkAskKey('ctx.ask()', key);
      checkAsk('ctx.ask()', key, ask);
      // The common case, one modern ask the client can answer, skips the bookkeeping of several.
      if (this.#askPush === undefined && this.#canAnswer(ask)) {
        return this.#flow.ask(key, ask) as Promise<AnswerOf<TAsk>>;
      }
    } catch (error) {
      return rejectOnceAwaited(error);
    }
    return this.#resolve({ [key]: ask }).then((answers) => answers[key] as AnswerOf<TAsk>);
  }

  /**
   * Ask several questions in one round and get their typed answers, by key. On the modern era
   * the questions the flow has no answers to yet go to the client together; on the handshake era
   * they are asked one after another.
   *
   * @example
   * ```ts
   * // docs/examples/elicitation/ask.ts#askAll
   * mcp.tool('plan_trip', async (_args, ctx) => {
   *   // Both questions in one round (one after another on the handshake era).
   *   const { from, to } = await ctx.askAll({
   *     from: elicitRequest('Flying from?', String, {
   *       responseTitle: 'From',
   *     }),
   *     to: elicitRequest('Flying to?', String, { responseTitle: 'To' }),
   *   });
   *   if (from.action !== 'accept' || to.action !== 'accept')
   *     return 'No trip';
   *   return `${from.data} → ${to.data}`;
   * });
   * ```
   */
  async askAll<TAsks extends Record<string, InputRequest>>(asks: TAsks): Promise<AnswersOf<TAsks>> {
    if (typeof asks !== 'object' || asks === null || Object.keys(asks).length === 0) {
      throw new TypeError('ctx.askAll(): give an object of asks by key, with at least one.');
    }
    for (const [key, ask] of Object.entries(asks)) {
      checkAskKey('ctx.askAll()', key);
      checkAsk('ctx.askAll()', key, ask);
    }
    return (await this.#resolve(asks)) as AnswersOf<TAsks>;
  }

  /**
   * Run `fn` once per flow and return its result on every run of the handler: on the modern era
   * the result (JSON) is recorded in the flow's sealed state and replayed, on any replica, on
   * the rounds after; on the handshake era the handler runs once, unless its replica drains or
   * dies and another takes the call over (`http.sessionStore`), replaying the value from the
   * call's record. For work between questions that must not be redone: a price, a new id.
   *
   * The value comes back as JSON would carry it in both eras (a `Date` must be converted first:
   * it is refused, not silently turned into a string).
   *
   * @throws {TypeError} when the value is not plain JSON.
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
  async remember<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    // A pushing run replays only what its call's record kept (another replica took it over).
    const push = this.#askPush;
    return this.#flow.remember(key, fn, push === undefined, push?.kept);
  }

  #resolve(asks: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    const canAnswer = (ask: InputRequest) => this.#canAnswer(ask);
    const fallback = (unanswerable: KeyedAsks) => this.#fallback(unanswerable);
    const push = this.#askPush;
    return push === undefined
      ? this.#flow.askAll(asks, canAnswer, fallback)
      : pushAll(this.#init, push, asks, canAnswer, fallback);
  }

  /**
   * Handshake era: ask the user now and wait for the answer, validated and typed (a schema
   * library's response type by that library, typed with its output). Takes a message and a
   * response type, or an ask built by `elicitRequest` / `elicitUrlRequest`. Decline and cancel
   * resolve as results. An answer that does not fit is asked again, saying what was wrong (up to
   * the server's `maxReasks`, default 3), then rejects with an {@link InvalidAnswerError}. Throws
   * an {@link EraMismatchError} on a modern request (use `ctx.ask`, which works on both, or
   * `inputRequired(...)`), an {@link UnsupportedCapabilityError} when the client cannot answer
   * elicitations (or this one in its protocol version), a `TypeError` for an unknown option.
   */
  elicit<const R extends ResponseType>(
    message: string,
    responseType: R & ElicitableShape<R>,
    options?: ResponseTypeOptionsFor<R> & WaitOptions,
  ): Promise<ElicitationResult<InferResponse<R>>>;
  elicit<TAsk extends TypedElicitRequest<unknown> | UrlElicitRequest>(
    ask: TAsk,
    options?: WaitOptions,
  ): Promise<AnswerOf<TAsk>>;
  async elicit(
    messageOrAsk: string | ElicitRequest,
    responseTypeOrOptions?: ResponseType | WaitOptions,
    maybeOptions: ElicitOptions = {},
  ): Promise<unknown> {
    const ofAsk = typeof messageOrAsk !== 'string';
    const options = ofAsk ? responseTypeOrOptions : maybeOptions;
    const push = this.#pushChannel('ctx.elicit()', options, ofAsk);
    return pushElicitation(this.#init, push, messageOrAsk, responseTypeOrOptions, maybeOptions);
  }

  /**
   * Handshake era: ask the user to complete a step at `url` out of band (URL mode, for secrets
   * and third-party sign-in that must never pass through the client). The accepted result can
   * tell the client the step finished (`complete()`).
   */
  async elicitUrl(
    message: string,
    url: string | URL,
    options: { timeoutMs?: number; elicitationId?: string } = {},
  ): Promise<ElicitationResult<UrlElicitation>> {
    const push = this.#pushChannel('ctx.elicitUrl()', options);
    return pushUrl(this.#init, push, message, String(url), options);
  }

  /**
   * Handshake era: have the client's model generate a message (from sampling parameters, a
   * prompt, or an ask built by `sampleRequest`).
   */
  async sample(
    init: SampleInit | CreateMessageRequest,
    options: { maxTokens?: number; timeoutMs?: number } = {},
  ): Promise<CreateMessageResult> {
    const push = this.#pushChannel('ctx.sample()', options);
    const params =
      typeof init === 'object' && (init as { method?: unknown }).method === 'sampling/createMessage'
        ? (init as CreateMessageRequest).params
        : samplingParams(init as SampleInit, options.maxTokens);
    return pushSample(this.#init, push, params, options.timeoutMs);
  }

  /** Handshake era: the roots the client exposes. */
  async listRoots(options: WaitOptions = {}): Promise<Root[]> {
    return pushRoots(this.#init, this.#pushChannel('ctx.listRoots()', options), options.timeoutMs);
  }

  /**
   * Modern era, guard pattern: the answer the client gave under `key` to what the previous round
   * asked, read by the ask that asked it (or, for a form, a response type), typed like
   * `ctx.ask`'s; `undefined` when the client sent no answer under that key (ask for it).
   *
   * An answer that did not fit the question as asked has already been asked again by the
   * server (up to `maxReasks` times) before the handler runs; one that fits the question but
   * not `responseType` (a refinement the schema cannot express) throws here, and if the handler
   * lets it go, the server asks again too.
   *
   * @throws {InvalidAnswerError} when the answer does not fit, or is of another kind.
   */
  answer<TAsk extends InputRequest>(key: string, ask: TAsk): AnswerOf<TAsk> | undefined;
  answer<const R extends ResponseType>(
    key: string,
    responseType: R,
  ): ElicitationResult<InferResponse<R>> | undefined;
  answer(key: string, askOrType: InputRequest | ResponseType): unknown {
    const answer = answerUnder(this.inputResponses, key);
    if (answer === undefined) return undefined;
    if (isAsk(askOrType)) return readAnswer(askOrType, answer, key);
    return toElicitationResult(answer, compiled(askOrType), key);
  }

  /**
   * Send a log message to the client. Handshake era: subject to the level the client set;
   * modern era: only when the request asked for logs (SEP-2577 deprecates this channel).
   */
  log(level: LogLevel, data: unknown): Promise<void> {
    return this.#init.channel.log(level, data);
  }

  /** Report progress, when the client asked for it with a progress token; otherwise a no-op. */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    await this.#init.channel.progress?.(progress, total, message);
  }

  #pushChannel(api: PushingApi, options: unknown, ofAsk = false): PushChannel {
    return pushChannelFor(this.#push, this.handler, this.requestContext, api, options, ofAsk);
  }

  /** Where `ctx.ask` pushes: nowhere on the App route, where the App brings the answer back. */
  get #askPush(): PushChannel | undefined {
    return this.#init.reach?.app === true ? undefined : this.#push;
  }

  /** What may be asked this round: what the client declared, or what the App answers. */
  get #askCapabilities(): ClientCapabilities {
    return this.#init.reach?.capabilities ?? this.requestContext.clientCapabilities;
  }

  #canAnswer(request: InputRequest): boolean {
    return supportsRequest(this.#askCapabilities, request);
  }

  #fallback(asks: KeyedAsks): Promise<Record<string, unknown>> {
    const fail = (ask: InputRequest): never => {
      assertReachable(this.#push, this.#askCapabilities, ask);
      throw new TypeError('unreachable: the client can answer this ask');
    };
    const fallback = this.#init.fallback;
    return fallback === undefined ? Promise.resolve(fail(asks[0]![1])) : fallback(asks, fail);
  }
}
