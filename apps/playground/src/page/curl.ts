/**
 * "Copy as curl": one request of the page as a command a person pastes into a POSIX shell. It
 * names the server's real URL, never the playground's forwarder (which answers only the page),
 * and carries the headers a server needs to take the request out of the page's session.
 */

export interface CurlRequest {
  /** The server's own URL. */
  url: string;
  /** The JSON-RPC message, as sent. */
  body: string;
  /**
   * The protocol's headers, `mcp-*`: the version, the session, and in the modern era the
   * method and name a server checks against the body.
   */
  mcpHeaders: Record<string, string>;
  /** The Authorization header: put in only when the person asks for it. */
  authorization?: string;
}

/** `text` as one single-quoted shell word: a `'` inside ends the quote, escapes one, reopens. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export function curlCommand(request: CurlRequest): string {
  const headers = [
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    ...Object.entries(request.mcpHeaders).map(([name, value]) => `${name}: ${value}`),
    ...(request.authorization !== undefined ? [`authorization: ${request.authorization}`] : []),
  ];
  return [
    'curl -sS -N -X POST',
    shellQuote(request.url),
    ...headers.map((header) => `-H ${shellQuote(header)}`),
    `--data-raw ${shellQuote(request.body)}`,
  ].join(' \\\n  ');
}

/** The modern era's `_meta` key of the protocol version, which makes a request modern. */
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/**
 * The request of a call the page has not made yet, as the client would send it: `latest` is what
 * the client's newest request carried — its `_meta` (a modern-era request describes the client
 * in it) and its `mcp-*` headers. `undefined` for a resource template, whose URI the client
 * fills in.
 */
export function callRequest(
  method: 'tools/call' | 'prompts/get' | 'resources/read',
  label: string,
  args: Record<string, unknown>,
  latest: { meta?: unknown; mcpHeaders: Record<string, string> },
): { body: string; mcpHeaders: Record<string, string> } | undefined {
  if (method === 'resources/read' && label.includes('{')) return undefined;
  const name = method === 'resources/read' ? label : undefined;
  const params: Record<string, unknown> =
    name !== undefined ? { uri: name } : { name: label, arguments: args };
  if (latest.meta !== undefined) params['_meta'] = latest.meta;
  const { 'mcp-method': _method, 'mcp-name': _name, ...kept } = latest.mcpHeaders;
  const modern =
    typeof latest.meta === 'object' && latest.meta !== null && PROTOCOL_VERSION_META in latest.meta;
  return {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    // A modern server checks the method and name in the headers against the body's.
    mcpHeaders: modern ? { ...kept, 'mcp-method': method, 'mcp-name': name ?? label } : kept,
  };
}
