import type { HeaderReader } from '../modern/headers.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { Reply } from './wire.ts';

/**
 * DNS-rebinding protection: the `Host` (and, when a browser sends one, the `Origin`) must name
 * one of the allowed host names; ports do not matter. A request that fails gets `403`, and a
 * header that is not a host at all says so rather than failing anything else.
 */

/** The loopback names `run()` allows on a loopback host. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of `http://<authority>`, or `undefined` when it is not one. */
function hostnameOf(authority: string): string | undefined {
  if (authority.length === 0 || /[\s/?#@\\]/.test(authority)) return undefined;
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return undefined;
  }
}

export class HostCheck {
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: readonly string[];
  /** Host headers already judged: the same few arrive on every request. */
  readonly #judged = new Map<string, boolean>();

  constructor(hosts: readonly string[], origins: readonly string[]) {
    this.#hosts = new Set(hosts);
    this.#origins = origins;
  }

  /** Why the request may not proceed, as its answer; `undefined` when it may. */
  refuse(headers: HeaderReader): Reply | undefined {
    const host = headers.get('host');
    if (host === null || host === '') {
      return errorReply('forbidden', 'Forbidden: the request has no Host header');
    }
    let ok = this.#judged.get(host);
    if (ok === undefined) {
      const hostname = hostnameOf(host);
      ok = hostname !== undefined && this.#hosts.has(hostname);
      if (this.#judged.size < 1_000) this.#judged.set(host, ok);
    }
    if (!ok)
      return errorReply('forbidden', 'Forbidden: the Host header names a host not served here');
    const origin = headers.get('origin');
    if (origin === null || origin === '') return undefined;
    return this.#originAllowed(origin)
      ? undefined
      : errorReply('forbidden', 'Forbidden: the Origin header names an origin not allowed here');
  }

  #originAllowed(origin: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.hostname === '') return false;
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    // A browser extension's origin: allowed by scheme (`chrome-extension://*`).
    if (!web && this.#origins.includes(`${url.protocol}//*`)) return true;
    return this.#origins.includes(url.hostname);
  }
}
