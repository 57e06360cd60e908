import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  EraMismatchError,
  InvalidAnswerError,
  UnsupportedCapabilityError,
  checkOptionKeys,
  clientFeatureOf,
  optionKeys,
  requiredCapabilities,
  supportsRequest,
  type ClientCapabilities,
  type CreateMessageParams,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitFormParams,
  type ElicitRequest,
  type HandlerInfo,
  type InputRequest,
  type OptionKeys,
  type Root,
} from '@parley/core';
import type { CompiledResponseType, ResponseType } from '@parley/schema';

import { readAnswer, toElicitationResult } from '../ask/answers.ts';
import { checkAsk, compiledOf } from '../ask/builders.ts';
import { compiled } from '../ask/compiled.ts';
import { problemOf, reaskRequest } from '../ask/reask.ts';
import { elicitParamsFor, formFor } from '../ask/versionSchemas.ts';
import { randomUUID } from '../utils/randomness.ts';
import type { ElicitOptions, PushScope, UrlElicitation, WaitOptions } from './contextTypes.ts';
import { DEFAULT_ASK_KEYS, type PushChannel, type PushOptions } from './pushChannel.ts';
import type { KeyedAsks } from '../flow/flow.ts';

/**
 * Asking by pushing: the handshake era's server-initiated requests (and a task's questions,
 * which wait on the task the same way). Each ask is a request to the client whose answer is
 * awaited, read as a typed result and, for a form that does not fit, asked again with what was
 * wrong. The `Context` methods `ask`, `elicit`, `elicitUrl`, `sample` and `listRoots` end here.
 */

/** One push of the ask `key`: how long it waits, and when it gives up. */
function pushOptions(scope: PushScope, key: string, timeoutMs: number | undefined): PushOptions {
  return {
    key,
    timeout: timeoutMs ?? scope.elicitationTimeoutMs,
    signal: scope.cancellation.signal,
  };
}

/** The strict handshake-era methods, which push or fail. */
export type PushingApi = 'ctx.elicit()' | 'ctx.elicitUrl()' | 'ctx.sample()' | 'ctx.listRoots()';

/** Options of `ctx.elicitUrl()`. */
type UrlElicitOptions = WaitOptions & { elicitationId?: string };

const WAIT_OPTIONS = optionKeys<WaitOptions>()(['timeoutMs']);

/** What each method's options take (`ctx.elicit(ask, options)`: {@link WAIT_OPTIONS}). */
const PUSH_OPTIONS: Record<PushingApi, OptionKeys> = {
  'ctx.elicit()': optionKeys<ElicitOptions>()([
    'responseTitle',
    'responseDescription',
    'timeoutMs',
  ]),
  'ctx.elicitUrl()': optionKeys<UrlElicitOptions>()(['timeoutMs', 'elicitationId']),
  'ctx.sample()': optionKeys<{ maxTokens?: number } & WaitOptions>()(['maxTokens', 'timeoutMs']),
  'ctx.listRoots()': WAIT_OPTIONS,
};

/**
 * The channel `api` pushes on, once its `options` are checked (on either era, so a misspelt
 * option is named before the era is; `ofAsk`: `ctx.elicit(ask, options)`). A modern call has
 * none (except inside a task, where questions are awaited): the strict handshake-era methods
 * fail there, saying what to use instead.
 */
export function pushChannelFor(
  push: PushChannel | undefined,
  handler: HandlerInfo,
  { protocolVersion }: Pick<PushScope['request'], 'protocolVersion'>,
  api: PushingApi,
  options: unknown,
  ofAsk = false,
): PushChannel {
  checkOptionKeys(api, 'options', options, ofAsk ? WAIT_OPTIONS : PUSH_OPTIONS[api]);
  if (push === undefined) {
    throw new EraMismatchError({
      kind: handler.kind,
      name: handler.name,
      protocolVersion,
      used: api,
    });
  }
  return push;
}

/** The client can answer `request` at all (its declared capabilities), on either era. */
export function assertAnswerable(capabilities: ClientCapabilities, request: InputRequest): void {
  if (!supportsRequest(capabilities, request)) {
    const required = requiredCapabilities(request);
    throw new UnsupportedCapabilityError({
      feature: clientFeatureOf(required),
      requiredCapabilities: required,
    });
  }
}

/**
 * `request` can reach the client and be answered there. A request that cannot reach it at all
 * (a handshake-era request served without a session) says so first: the capabilities it would
 * otherwise be refused for are only the ones no session recorded.
 */
export function assertReachable(
  push: PushChannel | undefined,
  capabilities: ClientCapabilities,
  request: InputRequest,
): void {
  const unavailable = push?.unavailable?.(request);
  if (unavailable !== undefined) throw unavailable;
  assertAnswerable(capabilities, request);
}

function assertPushable(scope: PushScope, push: PushChannel, request: InputRequest): void {
  assertReachable(push, scope.reach?.capabilities ?? scope.request.clientCapabilities, request);
}

/**
 * Push the ask `key` and read its answer (asking again while a form's does not fit); a refusal
 * names the ask by `key`, as the modern era's does.
 */
export async function pushAsk(
  scope: PushScope,
  push: PushChannel,
  key: string,
  ask: InputRequest,
  timeoutMs?: number,
): Promise<unknown> {
  switch (ask.method) {
    case 'elicitation/create':
      if (ask.params.mode === 'url') {
        assertPushable(scope, push, ask);
        const answer = await push.elicit(
          elicitParamsFor(
            { ...ask.params, elicitationId: ask.params.elicitationId ?? randomUUID() },
            scope.request.protocolVersion,
          ),
          pushOptions(scope, key, timeoutMs),
        );
        return readAnswer(ask, answer, key);
      }
      return pushForm(scope, push, key, ask.params.message, compiledOf(ask), timeoutMs);
    case 'sampling/createMessage':
      return pushSample(scope, push, ask.params, timeoutMs, key);
    case 'roots/list':
      return pushRoots(scope, push, timeoutMs, key);
  }
}

/**
 * `ctx.askAll` when pushing: one ask after another, each awaited; what this client cannot
 * answer goes to the tool's fallback instead.
 */
export async function pushAll(
  scope: PushScope,
  push: PushChannel,
  asks: Readonly<Record<string, InputRequest>>,
  canAnswer: (ask: InputRequest) => boolean,
  fallback: (asks: KeyedAsks) => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const [key, ask] of Object.entries(asks)) {
    answers[key] = canAnswer(ask)
      ? await pushAsk(scope, push, key, ask)
      : (await fallback([[key, ask]]))[key];
  }
  return answers;
}

/**
 * Push the form `key`, and ask again (saying what was wrong) while the answer does not fit; a
 * refusal names the ask by `key`.
 */
export async function pushForm<TData>(
  scope: PushScope,
  push: PushChannel,
  key: string,
  message: string,
  compiledType: CompiledResponseType<TData>,
  timeoutMs: number | undefined,
): Promise<ElicitationResult<TData>> {
  const question = { message, requestedSchema: compiledType.requestedSchema };
  assertPushable(scope, push, {
    method: 'elicitation/create',
    params: { mode: 'form', ...question },
  });
  scope.lintSchema({ handler: scope.handler }, compiledType.requestedSchema);
  const version = scope.request.protocolVersion;
  // In the client's version's vocabulary, and as its host draws forms; its answer is read back
  // into the form as written.
  const drawing = {
    cannotRender: scope.reach?.cannotRender,
    appElicitation: scope.reach?.appElicitation,
  };
  let form = formFor({ mode: 'form', ...question }, version, drawing);
  for (let reasks = 0; ; reasks++) {
    const answer = form.restore(await push.elicit(form.params, pushOptions(scope, key, timeoutMs)));
    try {
      return toElicitationResult(answer, compiledType, key);
    } catch (error) {
      if (!(error instanceof InvalidAnswerError) || reasks >= scope.maxReasks) throw error;
      scope.reasked?.();
      const reask = reaskRequest(question, problemOf(key, error)).params;
      form = formFor(reask as ElicitFormParams, version, drawing);
    }
  }
}

/** The key of an elicitation pushed without one (`ctx.elicit`, `ctx.elicitUrl`). */
const ELICITATION_KEY = DEFAULT_ASK_KEYS['elicitation/create'];

/**
 * `ctx.elicit(message, responseType, options)` or `ctx.elicit(ask, options)`: an elicitation,
 * pushed (a sampling or roots ask is refused: those go through `ctx.ask`).
 */
export function pushElicitation(
  scope: PushScope,
  push: PushChannel,
  messageOrAsk: string | ElicitRequest,
  responseTypeOrOptions: ResponseType | WaitOptions | undefined,
  options: ElicitOptions,
): Promise<unknown> {
  if (typeof messageOrAsk !== 'string') {
    checkAsk('ctx.elicit()', undefined, messageOrAsk);
    if (messageOrAsk.method !== 'elicitation/create') {
      throw new TypeError(
        `ctx.elicit(): ${messageOrAsk.method} is not an elicitation; use ctx.ask(key, ask).`,
      );
    }
    const timeoutMs = (responseTypeOrOptions as WaitOptions | undefined)?.timeoutMs;
    return pushAsk(scope, push, ELICITATION_KEY, messageOrAsk, timeoutMs);
  }
  const { timeoutMs, ...labels } = options;
  const compiledType = compiled(responseTypeOrOptions as ResponseType, labels);
  return pushForm(scope, push, ELICITATION_KEY, messageOrAsk, compiledType, timeoutMs);
}

/** Push a URL-mode elicitation; an accepted one can tell the client the step finished. */
export async function pushUrl(
  scope: PushScope,
  push: PushChannel,
  message: string,
  url: string,
  options: UrlElicitOptions,
): Promise<ElicitationResult<UrlElicitation>> {
  const elicitationId = options.elicitationId ?? randomUUID();
  const request: ElicitRequest = {
    method: 'elicitation/create',
    params: { mode: 'url', message, url, elicitationId },
  };
  assertPushable(scope, push, request);
  const params = elicitParamsFor(request.params, scope.request.protocolVersion);
  const answer = toElicitationResult(
    await push.elicit(params, pushOptions(scope, ELICITATION_KEY, options.timeoutMs)),
    compiled(null),
    ELICITATION_KEY,
  );
  if (answer.action === 'decline') return new DeclinedElicitation();
  if (answer.action === 'cancel') return new CancelledElicitation();
  return new AcceptedElicitation({
    elicitationId,
    complete: () => push.completeElicitation(elicitationId),
  });
}

/** Have the client's model generate a message (`key`: the ask's, when `ctx.ask` pushes it). */
export function pushSample(
  scope: PushScope,
  push: PushChannel,
  params: CreateMessageParams,
  timeoutMs: number | undefined,
  key: string = DEFAULT_ASK_KEYS['sampling/createMessage'],
): Promise<CreateMessageResult> {
  assertPushable(scope, push, { method: 'sampling/createMessage', params });
  return push.sample(params, pushOptions(scope, key, timeoutMs));
}

/** The roots the client exposes (`key`: the ask's, when `ctx.ask` pushes it). */
export function pushRoots(
  scope: PushScope,
  push: PushChannel,
  timeoutMs: number | undefined,
  key: string = DEFAULT_ASK_KEYS['roots/list'],
): Promise<Root[]> {
  assertPushable(scope, push, { method: 'roots/list' });
  return push.listRoots(pushOptions(scope, key, timeoutMs));
}
