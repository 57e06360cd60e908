import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from './forwarderHeader.ts';
import { notPageFetchProblem } from './proxyAccess.ts';

/**
 * Who may start a command and talk to it: a command runs with the person's rights, so only the
 * playground's own page may, and nothing the person did not type. Each of these checks stops
 * one way in:
 * - the Host header must be the playground's own `127.0.0.1:<port>` or `localhost:<port>`: a
 *   site that rebinds its name to 127.0.0.1 sends its own name;
 * - no other Origin, no `Sec-Fetch-Site` but `same-origin`: another site's form or script;
 * - the forwarder header, and no navigation: a link, a URL elicitation's Open;
 * - the token this process made at start and wrote into the page it serves on its own host:
 *   only a script that read that page has it.
 */

export const STDIO_TOKEN_HEADER = 'x-parley-stdio-token';

/** A secret for this process's page. */
export function newStdioToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `host` (a Host header) names this playground: loopback, on its own port. */
export function isOwnHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why `request` may not start or reach a command, or `undefined`. */
export function stdioAccessProblem(
  request: IncomingMessage,
  port: number,
  token: string,
): string | undefined {
  const host = request.headers.host;
  if (!isOwnHost(host, port)) {
    return `commands are started only for the playground's own page at http://127.0.0.1:${port}/, not for the host ${JSON.stringify(host ?? '')}`;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    return `commands are started only for the playground's own page (http://${host}), not for ${origin}`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') {
    return `commands are started only for the playground's own page, not for a ${site} request`;
  }
  const notFetch = notPageFetchProblem(request);
  if (notFetch !== undefined) {
    return request.headers[FORWARDER_HEADER] === FORWARDER_HEADER_VALUE
      ? "commands are not a page to open: only the playground page's own requests reach them"
      : `commands are started only for the playground page's own requests (they carry ${FORWARDER_HEADER}: ${FORWARDER_HEADER_VALUE})`;
  }
  const given = request.headers[STDIO_TOKEN_HEADER];
  if (typeof given !== 'string' || given === '') {
    return `the request has no ${STDIO_TOKEN_HEADER}: only the page the playground served has its token`;
  }
  if (!sameSecret(given, token)) {
    return `the ${STDIO_TOKEN_HEADER} is not this playground's: reload the page`;
  }
  return undefined;
}
