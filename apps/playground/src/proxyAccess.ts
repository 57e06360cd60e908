import type { IncomingMessage } from 'node:http';

import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from './forwarderHeader.ts';

/**
 * Who may use the forwarder, and where it may send: only the playground's own page, by its
 * own `fetch`, to an http(s) URL. The forwarder reaches any address this machine can, so
 * nothing else — another site, a link, a page the forwarder itself served — may drive it.
 */

/** Host names that only this machine reaches: the forwarder answers to no other. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `Sec-Fetch-Dest` values of a page being loaded rather than data being fetched. */
const DOCUMENT_DESTINATIONS = new Set(['document', 'iframe', 'frame', 'embed', 'object']);

/** The server the page wants to reach, or why `target` does not name one. */
export function proxyTarget(url: URL): { target: URL } | { problem: string } {
  const target = url.searchParams.get('target');
  if (target === null || target === '') {
    return { problem: 'the target query parameter is missing: /mcp-proxy?target=<http(s) URL>' };
  }
  if (!URL.canParse(target))
    return { problem: `the target ${JSON.stringify(target)} is not a URL` };
  const parsed = new URL(target);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      problem: `the target ${JSON.stringify(target)} is not an http(s) URL (${parsed.protocol} is not forwarded)`,
    };
  }
  return { target: parsed };
}

/**
 * Why a request may not use the forwarder because it came from elsewhere, or `undefined`: a
 * form posted from another site carries another `Origin` (or `Sec-Fetch-Site: cross-site`),
 * and a page that rebinds its own domain name to 127.0.0.1 still sends its own name as `Host`.
 */
export function crossSiteProblem(request: IncomingMessage): string | undefined {
  const host = request.headers.host ?? '';
  const hostname = host.replace(/:\d+$/, '');
  if (!LOOPBACK_HOSTS.has(hostname)) {
    return `the forwarder answers only on 127.0.0.1, localhost or [::1], not ${JSON.stringify(host)}`;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    return `the forwarder answers only the playground's own page (http://${host}), not ${origin}`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') {
    return `the forwarder answers only the playground's own page, not a ${site} request`;
  }
  return undefined;
}

/**
 * Why a request is not the page's own `fetch`, or `undefined`. A link to the forwarder (one a
 * hostile server offers as a URL elicitation, or one typed or pasted) is a navigation: were it
 * forwarded, whatever the target answered would be a page on the playground's origin.
 */
export function notPageFetchProblem(request: IncomingMessage): string | undefined {
  const mode = request.headers['sec-fetch-mode'];
  const destination = request.headers['sec-fetch-dest'];
  if (
    mode === 'navigate' ||
    (destination !== undefined && DOCUMENT_DESTINATIONS.has(destination))
  ) {
    return "the forwarder is not a page to open: it forwards only the playground page's own MCP requests";
  }
  if (request.headers[FORWARDER_HEADER] !== FORWARDER_HEADER_VALUE) {
    return `the forwarder answers only the playground page's own requests (they carry ${FORWARDER_HEADER}: ${FORWARDER_HEADER_VALUE})`;
  }
  return undefined;
}
