import { checkOptionKeys, optionKeys } from '@parley/core';

import { AUTH_OPTIONS, protectedResourceMetadataPath } from './bearerAuth.ts';
import { LOOPBACK_HOSTNAMES } from './hostCheck.ts';
import type { HttpEndpoint } from './httpEndpoint.ts';
import { HTTP_OPTION_KEYS, type HttpOptions } from './httpOptions.ts';
import { listenerLimits } from './limits.ts';
import { listenNode, type CloseOptions } from './nodeListener.ts';

/**
 * `run({ transport: 'http' })`: the endpoint on Node's own HTTP server. The listener's options
 * (host, port, path, timeouts, readiness) are taken out and checked here; the rest configure the
 * endpoint, over the server's own `http` options.
 */

/** Serve over HTTP on Node: one endpoint, both eras. */
export interface HttpRunOptions extends HttpOptions {
  transport: 'http';
  /** Default `127.0.0.1`. Binding elsewhere needs `allowedHosts` for DNS-rebinding protection. */
  host?: string;
  /** Default 3000; 0 picks a free port (read it from the returned `url`). */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /**
   * A readiness endpoint for load balancers: `GET` answers `200 {"status":"ready"}`, and
   * `503 {"status":"draining"}` once `close()` begins. Default `/ready`; `false` for none.
   */
  readinessPath?: string | false;
  /** How long a client has to send the request headers. Default 10 000. */
  headersTimeoutMs?: number;
  /** How long a client has to send the whole request. Default 30 000. */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open. Default 65 000: longer than the usual
   * load balancer's idle timeout, so the balancer closes first.
   */
  keepAliveTimeoutMs?: number;
  /** The most connections open at once; the request of one past it gets `503`. Default 10 000. */
  maxConnections?: number;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** A listening endpoint. */
export interface HttpListening {
  /** The endpoint's URL, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string;
  /** The graceful drain (see `RunningServer.close`). */
  close(options?: CloseOptions): Promise<void>;
}

/**
 * Listen with `options`. `endpointFor` builds the endpoint from its merged options; `ready`
 * resolves once the server can serve (see `ParleyServer`), before the port opens.
 */
const RUN_OPTIONS = optionKeys<HttpRunOptions>()([
  ...HTTP_OPTION_KEYS,
  'transport',
  'host',
  'port',
  'path',
  'readinessPath',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'keepAliveTimeoutMs',
  'maxConnections',
]);

export async function runHttp(
  options: HttpRunOptions,
  serverHttp: HttpOptions | undefined,
  endpointFor: (options: HttpOptions) => HttpEndpoint,
  ready: () => Promise<void>,
): Promise<HttpListening> {
  checkOptionKeys('run', 'options', options, RUN_OPTIONS);
  checkOptionKeys('run', 'options.auth', options.auth, AUTH_OPTIONS);
  const {
    transport: _transport,
    host = '127.0.0.1',
    port = 3000,
    path = '/mcp',
    readinessPath = '/ready',
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs,
    maxConnections,
    ...http
  } = options;
  const limits = listenerLimits({
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs,
    maxConnections,
  });
  if (
    readinessPath !== false &&
    (typeof readinessPath !== 'string' || !readinessPath.startsWith('/'))
  ) {
    throw new TypeError(
      `run: readinessPath must be a path ('/ready') or false (got ${JSON.stringify(readinessPath)}).`,
    );
  }
  // A loopback host answers to its own names; anything else must say which names it serves.
  const allowedHosts =
    http.allowedHosts ?? (LOOPBACK_HOSTS.has(host) ? [...LOOPBACK_HOSTNAMES, host] : undefined);
  const endpoint = endpointFor({
    ...serverHttp,
    ...http,
    ...(allowedHosts !== undefined ? { allowedHosts } : {}),
  });
  await ready();
  const auth = http.auth ?? serverHttp?.auth;
  const listener = await listenNode(endpoint, {
    host,
    port,
    path,
    // The OAuth protected resource metadata the endpoint publishes lives beside it.
    alsoServe:
      auth?.authorizationServers === undefined
        ? []
        : [protectedResourceMetadataPath(new URL(path, 'http://localhost'))],
    readinessPath,
    limits,
  });
  return { url: listener.url, close: (closeOptions) => listener.close(closeOptions) };
}
