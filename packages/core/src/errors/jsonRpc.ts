import { clientFeatureOf } from '../capabilities.ts';
import type { ClientCapabilities } from '../wireTypes.ts';
import type { Era } from '../protocolVersions.ts';
import {
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  UnsupportedCapabilityError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
  type RequiredUrlElicitation,
} from './errorClasses.ts';
import { ParleyError, type ParleyErrorCode } from './parleyError.ts';

/** The JSON-RPC error codes MCP uses, by name. */
export const JSON_RPC_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Modern era: an HTTP header disagrees with the body, or is missing. */
  headerMismatch: -32020,
  /** Modern era: the request needs a client capability it did not declare. */
  missingRequiredClientCapability: -32021,
  /** Modern era: the requested protocol version is not supported. */
  unsupportedProtocolVersion: -32022,
  /**
   * Handshake era (2025-11-25) only: the request needs URL elicitations completed first. Retired
   * at 2026-07-28, where the same pages travel as URL asks of an `input_required` result.
   */
  urlElicitationRequired: -32042,
} as const;
Object.freeze(JSON_RPC_ERROR_CODES);

/** A JSON-RPC `error` member. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The one message every invalid `requestState` gets on the wire, whatever the reason. */
export const INVALID_REQUEST_STATE_MESSAGE = 'Invalid or expired requestState';

const CODE_BY_PARLEY_CODE: Record<ParleyErrorCode, number> = {
  era_mismatch: JSON_RPC_ERROR_CODES.internalError,
  unsupported_capability: JSON_RPC_ERROR_CODES.missingRequiredClientCapability,
  rounds_exceeded: JSON_RPC_ERROR_CODES.internalError,
  invalid_answer: JSON_RPC_ERROR_CODES.invalidParams,
  invalid_request_state: JSON_RPC_ERROR_CODES.invalidParams,
  invalid_input_responses: JSON_RPC_ERROR_CODES.invalidParams,
  unsupported_protocol_version: JSON_RPC_ERROR_CODES.unsupportedProtocolVersion,
  url_elicitation_required: JSON_RPC_ERROR_CODES.urlElicitationRequired,
  session_closed: JSON_RPC_ERROR_CODES.internalError,
  store_unavailable: JSON_RPC_ERROR_CODES.internalError,
  task_cancelled: JSON_RPC_ERROR_CODES.internalError,
  internal: JSON_RPC_ERROR_CODES.internalError,
};

/** What shapes the JSON-RPC error: the era of the connection it is sent on. */
export interface ToJsonRpcErrorOptions {
  /**
   * `'handshake'`: codes that exist only at MCP 2026-07-28 are never used (a missing client
   * capability is then `-32603`, with the same message and data). Default `'modern'`.
   */
  era?: Era;
}

/**
 * The JSON-RPC error for anything thrown while serving a request, in one place.
 *
 * Parley errors keep their message and get their code; an invalid `requestState` always gets
 * the same message and data, whatever went wrong, so the client learns nothing it could use to
 * probe the sealing. An invalid answer carries its key and field in `data`, so the client can
 * rebuild the typed error. Anything else is an internal error whose details stay on the server.
 */
export function toJsonRpcError(
  error: unknown,
  options: ToJsonRpcErrorOptions = {},
): JsonRpcErrorObject {
  if (!(error instanceof ParleyError)) {
    return { code: JSON_RPC_ERROR_CODES.internalError, message: 'Internal error' };
  }
  const code = CODE_BY_PARLEY_CODE[error.code];
  // Where a shared store lives (hosts, ports) is the operator's business, not the client's.
  if (error.code === 'store_unavailable') return { code, message: 'Internal error' };
  if (error instanceof InvalidRequestStateError) {
    return {
      code,
      message: INVALID_REQUEST_STATE_MESSAGE,
      data: { reason: 'invalid_request_state' },
    };
  }
  if (error instanceof UnsupportedCapabilityError) {
    return {
      code: options.era === 'handshake' ? JSON_RPC_ERROR_CODES.internalError : code,
      message: error.message,
      data: { requiredCapabilities: error.data?.requiredCapabilities },
    };
  }
  if (error instanceof InvalidAnswerError && error.data !== undefined) {
    const { key, field, reason } = error.data;
    return {
      code,
      message: error.message,
      data: {
        reason: 'invalid_answer',
        ...(key !== undefined ? { key } : {}),
        ...(field !== undefined ? { field } : {}),
        problem: reason,
      },
    };
  }
  if (error instanceof InvalidInputResponsesError && error.data !== undefined) {
    const { key, reason } = error.data;
    return {
      code,
      message: error.message,
      data: {
        reason: 'invalid_input_responses',
        ...(key !== undefined ? { key } : {}),
        problem: reason,
      },
    };
  }
  if (
    error instanceof UnsupportedProtocolVersionError ||
    error instanceof UrlElicitationRequiredError
  ) {
    return { code, message: error.message, data: error.data };
  }
  return { code, message: error.message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The well-formed URL elicitations of a `-32042` error's data (others are left out). */
function urlElicitationsOf(value: unknown): RequiredUrlElicitation[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is RequiredUrlElicitation =>
      isRecord(entry) &&
      (entry.mode === undefined || entry.mode === 'url') &&
      typeof entry.message === 'string' &&
      typeof entry.elicitationId === 'string' &&
      entry.elicitationId.length > 0 &&
      typeof entry.url === 'string' &&
      URL.canParse(entry.url),
  );
}

/**
 * The typed Parley error a JSON-RPC error stands for, when it stands for one a client can act
 * on (`-32022`, `-32021`, `-32042`, an invalid `requestState`, answer or `inputResponses`);
 * `undefined` otherwise.
 */
export function fromJsonRpcError(error: JsonRpcErrorObject): ParleyError | undefined {
  const data = isRecord(error.data) ? error.data : undefined;
  switch (error.code) {
    case JSON_RPC_ERROR_CODES.unsupportedProtocolVersion: {
      const supported = Array.isArray(data?.supported)
        ? data.supported.filter((v): v is string => typeof v === 'string')
        : [];
      const requested = typeof data?.requested === 'string' ? data.requested : 'unknown';
      return new UnsupportedProtocolVersionError({ supported, requested }, { cause: error });
    }
    case JSON_RPC_ERROR_CODES.missingRequiredClientCapability: {
      const requiredCapabilities = isRecord(data?.requiredCapabilities)
        ? (data.requiredCapabilities as ClientCapabilities)
        : {};
      return new UnsupportedCapabilityError(
        { feature: clientFeatureOf(requiredCapabilities), requiredCapabilities },
        { message: error.message, cause: error },
      );
    }
    case JSON_RPC_ERROR_CODES.urlElicitationRequired: {
      const elicitations = urlElicitationsOf(data?.elicitations);
      if (elicitations.length === 0) return undefined;
      return new UrlElicitationRequiredError(elicitations, {
        message: error.message,
        cause: error,
      });
    }
    case JSON_RPC_ERROR_CODES.invalidParams:
      if (data?.reason === 'invalid_request_state') {
        return new InvalidRequestStateError({ reason: 'rejected by the server' }, { cause: error });
      }
      if (data?.reason === 'invalid_answer') {
        return new InvalidAnswerError(
          {
            ...(typeof data.key === 'string' ? { key: data.key } : {}),
            ...(typeof data.field === 'string' ? { field: data.field } : {}),
            reason: typeof data.problem === 'string' ? data.problem : error.message,
          },
          { cause: error },
        );
      }
      if (data?.reason === 'invalid_input_responses') {
        return new InvalidInputResponsesError(
          {
            ...(typeof data.key === 'string' ? { key: data.key } : {}),
            reason: typeof data.problem === 'string' ? data.problem : error.message,
          },
          { cause: error },
        );
      }
      return undefined;
    default:
      return undefined;
  }
}
