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
  /**
   * Server side only: state as a JSON value (`inputRequired({ state })`), which a Parley server
   * seals into `requestState` and hands back, parsed, as `ctx.state` on the next round. Never on
   * the wire.
   */
  state?: unknown;
  _meta?: Meta;
}

/** What {@link inputRequired} takes: at least one of `inputRequests` and the state. */
export interface InputRequiredInit {
  inputRequests?: InputRequests;
  /** State to carry into the retry, as a string (read back as `ctx.requestState`). */
  requestState?: string;
  /**
   * State to carry into the retry, as any JSON value (read back, parsed, as `ctx.state`; typed
   * and validated when the handler declares a `stateSchema`). Give this or `requestState`.
   */
  state?: unknown;
  _meta?: Meta;
}

const INPUT_REQUEST_METHODS: ReadonlySet<string> = new Set([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);

/**
 * Build an {@link InputRequiredResult}.
 *
 * @throws {TypeError} when neither `inputRequests` (with at least one entry) nor state is given
 *   (such a result would ask the client for nothing and loop), when both `requestState` and
 *   `state` are, when `state` is not JSON, or when an entry is not an elicitation, sampling or
 *   roots request.
 */
export function inputRequired(init: InputRequiredInit): InputRequiredResult {
  const { inputRequests, requestState, state, _meta } = init;
  const keys = inputRequests === undefined ? [] : Object.keys(inputRequests);
  if (keys.length === 0 && requestState === undefined && state === undefined) {
    throw new TypeError(
      'inputRequired: give inputRequests (at least one), requestState or state; a result with none asks the client for nothing.',
    );
  }
  if (requestState !== undefined && state !== undefined) {
    throw new TypeError(
      'inputRequired: give requestState (a string) or state (a JSON value), not both.',
    );
  }
  if (state !== undefined) assertJson(state);
  for (const key of keys) {
    const method = (inputRequests?.[key] as { method?: unknown } | undefined)?.method;
    if (typeof method !== 'string' || !INPUT_REQUEST_METHODS.has(method)) {
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
    ...(state !== undefined ? { state } : {}),
    ...(_meta !== undefined ? { _meta } : {}),
  };
}

/** `state` must survive `JSON.stringify` → `JSON.parse` unchanged, since that is how it travels. */
function assertJson(value: unknown, path = 'state'): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (Number.isFinite(value)) return;
      break;
    case 'object':
      if (value === null) return;
      if (Array.isArray(value)) {
        value.forEach((item, index) => assertJson(item, `${path}[${index}]`));
        return;
      }
      if (
        Object.getPrototypeOf(value) === Object.prototype ||
        Object.getPrototypeOf(value) === null
      ) {
        for (const [key, item] of Object.entries(value)) assertJson(item, `${path}.${key}`);
        return;
      }
      throw new TypeError(
        `inputRequired: ${path} is a ${value.constructor?.name ?? 'class instance'}, not plain JSON; convert it (a Date to an ISO string, a Map to an object).`,
      );
    default:
      break;
  }
  throw new TypeError(`inputRequired: ${path} is ${String(value)}, which JSON cannot carry.`);
}

/** True when `value` is an `input_required` result rather than a final one. */
export function isInputRequiredResult(value: unknown): value is InputRequiredResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resultType?: unknown }).resultType === 'input_required'
  );
}
