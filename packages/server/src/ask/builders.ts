import {
  checkOptionKeys,
  isInputRequestMethod,
  optionKeys,
  type CreateMessageParams,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitContentValue,
  type ElicitFormParams,
  type ElicitRequest,
  type ElicitUrlParams,
  type InputRequest,
  type ListRootsRequest,
  type Root,
} from '@parley/core';
import {
  type CompiledResponseType,
  type ElicitableShape,
  type InferResponse,
  type ResponseType,
  type ResponseTypeOptions,
  type ResponseTypeOptionsFor,
} from '@parley/schema';

import { compiled } from './compiled.ts';

/**
 * The ask builders: one set, for every way of asking. What they build is accepted by
 * `ctx.ask(key, ask)` (both eras), by `ctx.elicit(ask)` (handshake era) and as an entry of
 * `inputRequired({ inputRequests })` (modern era), and read back, typed, by `ctx.answer`.
 *
 * Each builder returns the plain wire request, so it can be logged, compared and serialised as
 * is. What the server needs beyond the wire (is the ask optional, which response type reads its
 * answer) rides on a non-enumerable symbol property that JSON never sees.
 */

const ASK_INFO = Symbol.for('@parley/server.askInfo');

/** Options every ask builder takes. */
export interface AskOptions {
  /**
   * An optional ask is left out of the round, rather than failing it with `-32021`, when the
   * client did not declare the capability it needs.
   */
  optional?: boolean;
}

/** Options of a form ask ({@link elicitRequest}) beyond {@link AskOptions}. */
export interface FormAskOptions extends AskOptions {
  /**
   * Under the `'arguments'` fallback (a client that cannot ask the user), let the model give this
   * ask's confirmations (its boolean fields, a yes/no, an approve-only ask) as arguments. Off by
   * default: a model could fill them in without the user ever seeing the question. Turn it on
   * only where the call itself is the user's intent (and the action can be undone).
   */
  modelMayConfirm?: boolean;
}

/** What each builder's options take (a form ask's: its response type's labels too). */
const FORM_ASK_OPTIONS = optionKeys<ResponseTypeOptions & FormAskOptions>()([
  'responseTitle',
  'responseDescription',
  'optional',
  'modelMayConfirm',
]);
const ASK_OPTIONS = optionKeys<AskOptions>()(['optional']);
/** Options of {@link sampleRequest}: optional, and the most tokens the model may write. */
export type SampleOptions = AskOptions & { maxTokens?: number };
const SAMPLE_OPTIONS = optionKeys<SampleOptions>()(['optional', 'maxTokens']);

interface AskInfo {
  optional: boolean;
  modelMayConfirm?: boolean;
  compiled?: CompiledResponseType<unknown>;
}

declare const answerType: unique symbol;

/** A form elicitation built by {@link elicitRequest}; it remembers the type of its answer. */
export type TypedElicitRequest<TData> = ElicitRequest & {
  params: ElicitFormParams;
  readonly [answerType]?: TData;
};

/** A URL-mode elicitation built by {@link elicitUrlRequest}. */
export type UrlElicitRequest = ElicitRequest & { params: ElicitUrlParams };

/**
 * What an ask is answered with, by kind: a form elicitation's typed result (`accept` with the
 * data, `decline` or `cancel`); a URL elicitation's result (`accept` means the user agreed to
 * open the page); a sampling request's `CreateMessageResult`; a roots request's `Root[]`.
 */
export type AnswerOf<TAsk> = TAsk extends { method: 'roots/list' }
  ? Root[]
  : TAsk extends { method: 'sampling/createMessage' }
    ? CreateMessageResult
    : TAsk extends { params: { mode: 'url' } }
      ? ElicitationResult<undefined>
      : TAsk extends { readonly [answerType]?: infer TData }
        ? ElicitationResult<TData>
        : ElicitationResult<Record<string, ElicitContentValue>>;

/** The typed answers of a map of asks (`ctx.askAll`). */
export type AnswersOf<TAsks extends Record<string, InputRequest>> = {
  [K in keyof TAsks]: AnswerOf<TAsks[K]>;
};

function withInfo<TRequest extends InputRequest>(request: TRequest, info: AskInfo): TRequest {
  Object.defineProperty(request, ASK_INFO, { value: info, enumerable: false });
  return request;
}

/**
 * The form ask a bare response type declared at registration stands for: no message (the
 * handler gives one when it asks), the response type kept to read and describe its answer.
 */
export function declaredFormAsk(compiledType: CompiledResponseType<unknown>): ElicitRequest {
  return withInfo(
    {
      method: 'elicitation/create' as const,
      params: { mode: 'form' as const, message: '', requestedSchema: compiledType.requestedSchema },
    },
    { optional: false, compiled: compiledType },
  );
}

/** What the server knows about an ask beyond its wire form (absent for hand-built requests). */
export function askInfoOf(request: InputRequest): AskInfo | undefined {
  return (request as { [ASK_INFO]?: AskInfo })[ASK_INFO];
}

/** The response type that reads the answers of a form or URL elicitation. */
export function compiledOf(request: ElicitRequest): CompiledResponseType<unknown> {
  if (request.params.mode === 'url') return compiled(null) as CompiledResponseType<unknown>;
  return (
    askInfoOf(request)?.compiled ??
    (compiled(request.params.requestedSchema as never) as CompiledResponseType<unknown>)
  );
}

/** True for an ask: an elicitation, sampling or roots request (built or written by hand). */
export function isAsk(value: unknown): value is InputRequest {
  if (typeof value !== 'object' || value === null) return false;
  const { method, params } = value as { method?: unknown; params?: unknown };
  return (
    isInputRequestMethod(method) &&
    (method === 'roots/list' || (typeof params === 'object' && params !== null))
  );
}

/**
 * A form elicitation asking for `responseType`: any response type `@parley/schema` accepts
 * (`String`, `['low', 'high']`, a zod, valibot or ArkType schema, a wire schema, …), its answer
 * typed with the schema library's output type. The schema is compiled
 * here, so an inexpressible type throws a `TypeError` where the ask is built. Give it to
 * `ctx.ask(key, thisRequest)` (or `ctx.elicit`, or `inputRequests`), and the answer comes back
 * validated and typed.
 *
 * @example
 * ```ts
 * // docs/examples/elicitation/ask.ts#asks
 * const askDestination = elicitRequest(
 *   'Where would you like to fly?',
 *   z.object({ destination: z.string().meta({ title: 'Destination' }) }),
 * );
 * const askDate = (destination: string) =>
 *   elicitRequest(
 *     `When would you like to fly to ${destination}?`,
 *     z.object({ date: z.iso.date().meta({ title: 'Date' }) }),
 *   );
 * ```
 */
export function elicitRequest<const R extends ResponseType>(
  message: string,
  responseType: R & ElicitableShape<R>,
  options?: ResponseTypeOptionsFor<R> & FormAskOptions,
): TypedElicitRequest<InferResponse<R>> {
  if (typeof message !== 'string' || message.length === 0) {
    throw new TypeError('elicitRequest: message must be a non-empty string.');
  }
  checkOptionKeys('elicitRequest', 'options', options, FORM_ASK_OPTIONS);
  const {
    optional = false,
    modelMayConfirm = false,
    ...labels
  } = (options ?? {}) as ResponseTypeOptions & FormAskOptions;
  const compiledType = compiled(responseType as R, labels);
  return withInfo(
    {
      method: 'elicitation/create' as const,
      params: { mode: 'form' as const, message, requestedSchema: compiledType.requestedSchema },
    },
    { optional, modelMayConfirm, compiled: compiledType as CompiledResponseType<unknown> },
  );
}

/**
 * A URL-mode elicitation (SEP-1036): the client shows `url` and, with the user's consent, opens
 * it; the interaction happens out of band. On the modern protocol an `accept` answer only means
 * the user agreed to open it, so carry your own id in `requestState` to check completion.
 */
export function elicitUrlRequest(
  message: string,
  url: string | URL,
  options: AskOptions = {},
): UrlElicitRequest {
  const href = String(url);
  if (!URL.canParse(href)) {
    throw new TypeError(`elicitUrlRequest: ${JSON.stringify(href)} is not an absolute URL.`);
  }
  checkOptionKeys('elicitUrlRequest', 'options', options, ASK_OPTIONS);
  return withInfo(
    { method: 'elicitation/create' as const, params: { mode: 'url' as const, message, url: href } },
    { optional: options.optional ?? false },
  );
}

/** What {@link sampleRequest} takes: full sampling parameters, or just the user's prompt text. */
export type SampleInit = CreateMessageParams | string;

/** Default `maxTokens` when a sampling ask is built from a bare prompt. */
export const DEFAULT_SAMPLING_MAX_TOKENS = 1000;

/** Normalise a {@link SampleInit} to sampling parameters. */
export function samplingParams(
  init: SampleInit,
  maxTokens: number = DEFAULT_SAMPLING_MAX_TOKENS,
): CreateMessageParams {
  if (typeof init === 'string') {
    return { messages: [{ role: 'user', content: { type: 'text', text: init } }], maxTokens };
  }
  if (!Array.isArray(init.messages) || typeof init.maxTokens !== 'number') {
    throw new TypeError('sampleRequest: params need messages (an array) and maxTokens (a number).');
  }
  return init;
}

/**
 * A sampling ask: the client's model generates a message. Deprecated by the 2026-07-28
 * revision (SEP-2577) but still part of it; prefer calling a model from your server unless the
 * point is to use the caller's.
 */
export function sampleRequest(init: SampleInit, options: SampleOptions = {}): CreateMessageRequest {
  checkOptionKeys('sampleRequest', 'options', options, SAMPLE_OPTIONS);
  return withInfo(
    { method: 'sampling/createMessage' as const, params: samplingParams(init, options.maxTokens) },
    { optional: options.optional ?? false },
  );
}

/** A roots ask: the client lists the directories or files it exposes. */
export function rootsRequest(options: AskOptions = {}): ListRootsRequest {
  checkOptionKeys('rootsRequest', 'options', options, ASK_OPTIONS);
  return withInfo(
    { method: 'roots/list' as const, params: {} },
    { optional: options.optional ?? false },
  );
}

/** Refuse a key that is not a non-empty string, with a `TypeError` starting with `api`. */
export function checkAskKey(api: string, key: unknown): void {
  if (typeof key !== 'string' || key.length === 0) {
    throw new TypeError(`${api}: the key must be a non-empty string (got ${String(key)}).`);
  }
}

/** Refuse what no builder made, with a `TypeError` starting with `api` (and the key). */
export function checkAsk(api: string, key: string | undefined, ask: unknown): void {
  if (!isAsk(ask)) {
    throw new TypeError(
      `${api}${key === undefined ? '' : ` '${key}'`}: the ask must be built by elicitRequest, ` +
        'elicitUrlRequest, sampleRequest or rootsRequest (an elicitation, sampling or roots request).',
    );
  }
}
