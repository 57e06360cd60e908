import type { CallInfo } from '@parley/client';
import type {
  CreateMessageResult,
  ElicitResult,
  ElicitationSchema,
  Era,
  InputRequest,
  Root,
} from '@parley/core';

/**
 * What a scripted user was asked, in order, and how it answered: the record tests assert on.
 * One entry per request, whichever era carried it (a pushed request or an `inputRequests`
 * entry).
 */
export interface Asked {
  kind: 'elicitation' | 'sampling' | 'roots';
  era: Era;
  /** The `inputRequests` key (modern era); `undefined` on the handshake era, which has none. */
  key: string | undefined;
  /** The call it was part of, when the client could tell. */
  call: CallInfo | undefined;
  /** The round of that call (1, 2, …); 0 when it could not be attributed. */
  round: number;
  /** Elicitation: its message. Sampling: the text of the last user message. */
  message: string | undefined;
  /** Elicitation: `'form'` or `'url'`. */
  mode: 'form' | 'url' | undefined;
  /** A form elicitation's requested schema. */
  schema: ElicitationSchema | undefined;
  /** A URL elicitation's URL. */
  url: string | undefined;
  /** The request as the server sent it. */
  request: InputRequest;
  /** What the user answered; `undefined` when nothing in the script answered it. */
  answer: ElicitResult | CreateMessageResult | Root[] | undefined;
}

/** One expected entry of {@link expectAsked}: only the fields given are compared. */
export interface ExpectedAsk {
  kind?: Asked['kind'];
  /** The exact message, or a pattern it must match. */
  message?: string | RegExp;
  key?: string;
  /** The call's tool/prompt name or resource URI. */
  call?: string;
  round?: number;
  mode?: 'form' | 'url';
  /** The form's field names, in the order the schema lists them. */
  fields?: string[];
  /** The requested schema, compared as JSON. */
  schema?: ElicitationSchema;
  url?: string | RegExp;
  /** What the user answered: `'accept'`, `'decline'` or `'cancel'` for an elicitation. */
  action?: 'accept' | 'decline' | 'cancel';
}

/** A description of what was asked, for failure messages: `#2 elicitation "Which date?"`. */
export function describeAsk(asked: Asked, index: number): string {
  const what = asked.message === undefined ? '' : ` ${JSON.stringify(asked.message)}`;
  const key = asked.key === undefined ? '' : ` (key '${asked.key}')`;
  const call = asked.call === undefined ? '' : ` in ${asked.call.method} '${asked.call.name}'`;
  return `#${index + 1} ${asked.kind}${what}${key}${call}`;
}

function matches(expected: string | RegExp, actual: string | undefined): boolean {
  if (actual === undefined) return false;
  return typeof expected === 'string' ? expected === actual : expected.test(actual);
}

/** JSON with keys sorted, so two schemas compare by content and not by key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

/** Why `asked` differs from `expected`, or `undefined` when it does not. */
function mismatch(asked: Asked, expected: ExpectedAsk): string | undefined {
  const show = (value: unknown): string =>
    value instanceof RegExp ? String(value) : JSON.stringify(value);
  const differs = (field: string, want: unknown, got: unknown): string =>
    `${field}: expected ${show(want)}, got ${show(got)}`;
  if (expected.kind !== undefined && expected.kind !== asked.kind) {
    return differs('kind', expected.kind, asked.kind);
  }
  if (expected.message !== undefined && !matches(expected.message, asked.message)) {
    return differs('message', expected.message, asked.message);
  }
  if (expected.key !== undefined && expected.key !== asked.key) {
    return differs('key', expected.key, asked.key);
  }
  if (expected.call !== undefined && expected.call !== asked.call?.name) {
    return differs('call', expected.call, asked.call?.name);
  }
  if (expected.round !== undefined && expected.round !== asked.round) {
    return differs('round', expected.round, asked.round);
  }
  if (expected.mode !== undefined && expected.mode !== asked.mode) {
    return differs('mode', expected.mode, asked.mode);
  }
  if (expected.fields !== undefined) {
    const fields = Object.keys(asked.schema?.properties ?? {});
    if (canonical(fields) !== canonical(expected.fields)) {
      return differs('fields', expected.fields, fields);
    }
  }
  if (expected.schema !== undefined && canonical(expected.schema) !== canonical(asked.schema)) {
    return differs('schema', expected.schema, asked.schema);
  }
  if (expected.url !== undefined && !matches(expected.url, asked.url)) {
    return differs('url', expected.url, asked.url);
  }
  if (expected.action !== undefined) {
    const action = (asked.answer as { action?: unknown } | undefined)?.action;
    if (action !== expected.action) return differs('action', expected.action, action);
  }
  return undefined;
}

/** An assertion about what a scripted user was asked failed. */
export class AskedMismatchError extends Error {
  override readonly name = 'AskedMismatchError';
}

/**
 * Assert that exactly `expected` was asked, in this order. Each entry compares only the fields
 * it gives.
 *
 * @throws {AskedMismatchError} naming the first entry that differs, and listing everything asked.
 */
export function expectAsked(asked: readonly Asked[], expected: readonly ExpectedAsk[]): void {
  const listing = (): string =>
    asked.length === 0
      ? 'nothing was asked'
      : `asked:\n${asked.map((entry, index) => `  ${describeAsk(entry, index)}`).join('\n')}`;
  for (const [index, want] of expected.entries()) {
    const got = asked[index];
    if (got === undefined) {
      throw new AskedMismatchError(
        `expected ${expected.length} questions, but only ${asked.length} were asked; ${listing()}`,
      );
    }
    const why = mismatch(got, want);
    if (why !== undefined) {
      throw new AskedMismatchError(`${describeAsk(got, index)}: ${why}; ${listing()}`);
    }
  }
  if (asked.length > expected.length) {
    throw new AskedMismatchError(
      `expected ${expected.length} questions, but ${asked.length} were asked; ${listing()}`,
    );
  }
}
