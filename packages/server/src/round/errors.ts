import {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  JSON_RPC_ERROR_CODES,
  JSON_RPC_ERRORS,
  ParleyError,
  SessionClosedError,
  ToolResult,
  UnsupportedCapabilityError,
  UrlElicitationRequiredError,
  toJsonRpcError,
  type Era,
  type HandlerKind,
  type JsonRpcErrorName,
  type JsonRpcErrorObject,
} from '@parley/core';

import { RoundFault } from '../flow/roundFault.ts';

/**
 * The one funnel every failure of a round goes through: it is reported (to `onError`) once,
 * then mapped to what the client gets, by the era of the connection and the kind of handler.
 *
 * | failure                                            | tool                     | prompt, resource |
 * | -------------------------------------------------- | ------------------------ | ---------------- |
 * | protocol-level Parley error (era, answer, state)   | JSON-RPC error           | JSON-RPC error   |
 * | a shared store is down (`store_unavailable`)       | `-32603`                 | `-32603`         |
 * | URL elicitation required, handshake era            | `-32042`                 | `-32042`         |
 * | missing client capability, modern era              | `-32021`                 | `-32021`         |
 * | missing client capability, handshake era           | `isError` result         | `-32600`         |
 * | a `WireError` or SDK `ProtocolError` (not found, …) | that error               | that error       |
 * | anything else the author's code threw              | `isError` result         | `-32603`         |
 *
 * MCP wants a tool's own failures as results the model can read; a 2026-only code never goes to
 * a handshake-era connection.
 */

/** How a round that did not produce its result ends. */
export type RoundFailure =
  { kind: 'error'; error: JsonRpcErrorObject } | { kind: 'tool-error'; result: ToolResult };

/** Where a failure happened, for the report and the mapping. */
export interface FailureSite {
  era: Era;
  kind: HandlerKind;
  method: string;
  target: string;
}

/**
 * A JSON-RPC error of the protocol's own (a name nothing is registered under…), raised by the
 * round without the SDK, which the modern path never loads.
 */
export class WireError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(name: JsonRpcErrorName, message: string, data?: unknown) {
    super(message);
    this.name = 'WireError';
    this.code = JSON_RPC_ERRORS[name].code;
    this.data = data;
  }
}

/** The brands the SDK stamps on its errors (a registry symbol, the same in every copy). */
const SDK_ERROR_BRANDS = Symbol.for('mcp.sdk.errorBrands');

/** A {@link WireError}, or the SDK's `ProtocolError` an author threw, known by its brand. */
export function isProtocolError(
  error: unknown,
): error is { code: number; message: string; data?: unknown } {
  if (error instanceof WireError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const brands = (error as { [SDK_ERROR_BRANDS]?: unknown })[SDK_ERROR_BRANDS];
  return brands instanceof Set && brands.has('mcp.ProtocolError');
}

/** Errors that are about the protocol, not the work: a JSON-RPC error even from a tool. */
function isProtocolLevel(error: unknown): error is ParleyError {
  return (
    error instanceof EraMismatchError ||
    error instanceof InvalidAnswerError ||
    error instanceof InvalidInputResponsesError ||
    error instanceof InvalidRequestStateError ||
    error instanceof RoundFault ||
    // A request to the client abandoned because its session went away (or the server drains):
    // the client is told as a JSON-RPC error, so it fails fast and may retry elsewhere.
    error instanceof SessionClosedError ||
    // No model can fix an outage by calling again, and where the store lives stays on the server.
    (error instanceof ParleyError && error.code === 'store_unavailable') ||
    // Handshake era: `-32042`, which the client answers by sending the user to the pages (on
    // the modern era the round turns it into URL asks first: see `urlElicitation.ts`).
    error instanceof UrlElicitationRequiredError
  );
}

/** The message an author's thrown value shows as. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sdkError(
  error: { code: number; message: string; data?: unknown },
  era: Era,
): JsonRpcErrorObject {
  // The retired -32002 (resource not found) is -32602 on the modern wire.
  const code =
    era === 'modern' && error.code === JSON_RPC_ERROR_CODES.resourceNotFound
      ? JSON_RPC_ERROR_CODES.invalidParams
      : error.code;
  return {
    code,
    message: error.message,
    ...(error.data !== undefined ? { data: error.data } : {}),
  };
}

/** Map a failure to what the client gets. Does not report it. */
export function mapFailure(error: unknown, site: FailureSite): RoundFailure {
  if (isProtocolError(error)) return { kind: 'error', error: sdkError(error, site.era) };
  if (isProtocolLevel(error))
    return { kind: 'error', error: toJsonRpcError(error, { era: site.era }) };
  const isTool = site.kind === 'tool';
  if (error instanceof UnsupportedCapabilityError) {
    if (site.era === 'handshake' && isTool) return { kind: 'tool-error', result: toolError(error) };
    return { kind: 'error', error: toJsonRpcError(error, { era: site.era }) };
  }
  if (isTool) return { kind: 'tool-error', result: toolError(error) };
  return {
    kind: 'error',
    error: { code: JSON_RPC_ERROR_CODES.internalError, message: errorText(error) },
  };
}

/** A tool failure as the result the model reads. */
export function toolError(error: unknown): ToolResult {
  return new ToolResult({ content: [{ type: 'text', text: errorText(error) }], isError: true });
}
