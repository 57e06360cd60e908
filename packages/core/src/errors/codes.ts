import type { Era } from '../protocolVersions.ts';

/**
 * Every JSON-RPC error Parley sends or reads, by name: its code, the HTTP status a reply carrying
 * it travels with on Parley's HTTP endpoint, and when it is sent. The one place a code is written
 * as a number (a repository test refuses one anywhere else in `packages/*\/src`), and the source
 * of the docs' error page (a test compares the two).
 *
 * A code may have several rows: the endpoint's own refusals of an HTTP request share `-32600` and
 * `-32000` across several statuses, as the SDK's transports do. A row marked `inBand` is the
 * answer of a request that was served, rather than a refusal of it; a modern reply whose error
 * came back from the work (a round, a list, a task method) gets the status of its code's in-band
 * row (see {@link httpStatusOfAnswer}). On a handshake-era session, every error of a served
 * request travels inside the call's `200` (a JSON body or its SSE stream), whatever the row says.
 */

/** A JSON-RPC `error` member. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** One kind of JSON-RPC error Parley sends or reads. */
export interface JsonRpcErrorKind {
  /** The JSON-RPC `error.code`. */
  readonly code: number;
  /** The HTTP status of a reply carrying it on Parley's HTTP endpoint. */
  readonly httpStatus: number;
  /**
   * The answer of a request that was served, not a refusal before it ran: the status of a modern
   * reply whose error came from the work, looked up by its code.
   */
  readonly inBand?: true;
  /** The only era it is sent on (a modern-only code never goes to a handshake-era connection). */
  readonly era?: Era;
  /** When Parley sends it (and what it means to a client that reads it). */
  readonly when: string;
}

export const JSON_RPC_ERRORS = {
  parseError: {
    code: -32700,
    httpStatus: 400,
    when: 'The body is empty or not JSON, or a stdio line is not JSON.',
  },
  invalidRequest: {
    code: -32600,
    httpStatus: 400,
    when: 'The message is not a JSON-RPC 2.0 request Parley can take: not JSON-RPC, an id that is not a string or a safe integer, params that are not an object, an empty, malformed or oversized batch (or a modern request in one), a handshake-era request without a session, `initialize` twice or in a batch, a request that is not valid HTTP/1.1 or lacks its Host header, a stdio line over the limit.',
  },
  eraMismatch: {
    code: -32600,
    httpStatus: 200,
    inBand: true,
    when: "A handler asked for input the other era's way (`EraMismatchError`): an `InputRequiredResult` on a handshake-era connection, or `ctx.elicit()`, `ctx.elicitUrl()`, `ctx.sample()` or `ctx.listRoots()` on a modern request.",
  },
  capabilityNotDeclared: {
    code: -32600,
    httpStatus: 200,
    inBand: true,
    era: 'handshake',
    when: 'A prompt or resource needs a client capability the client did not declare at `initialize` (`UnsupportedCapabilityError`; a tool gets an `isError` result instead). `data.requiredCapabilities` names it; the modern era sends `-32021`.',
  },
  requestTooLarge: {
    code: -32600,
    httpStatus: 413,
    when: "The body is over the endpoint's `maxBodyBytes` (refused before it is sent when the client asks with `Expect: 100-continue`).",
  },
  unsupportedMediaType: {
    code: -32600,
    httpStatus: 415,
    when: 'A POST whose `Content-Type` is not `application/json`.',
  },
  notAcceptable: {
    code: -32600,
    httpStatus: 406,
    when: 'A POST whose `Accept` header allows neither `application/json` nor `text/event-stream`.',
  },
  requestTimeout: {
    code: -32600,
    httpStatus: 408,
    when: "The request's headers or body did not arrive within the listener's timeouts.",
  },
  headersTooLarge: {
    code: -32600,
    httpStatus: 431,
    when: "The request headers are over Node's limit.",
  },
  methodNotFound: {
    code: -32601,
    httpStatus: 404,
    when: "A modern request for a method this server does not serve, or a request for a path other than the endpoint's. (A handshake-era session answers an unknown method in its `200`.)",
  },
  invalidParams: {
    code: -32602,
    httpStatus: 200,
    inBand: true,
    when: 'The params of a served request are wrong: an unknown tool, prompt, resource or task, arguments that fail the schema or the size limits, an answer that does not fit its ask (`data.reason: invalid_answer`), an invalid or expired `requestState` (`invalid_request_state`), malformed `inputResponses` (`invalid_input_responses`), a cursor that is not a string.',
  },
  malformedParams: {
    code: -32602,
    httpStatus: 400,
    when: 'Refused before anything runs: a modern request without a valid `_meta` envelope (`data.envelope` says what is wrong), or a malformed `initialize`.',
  },
  internalError: {
    code: -32603,
    httpStatus: 200,
    inBand: true,
    when: "The server could not finish a served request: what a prompt's or resource's handler threw, a shared store that is down, a round over its state budget or its rounds, a task that failed or was cancelled, too many notification streams. Only a Parley error meant for the client keeps its message. A Parley client answers a server's request with it when its handler fails.",
  },
  endpointFailure: {
    code: -32603,
    httpStatus: 500,
    when: 'A bug in the HTTP endpoint itself (reported to `onError`).',
  },
  badRequest: {
    code: -32000,
    httpStatus: 400,
    when: "A handshake-era session refuses the request: anything but `initialize` first, a `Last-Event-ID` that names no event or cannot be replayed, an `MCP-Protocol-Version` this server does not support (as the SDK's transport does).",
  },
  forbidden: {
    code: -32000,
    httpStatus: 403,
    when: 'The `Host` header is missing or names a host not in `allowedHosts`, or the `Origin` is not allowed.',
  },
  methodNotAllowed: {
    code: -32000,
    httpStatus: 405,
    when: 'An HTTP method the endpoint does not serve (`GET` and `DELETE` need sessions; `CONNECT` never); the `Allow` header says which it does.',
  },
  streamNotAcceptable: {
    code: -32000,
    httpStatus: 406,
    when: "A session's `GET` does not accept `text/event-stream`, or its POST does not accept both `application/json` and `text/event-stream`.",
  },
  conflict: {
    code: -32000,
    httpStatus: 409,
    when: "A session's stream is already being read: its `GET` stream, or the one a `Last-Event-ID` resumes.",
  },
  serviceUnavailable: {
    code: -32000,
    httpStatus: 503,
    when: 'The server is draining, or holds as many sessions, connections or request bodies as it may; `Retry-After` says when to try again.',
  },
  tooManyRequests: {
    code: -32000,
    httpStatus: 429,
    era: 'handshake',
    when: 'An `initialize` from a client (its principal, else its network address) that already holds `maxSessionsPerClient` sessions, none of them unused long enough to close for room; `Retry-After` says when to try again, and a `DELETE` of one of its sessions makes room at once.',
  },
  sessionNotFound: {
    code: -32001,
    httpStatus: 404,
    era: 'handshake',
    when: 'The `Mcp-Session-Id` names no open session of this principal (it closed, expired, or never was).',
  },
  resourceNotFound: {
    code: -32002,
    httpStatus: 200,
    inBand: true,
    era: 'handshake',
    when: "A handler threw the SDK's resource-not-found error, which MCP retired: it goes out as it is on the handshake era, as `-32602` on the modern one.",
  },
  headerMismatch: {
    code: -32020,
    httpStatus: 400,
    inBand: true,
    era: 'modern',
    when: "An HTTP header that mirrors the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, a tool's `Mcp-Param-*`) is missing or disagrees with it.",
  },
  missingRequiredClientCapability: {
    code: -32021,
    httpStatus: 400,
    inBand: true,
    era: 'modern',
    when: 'The request needs a client capability its `_meta` did not declare (`UnsupportedCapabilityError`): an ask the client cannot answer, a tool that runs only as a task, task notifications. `data.requiredCapabilities` names it.',
  },
  unsupportedProtocolVersion: {
    code: -32022,
    httpStatus: 400,
    era: 'modern',
    when: 'The protocol version in `_meta` is not one this server speaks (`UnsupportedProtocolVersionError`); `data.supported` lists those it does, and a client retries with one both speak.',
  },
  urlElicitationRequired: {
    code: -32042,
    httpStatus: 200,
    inBand: true,
    era: 'handshake',
    when: 'A handler threw `UrlElicitationRequiredError`: the user must complete the pages in `data.elicitations` first. (The modern era sends them as URL asks.)',
  },
} as const;
/** The rows, checked against {@link JsonRpcErrorKind} (a literal table cannot say `satisfies`). */
const KINDS: Readonly<Record<string, JsonRpcErrorKind>> = JSON_RPC_ERRORS;
Object.freeze(JSON_RPC_ERRORS);
for (const kind of Object.values(KINDS)) Object.freeze(kind);

/** The name of a row of {@link JSON_RPC_ERRORS}. */
export type JsonRpcErrorName = keyof typeof JSON_RPC_ERRORS;

/** The rows sent only on the modern era: a handshake-era connection gets another instead. */
export type ModernOnlyErrorName = {
  [K in JsonRpcErrorName]: (typeof JSON_RPC_ERRORS)[K] extends { era: 'modern' } ? K : never;
}[JsonRpcErrorName];

/** The code of every row of {@link JSON_RPC_ERRORS}, by its name. */
export const JSON_RPC_ERROR_CODES: {
  readonly [K in JsonRpcErrorName]: (typeof JSON_RPC_ERRORS)[K]['code'];
} = Object.freeze(
  Object.fromEntries(Object.entries(KINDS).map(([name, kind]) => [name, kind.code])),
) as { readonly [K in JsonRpcErrorName]: (typeof JSON_RPC_ERRORS)[K]['code'] };

/** The JSON-RPC `error` member of the row `name`. */
export function jsonRpcError(
  name: JsonRpcErrorName,
  message: string,
  data?: unknown,
): JsonRpcErrorObject {
  return {
    code: JSON_RPC_ERRORS[name].code,
    message,
    ...(data !== undefined ? { data } : {}),
  };
}

const ANSWER_STATUS: ReadonlyMap<number, number> = new Map(
  Object.values(KINDS)
    .filter((kind) => kind.inBand === true)
    .map((kind) => [kind.code, kind.httpStatus]),
);

/**
 * The HTTP status of a modern reply whose error is the answer of a served request (a round, a
 * list, a task method): the status of the code's in-band row, `200` for a code without one (an
 * author's own, relayed as it is).
 */
export function httpStatusOfAnswer(code: number): number {
  return ANSWER_STATUS.get(code) ?? 200;
}
