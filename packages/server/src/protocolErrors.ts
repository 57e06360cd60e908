import {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  ParleyError,
  UnsupportedCapabilityError,
  toJsonRpcError,
} from '@parley/core';
import { MissingRequiredClientCapabilityError, ProtocolError } from '@modelcontextprotocol/server';

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
    error instanceof InvalidRequestStateError
  );
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
