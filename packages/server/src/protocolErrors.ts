import {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  ParleyError,
  UnsupportedCapabilityError,
  UrlElicitationRequiredError,
  inputRequired,
  toJsonRpcError,
  type Era,
  type InputRequiredResult,
} from '@parley/core';
import { MissingRequiredClientCapabilityError, ProtocolError } from '@modelcontextprotocol/server';

import { elicitUrlRequest } from './asks.ts';

/**
 * Where Parley errors meet the SDK: the one place that turns them into the JSON-RPC errors the
 * SDK sends. The codes and messages themselves come from `toJsonRpcError` in core.
 */

/** The SDK error that carries `error` to the client as a JSON-RPC error. */
export function toProtocolError(error: ParleyError): ProtocolError {
  const wire = toJsonRpcError(error);
  if (error instanceof UnsupportedCapabilityError && error.data !== undefined) {
    // Parley's capability shape is structurally the SDK's; the SDK types JSON values more narrowly.
    const requiredCapabilities = error.data.requiredCapabilities as never;
    return new MissingRequiredClientCapabilityError({ requiredCapabilities }, wire.message);
  }
  return new ProtocolError(wire.code, wire.message, wire.data);
}

/**
 * True for the errors a handler can throw that are about the protocol, not about the work: they
 * go to the client as JSON-RPC errors even from a tool, instead of becoming an `isError` result.
 * (A missing client capability raised by `ctx.elicit()` stays a tool error the author can
 * catch, as the seeds describe.)
 */
export function isProtocolLevel(error: unknown): error is ParleyError {
  return (
    error instanceof EraMismatchError ||
    error instanceof InvalidAnswerError ||
    error instanceof InvalidInputResponsesError ||
    error instanceof InvalidRequestStateError ||
    // Handshake era: `-32042`, which the client answers by sending the user to the pages.
    error instanceof UrlElicitationRequiredError
  );
}

/**
 * A thrown {@link UrlElicitationRequiredError} on the modern era, where `-32042` no longer
 * exists: the same pages asked the 2026-07-28 way, as an `input_required` result with one URL
 * elicitation per page, keyed by its `elicitationId`. The handler runs again once the client
 * answers, so it checks whether the out-of-band step is done and throws again if not.
 * `undefined` for anything else, or on the handshake era (where it is the `-32042` error).
 */
export function urlElicitationAsk(error: unknown, era: Era): InputRequiredResult | undefined {
  if (era !== 'modern' || !(error instanceof UrlElicitationRequiredError)) return undefined;
  const pages = error.data?.elicitations ?? [];
  return inputRequired({
    inputRequests: Object.fromEntries(
      pages.map((page) => [page.elicitationId, elicitUrlRequest(page.message, page.url)]),
    ),
  });
}

/** A thrown value as the SDK error a prompt or resource read fails with. */
export function handlerFailure(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof ParleyError) return toProtocolError(error);
  return new ProtocolError(-32603, error instanceof Error ? error.message : String(error));
}

/** The text an author's thrown error shows as in an `isError` tool result. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
