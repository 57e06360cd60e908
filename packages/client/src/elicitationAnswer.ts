import {
  AcceptedElicitation,
  isRecord,
  type ElicitFormParams,
  type ElicitResult,
  type ElicitUrlParams,
  type ElicitationSchema,
} from '@parley/core';
import { createResponseType, type AcceptedResponse, type ResponseBuilder } from '@parley/schema';

import type { ElicitationHandler, InputContext } from './types.ts';

/**
 * Turning whatever an elicitation handler returned into a checked `ElicitResult`: the builder's
 * output, plain field values, a bare value for a one-field form, or an explicit action.
 */

const EMPTY_FORM: ElicitationSchema = { type: 'object', properties: {} };
const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);
const RESULT_KEYS: ReadonlySet<string> = new Set(['action', 'content', '_meta']);

/** Results our builders made, so `{ action: 'accept', content: responseType(…) }` unwraps. */
const built = new WeakSet<object>();

/**
 * An explicit result rather than field values. A form whose fields are literally `action` and
 * `content` cannot be told apart; such a handler must return `responseType(…)`.
 */
function isExplicitResult(value: Record<string, unknown>): boolean {
  return ACTIONS.has(value.action) && Object.keys(value).every((key) => RESULT_KEYS.has(key));
}

/** The builder a handler gets: `@parley/schema`'s, remembering what it built. */
export function responseTypeFor(params: ElicitFormParams | ElicitUrlParams): ResponseBuilder {
  const inner = createResponseType(params.mode === 'url' ? EMPTY_FORM : params.requestedSchema);
  const builder = (values: Parameters<ResponseBuilder>[0]): AcceptedResponse => {
    const response = inner(values);
    built.add(response);
    return response;
  };
  return Object.assign(builder, {
    requestedSchema: inner.requestedSchema,
    fields: inner.fields,
    validate: inner.validate,
  });
}

function normalise(
  answer: unknown,
  responseType: ResponseBuilder,
  mode: 'form' | 'url',
): ElicitResult {
  if (answer === undefined || answer === null) {
    throw new TypeError(
      `elicitationHandler returned ${String(answer)}; return responseType(values), the field values, or { action: 'accept' | 'decline' | 'cancel' }.`,
    );
  }
  if (answer instanceof AcceptedElicitation) {
    return mode === 'url' ? { action: 'accept' } : responseType(answer.data as never);
  }
  if (isRecord(answer) && (built.has(answer) || isExplicitResult(answer))) {
    const action = answer.action as ElicitResult['action'];
    if (action !== 'accept') return { action };
    if (mode === 'url') return { action: 'accept' };
    const content = answer.content;
    if (isRecord(content) && built.has(content)) {
      return { action: 'accept', content: (content as unknown as AcceptedResponse).content };
    }
    if (content !== undefined && !isRecord(content)) {
      throw new TypeError('elicitationHandler: content of an accepted answer must be an object.');
    }
    return { action: 'accept', content: responseType.validate(content ?? {}) };
  }
  if (mode === 'url') {
    throw new TypeError(
      "elicitationHandler: answer a URL-mode request with { action: 'accept' | 'decline' | 'cancel' }.",
    );
  }
  return responseType(answer as Parameters<ResponseBuilder>[0]);
}

/** Ask the handler and return its checked answer (defaults applied, unknown fields refused). */
export async function answerElicitation(
  handler: ElicitationHandler,
  params: ElicitFormParams | ElicitUrlParams,
  ctx: InputContext,
): Promise<ElicitResult> {
  const mode = params.mode === 'url' ? 'url' : 'form';
  const responseType = responseTypeFor(params);
  const answer = await handler(params.message, responseType, params, ctx);
  return normalise(answer, responseType, mode);
}
