import { optionKeys, type OptionKeys } from '@parley/core';
import type { AuthInfo } from '@modelcontextprotocol/server';

import type { HttpAuthOptions } from './bearerAuth.ts';
import type { EventStore } from './eventStore.ts';
import type { SessionStore } from './sessionStore.ts';

/** What an HTTP endpoint can be asked to do, by the server's `http` options and per request. */

/** HTTP behaviour of a Parley server (`mcp.fetch`, `mcp.nodeHandler`, `mcp.run({ transport: 'http' })`). */
export interface HttpOptions {
  /** Give handshake-era clients sessions, so `ctx.elicit()` works over HTTP. Default `true`. */
  sessions?: boolean;
  /** A session with no open stream and no request for this long is closed. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** The most handshake-era sessions open at once; past it `initialize` gets `503`. Default 10 000. */
  maxSessions?: number;
  /**
   * The most handshake-era sessions one client may hold at once, so that one client cannot take
   * every session of `maxSessions`. A client is its principal when the endpoint authenticates
   * (`http.auth`, or the `authInfo` a host passes), else its network address when the host knows
   * it (`run()` and `nodeHandler()` do; an IPv6 client counts by its /64), else nobody: behind
   * `mcp.fetch()` without a principal there is no per-client limit. At the limit, that client's
   * own sessions that did nothing after `initialize` for `unusedSessionTimeoutMs` are closed to
   * make room; if none is, its `initialize` gets `429` with `Retry-After`, and a `DELETE` of one
   * of its sessions makes room at once. Behind a proxy every client has the proxy's address: a
   * request carrying `X-Forwarded-For` or `Forwarded` while `clientAddressHeader` names none is
   * counted by no address; name the header to count clients behind it. Default 100: a client holds a
   * session per connection, tens at most; a hundred clients are needed to fill `maxSessions`.
   */
  maxSessionsPerClient?: number;
  /**
   * The request header a proxy in front of this server sets to the address of the client it
   * serves (`'x-forwarded-for'`, `'x-real-ip'`, `'cf-connecting-ip'`, …), read as the client's
   * address for `maxSessionsPerClient`; of a list, the last entry (the one the proxy nearest this
   * server added) counts. A request without it counts by its own address. Set it only when every
   * request comes through that proxy: a client that reaches the server directly could send any
   * value in it. Default: none (headers are never trusted: the connection's address counts, and
   * none for a request that came through a proxy).
   */
  clientAddressHeader?: string;
  /**
   * While the sessions are at `maxSessions`, one that did nothing after `initialize` (no request
   * but its `notifications/initialized`, no stream) for this long is closed to make room for a
   * new client. Default 5 000.
   */
  unusedSessionTimeoutMs?: number;
  /**
   * A session whose calls lost their stream (the client went away mid-call) and got no stream
   * back within this is closed, and a pending `ctx.elicit()` of it rejects with a
   * `SessionClosedError`. Default 30 000. With a `sessionStore`, a call kept there is not ended
   * this way (its client may be reading it through another replica): its own timeout ends it.
   */
  streamResumeWindowMs?: number;
  /**
   * Where handshake-era SSE events are kept so a client whose stream drops can resume it with
   * `Last-Event-ID`: default a bounded store in memory (`createMemoryEventStore`); `false`
   * turns resumability off.
   */
  eventStore?: EventStore | false;
  /**
   * Where handshake-era sessions and the record of their calls are kept, so they outlive this
   * process: with one store shared by every replica (`createRedisSessionStore` from
   * `@parley/redis`) and a shared `eventStore`, any replica serves any session, and a call
   * waiting on a person goes on on another replica when its own drains or dies, without asking
   * again what was answered. See the deployment guide. Default: none (a session lives and dies
   * with the process that opened it).
   */
  sessionStore?: SessionStore;
  /** The SSE `retry` (ms) clients are told to wait before reconnecting a stream. Default 1 000. */
  sseRetryMs?: number;
  /**
   * Begin every handshake-era session id this replica issues with this (letters, digits, `.`,
   * `-`, `_`; up to 64), e.g. `'booking1.'`: a load balancer that cannot learn which replica
   * opened a session (nginx, Caddy) routes its requests back to that replica by the id alone.
   * See the deployment guide. Default: none.
   */
  sessionIdPrefix?: string;
  /**
   * Accepted `Host` header names (DNS-rebinding protection). `run()` on a loopback host defaults
   * to the localhost names; `fetch()` and `nodeHandler()` check nothing unless you list names.
   */
  allowedHosts?: string[];
  /** Accepted `Origin` host names; defaults follow `allowedHosts`. */
  allowedOrigins?: string[];
  /** The largest request body accepted (`413` past it, even when chunked). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * The most request-body bytes held in memory at once, across all requests being read; a
   * request that would pass it gets `503` with `Retry-After`. Default 64 MiB.
   */
  maxBufferedBodyBytes?: number;
  /**
   * Require a principal: a bearer token on every request, checked by `verifyToken`; sealed state
   * is bound to the principal it returns. See {@link HttpAuthOptions}.
   */
  auth?: HttpAuthOptions;
}

/** Per-request inputs of the fetch handler. */
export interface FetchOptions {
  /**
   * A principal the host already authenticated; it binds sealed state to that user (and
   * `http.auth` is not asked again).
   */
  authInfo?: AuthInfo;
}

/** The keys of {@link HttpOptions} (and of `run()`'s HTTP options, which extend them). */
export const HTTP_OPTION_KEYS = [
  'sessions',
  'sessionIdleTimeoutMs',
  'unusedSessionTimeoutMs',
  'maxSessions',
  'maxSessionsPerClient',
  'clientAddressHeader',
  'streamResumeWindowMs',
  'eventStore',
  'sessionStore',
  'sseRetryMs',
  'sessionIdPrefix',
  'allowedHosts',
  'allowedOrigins',
  'maxBodyBytes',
  'maxBufferedBodyBytes',
  'auth',
] as const;

const SESSION_ID_PREFIX = /^[A-Za-z0-9._-]{1,64}$/;

const STORE_METHODS = ['get', 'set', 'delete', 'notify', 'watch'] as const;

/**
 * Refuse what the handshake-era sessions cannot work with, when the options are given rather
 * than at the first request: a `clientAddressHeader` that is no header name, a
 * `sessionIdPrefix` that could not stand in an HTTP header (or the empty one), and a
 * `sessionStore` that is not one, or that has no resumable streams to carry its calls over
 * (`eventStore: false`).
 */
export function checkSessionOptions(
  api: string,
  options:
    | Pick<HttpOptions, 'sessionIdPrefix' | 'sessionStore' | 'eventStore' | 'clientAddressHeader'>
    | undefined,
): void {
  checkClientAddressHeader(api, options?.clientAddressHeader);
  const prefix = options?.sessionIdPrefix;
  if (prefix !== undefined && (typeof prefix !== 'string' || !SESSION_ID_PREFIX.test(prefix))) {
    throw new TypeError(
      `${api}: sessionIdPrefix must be 1 to 64 letters, digits, '.', '-' or '_' (got ${JSON.stringify(prefix)}).`,
    );
  }
  const store = options?.sessionStore as Record<string, unknown> | undefined;
  if (store === undefined) return;
  const missing = STORE_METHODS.filter((method) => typeof store?.[method] !== 'function');
  if (typeof store !== 'object' || store === null || missing.length > 0) {
    throw new TypeError(
      `${api}: sessionStore must be a SessionStore (${STORE_METHODS.join(', ')}); it has no ${missing.join(', ')}.`,
    );
  }
  if (options?.eventStore === false) {
    throw new TypeError(
      `${api}: sessionStore needs resumable streams: give an eventStore (shared by the replicas too), not eventStore: false.`,
    );
  }
}

/** An HTTP field name (RFC 9110's token), kept short. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

/** Refuse a `clientAddressHeader` that is not a header name. */
function checkClientAddressHeader(api: string, header: unknown): void {
  if (header !== undefined && (typeof header !== 'string' || !HEADER_NAME.test(header))) {
    throw new TypeError(
      `${api}: clientAddressHeader must be a header name, such as 'x-forwarded-for' (got ${JSON.stringify(header)}).`,
    );
  }
}

/** The `http` options, checked for keys they cannot have. */
export const HTTP_OPTIONS: OptionKeys = optionKeys<HttpOptions>()(HTTP_OPTION_KEYS);

export const FETCH_OPTIONS: OptionKeys = optionKeys<FetchOptions>()(['authInfo']);
