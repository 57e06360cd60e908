import type { StandardSchemaLike } from './standardSchema.ts';
import { refusal } from './valueProblem.ts';

/**
 * Answers to a library's response type are validated by that library (`~standard.validate`), so
 * refinements, transforms and the library's own rules hold exactly, whichever library it is. This
 * module runs the validation and turns the first issue into an `InvalidAnswerError` naming the
 * field.
 *
 * A library's message may quote the answer (ArkType's `must be an email address (was "…")`,
 * valibot's `Invalid email: Received "…"`, an author's own message built from the input). The
 * message as written goes to the person who answered; the error's reason leaves the value out.
 * The issues themselves hold the answer, so they are not kept as the error's `cause`.
 */

interface IssueLike {
  readonly message?: unknown;
  /** ArkType's message without the path it starts with. */
  readonly problem?: unknown;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
  /** ArkType: the value, as its message quotes it after `was`. */
  readonly actual?: unknown;
  /** valibot: the value, as its message quotes it after `received`. */
  readonly received?: unknown;
}

const ASYNC =
  'CompiledResponseType.parse: the schema has an async refinement or transform; answers are ' +
  'parsed synchronously, so use synchronous checks only.';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * A text property of an issue. Libraries build messages lazily in getters, and a getter can
 * throw (ArkType 2.2's does for a field named `constructor`); the answer is still refused, with
 * a plainer reason, rather than the library's bug escaping as a crash.
 */
function textOf(
  issue: IssueLike | undefined,
  key: 'problem' | 'message' | 'actual' | 'received',
): string | undefined {
  try {
    const text: unknown = issue?.[key];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The issue's message. ArkType starts its messages with the path (`owner must be an email
 * address`) and also gives the rest alone as `problem`; the field is named separately, so the
 * path is left off. A custom message is kept as written.
 */
function reasonOf(issue: IssueLike | undefined): string {
  const message = textOf(issue, 'message');
  const problem = textOf(issue, 'problem');
  if (message === undefined) return problem ?? 'does not match the schema';
  return problem !== undefined && message.endsWith(` ${problem}`) ? problem : message;
}

/**
 * The reason without the value the library quotes at its end: ArkType's ` (was …)`, valibot's
 * `: Received …` and ` but received …`.
 */
function withoutQuotedValue(issue: IssueLike | undefined, reason: string): string {
  const actual = textOf(issue, 'actual');
  if (actual && reason.endsWith(` (was ${actual})`)) {
    return reason.slice(0, -` (was ${actual})`.length);
  }
  const received = textOf(issue, 'received');
  if (received) {
    for (const tail of [`: Received ${received}`, ` but received ${received}`]) {
      if (reason.endsWith(tail)) return reason.slice(0, -tail.length);
    }
  }
  return reason;
}

/** The strings and numbers of an answer, as they could appear in a message. */
function answerTexts(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string' && value !== '') into.push(value);
  else if (typeof value === 'number' && Number.isFinite(value)) into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) answerTexts(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) answerTexts(item, into);
  }
  return into;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `message` seems to quote one of `texts`: a number as a number of its own, a string
 * quoted, or as it is once it is long enough not to be an ordinary word of the message.
 */
function quotesAnswer(message: string, texts: readonly string[]): boolean {
  return texts.some((text) =>
    /^-?\d/.test(text)
      ? new RegExp(`(?<![\\w.])${escapeRegExp(text)}(?!\\w|\\.\\d)`).test(message)
      : message.includes(JSON.stringify(text)) ||
        message.includes(`'${text}'`) ||
        (text.length >= 3 && message.includes(text)),
  );
}

function segment(part: PropertyKey | { readonly key: PropertyKey }): string {
  const key = typeof part === 'object' && part !== null ? part.key : part;
  return typeof key === 'number' ? `item ${key}` : String(key);
}

/**
 * Validates `value` with `schema` and returns the library's output. `wrapped` says the value is
 * the `value` field's content rather than the whole answer, so issues name that field.
 */
export function validateAnswer(
  schema: StandardSchemaLike,
  value: unknown,
  wrapped: boolean,
): unknown {
  const result: unknown = schema['~standard'].validate(value);
  if (isThenable(result)) {
    // Nobody awaits it: keep a rejection from surfacing as an unhandled one.
    Promise.resolve(result).catch(() => undefined);
    throw new TypeError(ASYNC);
  }
  const { issues, value: output } = (result ?? {}) as {
    issues?: readonly IssueLike[];
    value?: unknown;
  };
  if (issues === undefined || issues === null) return output;
  const issue = issues[0];
  // Array.from, not .map: a library's path may be an Array subclass (ArkType's is) whose
  // species constructor reads a single number as a length.
  const path = Array.from(issue?.path ?? [], segment);
  const field = wrapped ? 'value' : path[0];
  const rest = wrapped ? path : path.slice(1);
  const at = rest.length > 0 ? ` (at ${rest.join('.')})` : '';
  const message = reasonOf(issue);
  let reason = withoutQuotedValue(issue, message);
  // An author's message may be built from the input; then only the field is named.
  if (quotesAnswer(reason, answerTexts(value))) reason = 'does not match the schema';
  throw refusal(field, { reason: reason + at, withAnswer: message + at });
}
