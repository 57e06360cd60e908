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
  protocolVersion?: string;
  sessionId?: string;
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
    ...(request.protocolVersion !== undefined
      ? [`mcp-protocol-version: ${request.protocolVersion}`]
      : []),
    ...(request.sessionId !== undefined ? [`mcp-session-id: ${request.sessionId}`] : []),
    ...(request.authorization !== undefined ? [`authorization: ${request.authorization}`] : []),
  ];
  return [
    'curl -sS -N -X POST',
    shellQuote(request.url),
    ...headers.map((header) => `-H ${shellQuote(header)}`),
    `--data-raw ${shellQuote(request.body)}`,
  ].join(' \\\n  ');
}

/**
 * The JSON-RPC request of a call the page has not made yet, in the form the client would send
 * it: `meta` is the `_meta` the client put on its last request (a modern-era request carries
 * the client's description in it), or none. `undefined` for a resource template, whose URI the
 * client fills in.
 */
export function callRequest(
  method: 'tools/call' | 'prompts/get' | 'resources/read',
  label: string,
  args: Record<string, unknown>,
  meta: unknown,
): string | undefined {
  let params: Record<string, unknown>;
  if (method === 'resources/read') {
    if (label.includes('{')) return undefined;
    params = { uri: label };
  } else params = { name: label, arguments: args };
  if (meta !== undefined) params['_meta'] = meta;
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}
