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
import {
  JSON_RPC_ERRORS,
  JSON_RPC_ERROR_CODES,
  jsonRpcError,
  type JsonRpcErrorName,
  type JsonRpcErrorObject,
  type ModernOnlyErrorName,
} from './codes.ts';
import { ParleyError, type ParleyErrorCode } from './parleyError.ts';
import { isRecord } from '../isRecord.ts';

/** The one message every invalid `requestState` gets on the wire, whatever the reason. */
export const INVALID_REQUEST_STATE_MESSAGE = 'Invalid or expired requestState';

const NAME_BY_PARLEY_CODE: Record<ParleyErrorCode, JsonRpcErrorName> = {
  // The client's doing, not the server's: the handler needs the era the client did not speak.
  era_mismatch: 'eraMismatch',
  unsupported_capability: 'missingRequiredClientCapability',
  rounds_exceeded: 'internalError',
  invalid_answer: 'invalidParams',
  invalid_request_state: 'invalidParams',
  invalid_input_responses: 'invalidParams',
  unsupported_protocol_version: 'unsupportedProtocolVersion',
  url_elicitation_required: 'urlElicitationRequired',
  session_closed: 'internalError',
  store_unavailable: 'internalError',
  task_cancelled: 'internalError',
  internal: 'internalError',
};

/**
 * What a handshake-era connection gets instead of a code that exists only at MCP 2026-07-28: the
 * code that era's transports use for the same refusal.
 */
const HANDSHAKE_INSTEAD: Record<ModernOnlyErrorName, JsonRpcErrorName> = {
  headerMismatch: 'badRequest',
  missingRequiredClientCapability: 'capabilityNotDeclared',
  unsupportedProtocolVersion: 'badRequest',
};

function isModernOnly(name: JsonRpcErrorName): name is ModernOnlyErrorName {
  return Object.hasOwn(HANDSHAKE_INSTEAD, name);
}

/** What shapes the JSON-RPC error: the era of the connection it is sent on. */
export interface ToJsonRpcErrorOptions {
  /**
   * `'handshake'`: codes that exist only at MCP 2026-07-28 are never used (a missing client
   * capability is then `capabilityNotDeclared`, an unsupported version `badRequest`, with the
   * same message and data). Default `'modern'`.
   */
  era?: Era;
}

/**
 * The JSON-RPC error for anything thrown while serving a request, in one place.
 *
 * Parley errors keep their message and get their code; an invalid `requestState` always gets
 * the same message and data, whatever went wrong, so the client learns nothing it could use to
 * probe the sealing. An invalid answer carries its key and field in `data`, so the client can
 * rebuild the typed error, and never the answer: an error reply is logged by proxies and
 * clients and read by the model, which a form's answers are kept from (the person was told
 * what was wrong in the re-asks). Anything else is an internal error whose details stay on the
 * server.
 */
export function toJsonRpcError(
  error: unknown,
  options: ToJsonRpcErrorOptions = {},
): JsonRpcErrorObject {
  if (!(error instanceof ParleyError)) return jsonRpcError('internalError', 'Internal error');
  const name = NAME_BY_PARLEY_CODE[error.code];
  const code =
    JSON_RPC_ERRORS[
      options.era === 'handshake' && isModernOnly(name) ? HANDSHAKE_INSTEAD[name] : name
    ].code;
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
      code,
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

function capabilityError(
  error: JsonRpcErrorObject,
  requiredCapabilities: ClientCapabilities,
): UnsupportedCapabilityError {
  return new UnsupportedCapabilityError(
    { feature: clientFeatureOf(requiredCapabilities), requiredCapabilities },
    { message: error.message, cause: error },
  );
}

function versionError(
  error: JsonRpcErrorObject,
  data: Record<string, unknown> | undefined,
): UnsupportedProtocolVersionError {
  const supported = Array.isArray(data?.supported)
    ? data.supported.filter((v): v is string => typeof v === 'string')
    : [];
  const requested = typeof data?.requested === 'string' ? data.requested : 'unknown';
  return new UnsupportedProtocolVersionError({ supported, requested }, { cause: error });
}

/**
 * The typed Parley error a JSON-RPC error stands for, when it stands for one a client can act
 * on (an unsupported version, a missing client capability on either era, required URL
 * elicitations, an invalid `requestState`, answer or `inputResponses`); `undefined` otherwise.
 */
export function fromJsonRpcError(error: JsonRpcErrorObject): ParleyError | undefined {
  const data = isRecord(error.data) ? error.data : undefined;
  switch (error.code) {
    case JSON_RPC_ERROR_CODES.unsupportedProtocolVersion:
      return versionError(error, data);
    case JSON_RPC_ERROR_CODES.missingRequiredClientCapability:
      return capabilityError(
        error,
        isRecord(data?.requiredCapabilities)
          ? (data.requiredCapabilities as ClientCapabilities)
          : {},
      );
    // The handshake era's missing capability; Parley before it was named there sent
    // `internalError` with the same data, and a client may still meet such a server.
    case JSON_RPC_ERROR_CODES.capabilityNotDeclared:
    case JSON_RPC_ERROR_CODES.internalError:
      return isRecord(data?.requiredCapabilities)
        ? capabilityError(error, data.requiredCapabilities as ClientCapabilities)
        : undefined;
    // The handshake era's unsupported version, known by its data.
    case JSON_RPC_ERROR_CODES.badRequest:
      return Array.isArray(data?.supported) && typeof data.requested === 'string'
        ? versionError(error, data)
        : undefined;
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
