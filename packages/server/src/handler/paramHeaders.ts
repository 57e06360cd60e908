/**
 * SEP-2243 `Mcp-Param-*` headers: on the modern Streamable HTTP transport a tool argument whose
 * schema property carries `x-mcp-header: "Name"` is mirrored by the client into an
 * `Mcp-Param-Name` header, so intermediaries can route on it without parsing the body. The
 * server must check that the header and the body agree, and refuse a request where they do not
 * (HTTP 400, `-32020` HeaderMismatch), because a proxy may have acted on the header.
 */

/** One argument a tool mirrors into a header. */
export interface ParamHeader {
  argument: string;
  header: string;
  type: 'string' | 'integer' | 'boolean';
}

const MIRRORABLE: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/**
 * The headers a tool's input schema declares. Only properties directly under `properties` with
 * a string, integer or boolean type count; anything else is not a valid declaration and is not
 * enforced.
 */
export function paramHeadersOf(inputSchema: Record<string, unknown>): ParamHeader[] {
  const properties = inputSchema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const headers: ParamHeader[] = [];
  for (const [argument, property] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof property !== 'object' || property === null) continue;
    const { 'x-mcp-header': header, type } = property as Record<string, unknown>;
    if (typeof header === 'string' && header.length > 0 && MIRRORABLE.has(type)) {
      headers.push({ argument, header, type: type as ParamHeader['type'] });
    }
  }
  return headers;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WRAPPED = /^=\?base64\?(.*)\?=$/;

/** A header's value: literal, or the UTF-8 text of a `=?base64?…?=` payload; `undefined` if that payload is not Base64. */
export function decodeHeader(value: string): string | undefined {
  const wrapped = WRAPPED.exec(value);
  if (wrapped === null) return value;
  const payload = wrapped[1] ?? '';
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(payload), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function agrees(text: string, value: unknown, type: ParamHeader['type']): boolean {
  switch (type) {
    case 'string':
      return text === value;
    case 'integer':
      return text.trim() !== '' && Number(text) === value;
    case 'boolean':
      return text === String(value);
  }
}

/** Why the request's `Mcp-Param-*` headers disagree with its arguments, or `undefined` if they agree. */
export function paramHeaderMismatch(
  headers: { get(name: string): string | null },
  args: unknown,
  declared: readonly ParamHeader[],
): string | undefined {
  const values = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  for (const { argument, header, type } of declared) {
    const value = values[argument];
    if (value === undefined || value === null) continue;
    const raw = headers.get(`mcp-param-${header.toLowerCase()}`);
    if (raw === null) return `Mcp-Param-${header} is missing, but the body has '${argument}'`;
    const text = decodeHeader(raw);
    if (text === undefined) return `Mcp-Param-${header} is not valid Base64`;
    if (!agrees(text, value, type))
      return `Mcp-Param-${header} does not match '${argument}' in the body`;
  }
  return undefined;
}
