import { decodeHeader } from '../handler/paramHeaders.ts';
import { PROTOCOL_VERSION_KEY } from './envelope.ts';

/**
 * SEP-2243: on Streamable HTTP every modern request mirrors its protocol version, method and
 * (for calls, reads and prompts) the name or URI in headers, so intermediaries can route without
 * parsing the body. Header and body must agree; a request where they do not (or where a header
 * is missing) is refused with `-32020`, because a proxy may already have acted on the header.
 */

/** Read-only access to request headers, by lower-case name. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A `-32020` problem. */
export interface HeaderProblem {
  message: string;
  data: { mismatch: { header: string; body: string } };
}

function problem(header: string, body: string): HeaderProblem {
  return {
    message: `Bad Request: the request headers and body disagree: ${body}`,
    data: { mismatch: { header, body } },
  };
}

/** The `MCP-Protocol-Version` and `Mcp-Method` headers of a request, read once. */
export interface MirroredHeaders {
  version: string | null;
  method: string | null;
}

export function mirroredHeaders(headers: HeaderReader): MirroredHeaders {
  return { version: headers.get('mcp-protocol-version'), method: headers.get('mcp-method') };
}

/**
 * The protocol-version and method headers against the body. `'present'` checks only headers
 * that are there (run first, before the envelope); `'required'` also refuses missing ones (run
 * once the envelope is known to be valid).
 */
export function checkHeaders(
  mirrored: MirroredHeaders,
  method: string,
  meta: Record<string, unknown> | undefined,
  mode: 'present' | 'required',
): HeaderProblem | undefined {
  const claimed = meta?.[PROTOCOL_VERSION_KEY];
  const { version, method: named } = mirrored;
  // Compared as sent first: trimming (a new string) only for a header that differs.
  if (
    version !== null &&
    typeof claimed === 'string' &&
    version !== claimed &&
    version.trim() !== claimed
  ) {
    return problem(
      version,
      `the body envelope names protocol version ${claimed} but the MCP-Protocol-Version header names ${version}`,
    );
  }
  if (named !== null && named !== method && named.trim() !== method) {
    return problem(
      named,
      `the body names method ${method} but the Mcp-Method header names ${named}`,
    );
  }
  if (mode === 'present') return undefined;
  if (version === null) {
    return problem(
      '(missing)',
      `the body envelope names protocol version ${String(claimed)} but the required MCP-Protocol-Version header is absent`,
    );
  }
  if (named === null) {
    return problem(
      '(missing)',
      `the body names method ${method} but the required Mcp-Method header is absent`,
    );
  }
  return undefined;
}

const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // SEP-2663: the task methods mirror the task id.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The `Mcp-Name` header against the body's `name`, `uri` or `taskId`, for the methods that have one. */
export function mcpNameProblem(
  headers: HeaderReader,
  method: string,
  params: Record<string, unknown>,
): HeaderProblem | undefined {
  const source = NAME_SOURCE[method];
  if (source === undefined) return undefined;
  const body = params[source];
  if (typeof body !== 'string') return undefined;
  const raw = headers.get('mcp-name');
  if (raw === null) {
    return problem(
      '(missing)',
      `the body names ${source} ${body} but the required Mcp-Name header is absent`,
    );
  }
  // The common case, a plain name equal to the body's, takes no decoding (nor a trimmed copy).
  if (raw === body && !raw.startsWith('=?')) return undefined;
  const decoded = decodeHeader(raw.trim());
  if (decoded === undefined) return problem(raw, 'the Mcp-Name header is not valid Base64');
  if (decoded !== body) {
    return problem(
      raw,
      `the body names ${source} ${body} but the Mcp-Name header names ${decoded}`,
    );
  }
  return undefined;
}
