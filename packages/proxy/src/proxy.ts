import {
  ParleyServer,
  type ParleyServerOptions,
  type RunOptions,
  type RunningServer,
} from '@parley/server';
import type { ClientMode, ClientTarget } from '@parley/client';
import { checkOptionKeys, optionKeys } from '@parley/core';

import { heldCallTimedOut } from './errors.ts';
import { HeldCalls } from './heldCalls.ts';
import { registerUpstream, type ListKind, type Registered } from './register.ts';
import { Upstream } from './upstream.ts';

/** Options of {@link ParleyProxy}. */
export interface ParleyProxyOptions {
  /** The upstream server: an `http(s)` URL, or a stdio command (`{ command, args, env, cwd }`). */
  upstream: ClientTarget;
  /**
   * The era to speak to the upstream: `'auto'` (modern when it offers 2026-07-28), `'modern'`
   * or `'handshake'`. Default `'auto'`.
   */
  upstreamMode?: ClientMode;
  /** HTTP upstreams: headers added to every request (an API key, …). */
  upstreamHeaders?: Record<string, string>;
  /**
   * How long an upstream call is held open for a modern downstream client's next round before
   * it is given up (the upstream request cancelled). Default 600 000 (10 minutes).
   */
  heldCallTimeoutMs?: number;
  /**
   * What the proxy's client warns about the upstream: a schema near the spec it read leniently
   * (FastMCP's multi-select without `items.type`, …), named with the upstream and the field.
   * Default: a line on stderr. The downstream server's own warnings go to `server.onWarning`.
   */
  onUpstreamWarning?: (message: string) => void;
  /**
   * Options of the downstream `ParleyServer` (its name defaults to `'parley-proxy'`):
   * `requestStateSecurity` (a key ring shared across restarts), `http`, `onError`, ….
   */
  server?: Partial<ParleyServerOptions>;
}

const DEFAULT_HELD_CALL_TIMEOUT_MS = 600_000;

const OPTION_KEYS = optionKeys<ParleyProxyOptions>()([
  'upstream',
  'upstreamMode',
  'upstreamHeaders',
  'heldCallTimeoutMs',
  'onUpstreamWarning',
  'server',
]);

function checkOptions(options: ParleyProxyOptions): void {
  if (typeof options !== 'object' || options === null || options.upstream === undefined) {
    throw new TypeError('ParleyProxy: give options with an upstream (a URL or a stdio command).');
  }
  checkOptionKeys('ParleyProxy', 'options', options, OPTION_KEYS);
  const { onUpstreamWarning } = options;
  if (onUpstreamWarning !== undefined && typeof onUpstreamWarning !== 'function') {
    throw new TypeError('ParleyProxy: onUpstreamWarning must be a function (message) => void.');
  }
  const { heldCallTimeoutMs, upstreamMode } = options;
  if (
    heldCallTimeoutMs !== undefined &&
    (!Number.isInteger(heldCallTimeoutMs) || heldCallTimeoutMs <= 0)
  ) {
    throw new RangeError('ParleyProxy: heldCallTimeoutMs must be a positive whole number of ms.');
  }
  if (upstreamMode !== undefined && !['auto', 'modern', 'handshake'].includes(upstreamMode)) {
    throw new TypeError(`ParleyProxy: upstreamMode must be 'auto', 'modern' or 'handshake'.`);
  }
}

/**
 * An MCP proxy: a `ParleyServer` in front of an upstream server, offering what the upstream
 * lists (schemas as written) and relaying every call, with every ask the upstream makes
 * (elicitation in form and URL mode, sampling, roots), its progress, cancellation and errors.
 * It bridges the eras both ways: a handshake-era client gets a modern upstream's
 * `inputRequests` as pushed requests while the proxy drives the upstream's rounds, and a modern
 * client gets a handshake-era upstream's pushed requests as `InputRequiredResult` rounds while
 * the proxy holds the upstream call open (such calls need affinity to one proxy process).
 * Between a modern client and a modern upstream each round passes through untouched, with the
 * upstream's own `requestState`: nothing is held, and any proxy process carries the next round.
 *
 * @example
 * ```ts
 * // docs/examples/proxy/proxy.ts#proxy
 * const proxy = new ParleyProxy({
 *   // An http(s) URL, or a stdio command: { command: 'node', args: ['server.js'] }
 *   upstream,
 *   // The era spoken upstream: 'auto' (default), 'modern' or 'handshake'.
 *   upstreamMode: 'auto',
 *   // How long a held upstream call waits for a modern client's next round.
 *   heldCallTimeoutMs: 600_000,
 *   server: {
 *     // The downstream ParleyServer's options. One key ring for every replica (and across
 *     // restarts): a round that reaches a proxy without its held call is told so clearly.
 *     requestStateSecurity: {
 *       keys: [process.env['REQUEST_STATE_KEY'] ?? ''],
 *     },
 *   },
 * });
 * // Lists what the upstream offers, then serves it: both eras, one endpoint.
 * const running = await proxy.run({ transport: 'http', port });
 * ```
 */
export class ParleyProxy {
  /** The downstream server; available at once, filled by `start()`. */
  readonly server: ParleyServer;
  readonly #upstream: Upstream;
  readonly #held: HeldCalls;
  readonly #registered: Registered = new Set();
  #started: Promise<void> | undefined;
  /** Refreshes run one after another, so one list is never registered twice at once. */
  #refreshing: Promise<void> = Promise.resolve();

  constructor(options: ParleyProxyOptions) {
    checkOptions(options);
    this.server = new ParleyServer({ name: 'parley-proxy', ...options.server });
    this.#upstream = new Upstream({
      target: options.upstream,
      mode: options.upstreamMode ?? 'auto',
      headers: options.upstreamHeaders,
      onWarning: options.onUpstreamWarning,
      onListChanged: (kind) => {
        this.#refreshing = this.#refreshing.then(() => this.#register([kind])).catch(() => {});
      },
    });
    this.#held = new HeldCalls(
      options.heldCallTimeoutMs ?? DEFAULT_HELD_CALL_TIMEOUT_MS,
      heldCallTimedOut,
    );
  }

  /** Upstream calls held open between a modern client's rounds right now. */
  get heldCalls(): number {
    return this.#held.size;
  }

  /** Connect to the upstream and register what it lists. Calling it again does nothing. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      await this.#upstream.connect();
      await this.#register();
    })();
    return this.#started;
  }

  #register(kinds?: readonly ListKind[]): Promise<void> {
    const deps = { upstream: this.#upstream, held: this.#held };
    return registerUpstream(this.server, this.#upstream.lister, deps, this.#registered, kinds);
  }

  /** Start, then serve downstream over HTTP or stdio; closing it closes the upstream too. */
  async run(options: RunOptions): Promise<RunningServer> {
    await this.start();
    const running = await this.server.run(options);
    return {
      ...running,
      close: async (closeOptions) => {
        await running.close(closeOptions);
        await this.close();
      },
    };
  }

  /** Give up held calls and close the upstream connection. */
  async close(): Promise<void> {
    this.#held.abortAll(new Error('The proxy closed.'));
    await this.#upstream.close();
  }
}
