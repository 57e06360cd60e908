import type { JSONRPCMessage } from '@modelcontextprotocol/server';

import type { HeaderReader } from '../modern/headers.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { Reply } from './wire.ts';

/**
 * What a handshake-era session's requests must be before its transport acts on them: a POST
 * that accepts both answers the transport may give and holds a batch of well-formed JSON-RPC
 * messages, and a `MCP-Protocol-Version` the transport supports. Each check answers with the
 * clean JSON-RPC error a client is owed, and has no state: the transport's own, session by
 * session, stays in `sessionTransport.ts`.
 */

/** What the transport reads of a request: its method and its headers (see `sessions.ts`). */
export interface TransportRequest {
  method: string;
  headers: HeaderReader;
  /** Whose request it is, by address, when known (see `clientSessions.ts`). */
  clientAddress?: string | undefined;
}

/** The SDK's message checks, as the lazily loaded SDK module has them. */
export interface MessageChecks {
  parseJSONRPCMessage(value: unknown): JSONRPCMessage;
  isJSONRPCRequest(value: unknown): boolean;
  isInitializeRequest(value: unknown): boolean;
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION: string;
  SUPPORTED_PROTOCOL_VERSIONS: readonly string[];
}

/** The most messages a batch may hold. */
const MAX_BATCH = 100;

/** The messages a POST holds (one, or a batch), or the answer that refuses it. */
export function postedMessages(
  checks: MessageChecks,
  request: TransportRequest,
  body: unknown,
): JSONRPCMessage[] | Reply {
  const accept = request.headers.get('accept');
  if (accept?.includes('application/json') !== true || !accept.includes('text/event-stream')) {
    return errorReply(
      'streamNotAcceptable',
      'Not Acceptable: the client must accept both application/json and text/event-stream',
    );
  }
  const raw = Array.isArray(body) ? body : [body];
  if (raw.length > MAX_BATCH) {
    return errorReply(
      'invalidRequest',
      `Invalid Request: a batch may hold at most ${MAX_BATCH} messages`,
    );
  }
  try {
    return raw.map((message) => checks.parseJSONRPCMessage(message));
  } catch {
    return errorReply(
      'invalidRequest',
      'Invalid Request: not a JSON-RPC 2.0 request, notification or response as MCP defines them',
    );
  }
}

/** The answer that refuses `request`'s `MCP-Protocol-Version`, if it is not `supported`. */
export function versionProblem(
  supported: readonly string[],
  request: TransportRequest,
): Reply | undefined {
  const version = request.headers.get('mcp-protocol-version');
  if (version === null || supported.includes(version)) return undefined;
  return errorReply(
    'badRequest',
    `Bad Request: unsupported protocol version ${JSON.stringify(version.slice(0, 64))} (this server supports ${supported.join(', ')})`,
  );
}
