import type { HeaderReader } from '../modern/headers.ts';
import { errorReply, type ErrorReply } from '../modern/errorReply.ts';
import type { EndpointLimits } from './limits.ts';
import type { Session } from './session.ts';

/**
 * Who "a client" is for `maxSessionsPerClient`, and the handshake-era sessions each client
 * holds, counted as they register and end, so the check at `initialize` costs a map lookup
 * however many sessions are open.
 *
 * A client is its principal when the endpoint authenticates; else its network address, when the
 * host knows it; else nobody, and then no per-client limit applies (a web `fetch` host without a
 * principal). An address is the connection's, never a header's, unless the server was told which
 * header its proxy sets (`http.clientAddressHeader`): any client can write any header.
 */

/** The longest address read from a header: an IPv6 address in text is at most 45 characters. */
const MAX_ADDRESS = 64;
/** How long a client refused for holding too many sessions is told to wait. */
const CROWDED_RETRY_AFTER_SECONDS = 5;

/** Headers a proxy adds: a request that carries one came through a proxy. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded'] as const;

/**
 * The client's address: the one its proxy reports in `header`, if named and sent, else the
 * host's. A request that came through a proxy the server was not told of (`header` unnamed, a
 * forwarding header sent) has none: the connection's address is the proxy's, which every client
 * behind it shares, and counting them as one would refuse them all at one client's limit. Such
 * requests are limited by `maxSessions` only (and their principal's limit, when authenticated).
 */
export function clientAddressOf(
  request: { headers: HeaderReader; clientAddress?: string | undefined },
  header: string | undefined,
): string | undefined {
  if (header === undefined) {
    const proxied = FORWARDING_HEADERS.some((name) => request.headers.get(name) !== null);
    return proxied ? undefined : request.clientAddress;
  }
  const reported = request.headers.get(header);
  if (reported === null) return request.clientAddress;
  // Each proxy appends the address it saw: the last entry is the one the nearest proxy added,
  // and what comes before it is whatever the client claimed.
  const last = reported.slice(reported.lastIndexOf(',') + 1).trim();
  const address = last.startsWith('[') && last.endsWith(']') ? last.slice(1, -1) : last;
  return address.length === 0 ? request.clientAddress : address.slice(0, MAX_ADDRESS);
}

/** The key a client's sessions are counted under, or `undefined` when nobody knows who it is. */
export function clientKeyOf(
  principal: string | undefined,
  address: string | undefined,
): string | undefined {
  if (principal !== undefined) return `principal ${principal}`;
  if (address === undefined || address.length === 0) return undefined;
  return `address ${networkOf(address)}`;
}

/**
 * The network an address stands for: an IPv4 address itself (also when IPv4-mapped, as a
 * dual-stack listener reports one), an IPv6 address by its /64, since a single host is given a
 * whole /64 and may use any address in it. Text that is not an address stands for itself.
 */
export function networkOf(address: string): string {
  const bare = (address.split('%', 1)[0] as string).toLowerCase();
  if (!bare.includes(':')) return bare;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(bare);
  if (mapped !== null) return mapped[1] as string;
  const groups = ipv6Groups(bare);
  return groups === undefined ? bare : `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros; `undefined` if it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const [head = '', tail = ''] = halves;
  // An embedded IPv4 address (`64:ff9b::192.0.2.1`) is the last two groups: past the /64.
  const split = (part: string) =>
    part.length === 0
      ? []
      : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const before = split(head);
  const after = split(tail);
  const missing = 8 - before.length - after.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...before, ...Array<string>(missing).fill('0'), ...after];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16).toString(16));
}

/** The sessions of each client, and those it is opening. */
export class SessionsByClient {
  readonly #open = new Map<string, Set<Session>>();
  readonly #opening = new Map<string, number>();

  /** Sessions `client` holds, those being opened included. */
  count(client: string): number {
    return (this.#open.get(client)?.size ?? 0) + (this.#opening.get(client) ?? 0);
  }

  /** A session of `client` begins opening (`1`) or is done opening (`-1`). */
  opening(client: string | undefined, change: 1 | -1): void {
    if (client === undefined) return;
    const now = (this.#opening.get(client) ?? 0) + change;
    if (now > 0) this.#opening.set(client, now);
    else this.#opening.delete(client);
  }

  add(session: Session): void {
    const { client } = session;
    if (client === undefined) return;
    let sessions = this.#open.get(client);
    if (sessions === undefined) this.#open.set(client, (sessions = new Set()));
    sessions.add(session);
  }

  remove(session: Session): void {
    const { client } = session;
    const sessions = client === undefined ? undefined : this.#open.get(client);
    if (sessions?.delete(session) === true && sessions.size === 0) {
      this.#open.delete(client as string);
    }
  }

  /**
   * The `429` for a `client` that holds `maxSessionsPerClient` sessions once its own that did
   * nothing after `initialize` for `unusedSessionTimeoutMs` are handed to `close` (which must
   * `remove` them at once); `undefined` when it has room, or is nobody. Only its own: a client
   * at its limit never closes another's sessions.
   */
  refusal(
    client: string | undefined,
    limits: Pick<EndpointLimits, 'maxSessionsPerClient' | 'unusedSessionTimeoutMs'>,
    now: number,
    close: (session: Session) => void,
  ): ErrorReply | undefined {
    const { maxSessionsPerClient: max, unusedSessionTimeoutMs } = limits;
    if (client === undefined || this.count(client) < max) return undefined;
    const unused = [...(this.#open.get(client) ?? [])].filter(
      (session) => session.unused && now - session.lastSeen >= unusedSessionTimeoutMs,
    );
    for (const session of unused) close(session);
    const held = this.count(client);
    if (held < max) return undefined;
    return errorReply(
      'tooManyRequests',
      `Too Many Requests: this client already has ${held} sessions open (maxSessionsPerClient ${max}); end one with DELETE or try again later`,
      { headers: { 'retry-after': String(CROWDED_RETRY_AFTER_SECONDS) } },
    );
  }
}
