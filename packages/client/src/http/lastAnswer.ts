import type { FetchLike } from '@modelcontextprotocol/client';

import type { ResolvedHttpOptions } from './httpOptions.ts';

/** How the endpoint last answered a POST: enough to tell "not MCP here" from "an older MCP". */
export interface EndpointAnswer {
  status: number;
  statusText: string;
  /** The media type, without parameters; `undefined` when the answer named none. */
  contentType: string | undefined;
}

/**
 * Watches the answers of one connection attempt. The SDK's version probe in mode `'modern'`
 * reads a 404 page and a handshake-era server's JSON-RPC error alike as "no modern version" and
 * keeps neither answer; the status and content type of the last one tell the two apart.
 */
export class LastAnswer {
  #answer: EndpointAnswer | undefined;

  get answer(): EndpointAnswer | undefined {
    return this.#answer;
  }

  /** `http` with its `fetch` (the given one, else the global) watched. */
  watch(http: ResolvedHttpOptions | undefined): ResolvedHttpOptions {
    const inner: FetchLike = http?.fetch ?? ((input, init) => fetch(input, init));
    const watched: FetchLike = async (input, init) => {
      const response = await inner(input, init);
      if ((init?.method ?? 'GET').toUpperCase() === 'POST') {
        const type = response.headers.get('content-type');
        this.#answer = {
          status: response.status,
          statusText: response.statusText,
          contentType: type === null ? undefined : type.split(';')[0]!.trim().toLowerCase(),
        };
      }
      return response;
    };
    return { auth: http?.auth, headers: http?.headers, fetch: watched };
  }
}

/** An answer no MCP endpoint gives: a missing page, a refused method, a body that is not MCP. */
export function isNotMcp(answer: EndpointAnswer): boolean {
  if (answer.status === 404 || answer.status === 405) return true;
  const type = answer.contentType;
  return type !== undefined && type !== 'application/json' && type !== 'text/event-stream';
}
