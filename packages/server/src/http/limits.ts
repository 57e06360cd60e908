/**
 * The bounds of the HTTP edge, each with a default a production server can live with, checked
 * once where the server is configured (a bad value is a `RangeError` that names it).
 */

/** The bounds that apply wherever the endpoint runs (`fetch`, `nodeHandler`, `run`). */
export interface EndpointLimits {
  /** Largest request body. */
  maxBodyBytes: number;
  /** Most request-body bytes held in memory at once, across every request being read. */
  maxBufferedBodyBytes: number;
  /** Most handshake-era sessions open at once. */
  maxSessions: number;
  /**
   * Most handshake-era sessions one client (its principal, else its network address) holds at
   * once, so that one client cannot take every session of `maxSessions`.
   */
  maxSessionsPerClient: number;
  /** A session with no open stream and no request for this long is closed. */
  sessionIdleTimeoutMs: number;
  /**
   * While the sessions are at `maxSessions`, one that did nothing after `initialize` (no call, no
   * stream) for this long is closed to make room.
   */
  unusedSessionTimeoutMs: number;
  /** A session whose calls lost their stream is closed if no stream comes back within this. */
  streamResumeWindowMs: number;
  /** The SSE `retry` a client is told to wait before reconnecting a dropped stream. */
  sseRetryMs: number;
}

/** The bounds of a server `run()` starts itself. */
export interface ListenerLimits {
  /** Time a client has to send the request headers. */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request (headers and body). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** Most connections open at once; past it a connection gets `503` and is closed. */
  maxConnections: number;
}

export const ENDPOINT_DEFAULTS: Readonly<EndpointLimits> = {
  // The SDK's own default.
  maxBodyBytes: 4 * 1024 * 1024,
  maxBufferedBodyBytes: 64 * 1024 * 1024,
  maxSessions: 10_000,
  // A client holds a session per connection to the server: even a host running many
  // conversations at once needs tens, not hundreds. A hundred leaves it room, and takes a hundred
  // clients to fill the default `maxSessions`.
  maxSessionsPerClient: 100,
  sessionIdleTimeoutMs: 30 * 60_000,
  // Seconds, not the idle half hour: a flood of bare `initialize` requests must not hold every
  // session until the idle sweep.
  unusedSessionTimeoutMs: 5_000,
  streamResumeWindowMs: 30_000,
  sseRetryMs: 1_000,
};

export const LISTENER_DEFAULTS: Readonly<ListenerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Longer than the idle timeout of the usual load balancers (60 s), so they close first and
  // never send a request down a connection the server is closing.
  keepAliveTimeoutMs: 65_000,
  maxConnections: 10_000,
};

type Given<T> = { [K in keyof T]?: T[K] | undefined };

function pick<T extends object>(
  api: string,
  defaults: Readonly<T>,
  given: Given<T>,
  allowZero: ReadonlySet<keyof T> = new Set(),
): T {
  const result = { ...defaults } as T;
  for (const key of Object.keys(defaults) as (keyof T & string)[]) {
    const value = given[key];
    if (value === undefined) continue;
    const least = allowZero.has(key) ? 0 : 1;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
      throw new RangeError(
        `${api}: ${key} must be a whole number >= ${least} (got ${String(value)}).`,
      );
    }
    result[key] = value as T[typeof key];
  }
  return result;
}

export function endpointLimits(given: Given<EndpointLimits>): EndpointLimits {
  const limits = pick('ParleyServer: http', ENDPOINT_DEFAULTS, given, new Set(['sseRetryMs']));
  if (limits.maxBufferedBodyBytes < limits.maxBodyBytes) {
    throw new RangeError(
      `ParleyServer: http.maxBufferedBodyBytes (${limits.maxBufferedBodyBytes}) must be at least http.maxBodyBytes (${limits.maxBodyBytes}).`,
    );
  }
  return limits;
}

export function listenerLimits(given: Given<ListenerLimits>): ListenerLimits {
  // Node's own rule: the headers must be in before the whole request is.
  const limits = pick('run', LISTENER_DEFAULTS, given);
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new RangeError(
      `run: headersTimeoutMs (${limits.headersTimeoutMs}) must not be longer than requestTimeoutMs (${limits.requestTimeoutMs}).`,
    );
  }
  return limits;
}

/**
 * The request bodies being read, in bytes: a request that would take the total past the bound
 * is refused (`503`, try again) instead of growing the heap without limit.
 */
export class BodyBudget {
  #held = 0;
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Take `bytes` more; `false` (and nothing taken) when that would pass the bound. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.#max) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  get held(): number {
    return this.#held;
  }
}
