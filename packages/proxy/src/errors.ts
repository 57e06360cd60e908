import { JSON_RPC_ERROR_CODES, ParleyError } from '@parley/core';
import { ProtocolError } from '@modelcontextprotocol/client';

/**
 * What the proxy tells the downstream client when a call fails: the upstream's own JSON-RPC
 * error (same code, message and data, even where the proxy's `Client` had read it into a typed
 * Parley error), or an error of the proxy's own about the calls it holds.
 */

function isProtocolError(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}

/** The upstream's error as it was on the wire, when it was one; otherwise `error` itself. */
export function upstreamError(error: unknown): unknown {
  if (isProtocolError(error)) return new ProtocolError(error.code, error.message, error.data);
  if (error instanceof ParleyError && isProtocolError(error.cause)) {
    return new ProtocolError(error.cause.code, error.cause.message, error.cause.data);
  }
  return error;
}

/**
 * A round came back for a held call this proxy does not hold: it restarted (and the sealed
 * state still opened, with a shared key ring), or the call timed out waiting for the client.
 * `-32602` with `invalid_request_state`, so a Parley client raises `InvalidRequestStateError`.
 */
export function heldCallGone(): ProtocolError {
  return new ProtocolError(
    JSON_RPC_ERROR_CODES.invalidParams,
    'The proxy no longer holds the upstream call this requestState belongs to (the proxy ' +
      'restarted, or the call timed out waiting for an answer); start the call again.',
    { reason: 'invalid_request_state' },
  );
}

/** Why a held call was given up after waiting `timeoutMs` for the client's next round. */
export function heldCallTimedOut(timeoutMs: number): ProtocolError {
  return new ProtocolError(
    JSON_RPC_ERROR_CODES.requestTimeout,
    `The proxy gave up the upstream call after waiting ${timeoutMs} ms for the client's answers.`,
  );
}
