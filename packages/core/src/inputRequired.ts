import { checkOptionKeys, optionKeys } from './optionKeys.ts';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsRequest,
  ListRootsResult,
  Meta,
} from './wireTypes.ts';

/** A request a server embeds in an `input_required` result (no `jsonrpc`, no `id`). */
export type InputRequest = ElicitRequest | CreateMessageRequest | ListRootsRequest;

/** The client's answer to one {@link InputRequest}, under the same key. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** The requests of one round, by the key their answers come back under. */
export type InputRequests = Record<string, InputRequest>;

/** The answers of one round, by the key of the request they answer. */
export type InputResponses = Record<string, InputResponse>;

/**
 * The modern era's way for a handler to ask (SEP-2322): instead of a final result it returns the
 * requests the client must fulfil, and optionally state to carry into the retry. The client
 * answers and retries the same request with `inputResponses` and the echoed `requestState`.
 */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  requestState?: string;
  _meta?: Meta;
}

/** What {@link inputRequired} takes: at least one of `inputRequests` and `requestState`. */
export interface InputRequiredInit {
  inputRequests?: InputRequests;
  /**
   * State to carry into the retry, as a string (read back as `ctx.requestState`; a Parley server
   * seals it, so the client can neither read nor change it). For values worked out between
   * questions, `ctx.remember` keeps them without a string of your own.
   */
  requestState?: string;
  _meta?: Meta;
}

/** The methods an {@link InputRequest} may have: elicitation, sampling and roots. */
export const INPUT_REQUEST_METHODS: readonly InputRequest['method'][] = Object.freeze([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);

const INPUT_REQUEST_METHOD_SET: ReadonlySet<unknown> = new Set(INPUT_REQUEST_METHODS);

/** True when `method` is one of {@link INPUT_REQUEST_METHODS}. */
export function isInputRequestMethod(method: unknown): method is InputRequest['method'] {
  return INPUT_REQUEST_METHOD_SET.has(method);
}

const INIT_KEYS = optionKeys<InputRequiredInit>()(['inputRequests', 'requestState', '_meta']);

/**
 * Build an {@link InputRequiredResult}.
 *
 * @throws {TypeError} when neither `inputRequests` (with at least one entry) nor `requestState`
 *   is given (such a result would ask the client for nothing and loop), when an entry is not an
 *   elicitation, sampling or roots request, or when given the removed `state` or any other key
 *   it does not take.
 */
export function inputRequired(init: InputRequiredInit): InputRequiredResult {
  const { inputRequests, requestState, _meta } = init;
  if ('state' in init) {
    throw new TypeError(
      'inputRequired: `state` was removed; carry a string in requestState (JSON.stringify your value and JSON.parse ctx.requestState), or keep values with ctx.remember.',
    );
  }
  checkOptionKeys('inputRequired', 'init', init, INIT_KEYS);
  const keys = inputRequests === undefined ? [] : Object.keys(inputRequests);
  if (keys.length === 0 && requestState === undefined) {
    throw new TypeError(
      'inputRequired: give inputRequests (at least one) or requestState; a result with neither asks the client for nothing.',
    );
  }
  for (const key of keys) {
    const method = (inputRequests?.[key] as { method?: unknown } | undefined)?.method;
    if (!isInputRequestMethod(method)) {
      throw new TypeError(
        `inputRequired: inputRequests[${JSON.stringify(key)}] must be an elicitation/create, sampling/createMessage or roots/list request, got ${JSON.stringify(method)}.`,
      );
    }
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw new TypeError('inputRequired: requestState must be a string.');
  }
  return {
    resultType: 'input_required',
    ...(keys.length > 0 ? { inputRequests } : {}),
    ...(requestState !== undefined ? { requestState } : {}),
    ...(_meta !== undefined ? { _meta } : {}),
  };
}

/** True when `value` is an `input_required` result rather than a final one. */
export function isInputRequiredResult(value: unknown): value is InputRequiredResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  );
}
