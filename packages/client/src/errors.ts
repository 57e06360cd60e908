import {
  HANDSHAKE_PROTOCOL_VERSIONS,
  askKeyOf,
  JSON_RPC_ERROR_CODES,
  MODERN_PROTOCOL_VERSION,
  ParleyError,
  UnsupportedProtocolVersionError,
  fromJsonRpcError,
} from '@parley/core';
import { ProtocolError } from '@modelcontextprotocol/client';

import type { CallInfo } from './types.ts';

/** Which of the client's handlers an {@link InputHandlerError} is about. */
export type InputHandlerName = 'elicitationHandler' | 'samplingHandler' | 'roots';

/** What an {@link InputHandlerError} carries. */
export interface InputHandlerErrorData {
  handler: InputHandlerName;
  /** The call the request belonged to, when it could be attributed to one. */
  call: CallInfo | undefined;
  round: number;
  /** The `inputRequests` key (modern) or the pushed request's id (handshake). */
  key: string;
  /**
   * How the message names the ask: its key in quotes (modern, or handshake-era when the server
   * sends it), else what the server asked (the elicitation's message, or the method), never a
   * JSON-RPC id.
   */
  ask: string;
}

/** The longest question an error quotes; the rest is elided. */
const MAX_QUOTED = 80;

/**
 * How errors name an ask. A key is chosen by the server's author and says what is asked: every
 * modern ask has one, and a handshake-era request has one when the server sends it in `_meta`
 * (Parley's does). Otherwise a handshake-era request has only its id, the transport's counter,
 * meaningless to a reader, so it is named by its message (an elicitation) or its method.
 */
export function askLabel(
  request: { method: string; params?: unknown },
  ctx: { era: string; key: string },
): string {
  if (ctx.era === 'modern' || askKeyOf(request.params) === ctx.key) return `'${ctx.key}'`;
  const message = (request.params as { message?: unknown } | undefined)?.message;
  if (typeof message !== 'string' || message.trim() === '') return request.method;
  const quoted = message.length > MAX_QUOTED ? `${message.slice(0, MAX_QUOTED - 1)}…` : message;
  return JSON.stringify(quoted);
}

/**
 * A handler threw, or returned something that is not an answer, while answering a server's
 * request. The flow is stopped (no retry, and on handshake connections the server gets an error
 * for its request); what the handler threw is the `cause`.
 */
export class InputHandlerError extends ParleyError<InputHandlerErrorData> {
  static override readonly brand: string = '@parley/client:InputHandlerError';

  constructor(data: InputHandlerErrorData, cause: unknown) {
    const where =
      data.call === undefined
        ? ''
        : ` for ${data.call.method} '${data.call.name}' (round ${data.round})`;
    const why = cause instanceof Error ? cause.message : String(cause);
    super('internal', `${data.handler} failed to answer ${data.ask}${where}: ${why}`, {
      data,
      cause,
    });
  }
}

/** What an {@link UnreadableSchemaError} carries. */
export interface UnreadableSchemaErrorData {
  /** The server's name (its `serverInfo.name`, else the target). */
  server: string;
  /** The field that cannot be read; `undefined` when the schema as a whole cannot. */
  field: string | undefined;
  reason: string;
  call: CallInfo | undefined;
  round: number;
  key: string;
  /** How the message names the ask (see {@link InputHandlerErrorData.ask}). */
  ask: string;
}

/**
 * A server asked with a `requestedSchema` the client cannot read one way only (a field with no
 * type and nothing to tell it, options that are not strings, a nested object…). The question is
 * not put to the handler; the call stops, and a handshake-era server gets a `-32602` answer to
 * its request. Schemas that are near the spec in a way with one reading are read instead, with
 * a warning (`onWarning`).
 */
export class UnreadableSchemaError extends ParleyError<UnreadableSchemaErrorData> {
  static override readonly brand: string = '@parley/client:UnreadableSchemaError';

  constructor(data: UnreadableSchemaErrorData) {
    const what = data.field === undefined ? 'it' : `field "${data.field}"`;
    super(
      'internal',
      `Server "${data.server}" sent a requestedSchema the client cannot read, so ${data.ask} was not answered: ${what} ${data.reason}.`,
      { data },
    );
  }
}

/**
 * `mode: 'modern'` met a server that speaks only the handshake era. Still an
 * {@link UnsupportedProtocolVersionError} (same `code` and `instanceof`), with a message that
 * says what to do; `data.supported` lists what the server offered, when it said.
 */
class ModernUnavailableError extends UnsupportedProtocolVersionError {
  constructor(target: string, supported: string[], cause: unknown) {
    super({ supported, requested: MODERN_PROTOCOL_VERSION }, { cause });
    const offered =
      supported.length > 0
        ? `it offers ${supported.join(', ')}`
        : 'it speaks the handshake era only';
    this.message =
      `Client: mode 'modern' needs a server that speaks MCP ${MODERN_PROTOCOL_VERSION}, but ` +
      `${target} does not (${offered}). Use mode 'auto' to fall back to the handshake era.`;
  }
}

/** The typed error for a modern-only client facing a handshake-only server. */
export function modernUnavailable(
  target: string,
  supported: string[],
  cause: unknown,
): UnsupportedProtocolVersionError {
  return new ModernUnavailableError(target, supported, cause);
}

/**
 * `mode: 'handshake'` met a server that speaks only the modern protocol: it refused
 * `initialize` with `-32022`. The mirror of `mode: 'modern'`'s error; `data` is what the
 * server said (`supported`: its versions, `requested`: what the client asked for).
 */
class HandshakeUnavailableError extends UnsupportedProtocolVersionError {
  constructor(target: string, data: { supported: string[]; requested: string }, cause: unknown) {
    super(data, { cause });
    const offered = data.supported.length > 0 ? data.supported.join(', ') : 'no version it named';
    this.message =
      `Client: mode 'handshake' needs a server that speaks the handshake era (MCP ` +
      `${HANDSHAKE_PROTOCOL_VERSIONS[0]} or earlier), but ${target} does not (it offers ` +
      `${offered}; the client asked for ${data.requested}). Use mode 'auto' or 'modern' to ` +
      `speak the modern protocol.`;
  }
}

/** The typed error for a handshake-only client facing a modern-only server. */
export function handshakeUnavailable(
  target: string,
  data: { supported: string[]; requested: string },
  cause: unknown,
): UnsupportedProtocolVersionError {
  return new HandshakeUnavailableError(target, data, cause);
}

/** What a {@link ConnectionFailedError} carries. */
export interface ConnectionFailedErrorData {
  /** The server's URL. */
  url: string;
  /** The HTTP status of the endpoint's answer; `undefined` when nothing answered. */
  status: number | undefined;
  statusText: string | undefined;
  /** The media type of an answer that was not MCP (an HTML page, plain text). */
  contentType: string | undefined;
}

/**
 * `connect()` to an HTTP URL where no MCP server answers: nothing listens there, the host does
 * not exist, or the URL answers a page that is not MCP (404, 405, HTML). The message is the
 * sentence `explainConnectionFailure` says (what to check); the transport's error is the
 * `cause`. Failures the host words itself (a timeout, an authorization) are not wrapped.
 */
export class ConnectionFailedError extends ParleyError<ConnectionFailedErrorData> {
  static override readonly brand: string = '@parley/client:ConnectionFailedError';

  constructor(message: string, data: ConnectionFailedErrorData, cause: unknown) {
    super('internal', message, { data, cause });
  }
}

/** `data` of a `-32022` error, when `error` is one (or an HTTP answer whose body is one). */
export function unsupportedVersionData(
  error: unknown,
): { supported: string[]; requested: string } | undefined {
  const rpc = error instanceof ProtocolError ? error : jsonRpcErrorInBody(error);
  if (rpc === undefined) return undefined;
  if (rpc.code !== JSON_RPC_ERROR_CODES.unsupportedProtocolVersion) return undefined;
  const parsed = fromJsonRpcError({ code: rpc.code, message: rpc.message, data: rpc.data });
  return parsed instanceof UnsupportedProtocolVersionError ? parsed.data : undefined;
}

/**
 * The JSON-RPC error in the body of an HTTP answer the SDK refused (`SdkHttpError`, whose
 * `data.text` is the body): a modern-only server refuses `initialize` with `400` and `-32022`.
 */
function jsonRpcErrorInBody(
  error: unknown,
): { code: number; message: string; data: unknown } | undefined {
  const text = (error as { data?: { text?: unknown } } | null)?.data?.text;
  if (typeof text !== 'string') return undefined;
  try {
    const body = JSON.parse(text) as {
      error?: { code?: unknown; message?: unknown; data?: unknown };
    };
    const rpc = body.error;
    if (typeof rpc?.code !== 'number' || typeof rpc.message !== 'string') return undefined;
    return { code: rpc.code, message: rpc.message, data: rpc.data };
  } catch {
    return undefined;
  }
}

/**
 * The typed Parley error a server's JSON-RPC error stands for (`-32021` → capability,
 * `-32022` → version, an invalid `requestState`), or the error itself when there is none.
 */
export function toParleyError(error: unknown): unknown {
  if (!(error instanceof ProtocolError)) return error;
  return fromJsonRpcError({ code: error.code, message: error.message, data: error.data }) ?? error;
}
