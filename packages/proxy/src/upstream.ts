import type { ClientCapabilities } from '@parley/core';
import {
  Client,
  type ClientMode,
  type ClientOptions,
  type ClientTarget,
  type ListChangedKind,
} from '@parley/client';

import { relayHandlers, type Ask } from './answers.ts';

/**
 * The proxy's side towards the upstream server, through Parley's `Client` (which speaks both
 * eras and drives a modern server's rounds). Listing goes through one connection. A call gets a
 * connection of its own whose handlers relay its asks, so every ask the upstream makes is known
 * to belong to that call (a handshake-era server's pushed requests carry nothing that says which
 * call they serve): over HTTP a fresh client per call; over stdio, where a connection is a
 * process, the one connection, its calls taken one at a time.
 */

/** How the proxy reaches its upstream. */
export interface UpstreamOptions {
  target: ClientTarget;
  mode: ClientMode;
  /** Added to every HTTP request to the upstream. */
  headers?: Record<string, string> | undefined;
  /** The upstream's tools, prompts or resources changed. */
  onListChanged?: ((kind: ListChangedKind) => void) | undefined;
  /** What the upstream's client warns about (schemas it had to read leniently, …). */
  onWarning?: ((message: string) => void) | undefined;
}

/** Rounds are the downstream client's to bound; the proxy's client does not add its own. */
const UNBOUNDED_ROUNDS = 10_000;

const CLIENT_INFO = { name: 'parley-proxy', version: '0.0.0' };

function isStdio(target: ClientTarget): boolean {
  return typeof target === 'object' && target !== null && 'command' in target;
}

/** A passed-through round pushes nothing; the handlers only declare the capabilities. */
const unanswerable: Ask = () =>
  Promise.reject(new Error('A round passed through is answered by the client behind the proxy.'));

/** Every capability, for the one stdio connection (its asks are relayed to whichever call runs). */
const ALL_CAPABILITIES: ClientCapabilities = { elicitation: {}, sampling: {}, roots: {} };

export class Upstream {
  readonly #options: UpstreamOptions;
  readonly #shared: Client;
  readonly #stdio: boolean;
  /** Stdio: the ask of the call that runs now (calls are taken one at a time). */
  #current: Ask | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: UpstreamOptions) {
    this.#options = options;
    this.#stdio = isStdio(options.target);
    const relay: Ask = (request, key) => {
      if (this.#current === undefined) {
        return Promise.reject(new Error('The proxy has no call in flight to put this ask to.'));
      }
      return this.#current(request, key);
    };
    this.#shared = this.#client({
      ...(this.#stdio ? relayHandlers(relay, ALL_CAPABILITIES) : {}),
      ...(options.onListChanged === undefined ? {} : { onListChanged: options.onListChanged }),
    });
  }

  /** The connection listings go through. */
  get lister(): Client {
    return this.#shared;
  }

  async connect(): Promise<void> {
    await this.#shared.connect();
  }

  /** The era the upstream speaks (as its listing connection negotiated it). */
  get era(): 'modern' | 'handshake' | undefined {
    return this.#shared.era;
  }

  /**
   * Send one modern-era round through: on the listing connection over stdio (a round pushes
   * nothing, so it needs no turn of its own), else on a connection of its own that declares the
   * downstream client's `capabilities`, so the upstream asks what that client can answer.
   */
  async passThrough<T>(
    capabilities: ClientCapabilities,
    run: (client: Client) => Promise<T>,
  ): Promise<T> {
    if (this.#stdio) return run(this.#shared);
    return this.#onOwnConnection(
      { mode: 'modern', ...relayHandlers(unanswerable, capabilities) },
      run,
    );
  }

  /**
   * Run one call on a connection whose asks go to `ask`, declaring `capabilities` (those of the
   * downstream client, where the connection is the call's own).
   */
  async call<T>(
    ask: Ask,
    capabilities: ClientCapabilities,
    run: (client: Client) => Promise<T>,
  ): Promise<T> {
    if (this.#stdio) return this.#oneAtATime(ask, run);
    return this.#onOwnConnection(relayHandlers(ask, capabilities), run);
  }

  async close(): Promise<void> {
    await this.#shared.close();
  }

  /** Run on a connection of the call's own (HTTP), closed when it ends. */
  async #onOwnConnection<T>(
    handlers: Partial<ClientOptions>,
    run: (client: Client) => Promise<T>,
  ): Promise<T> {
    const client = this.#client(handlers);
    try {
      await client.connect();
      return await run(client);
    } finally {
      await client.close().catch(() => {});
    }
  }

  #oneAtATime<T>(ask: Ask, run: (client: Client) => Promise<T>): Promise<T> {
    const turn = this.#queue.then(async () => {
      this.#current = ask;
      try {
        return await run(this.#shared);
      } finally {
        this.#current = undefined;
      }
    });
    this.#queue = turn.catch(() => {});
    return turn;
  }

  #client(handlers: Partial<ClientOptions>): Client {
    const { target, mode, headers, onWarning } = this.#options;
    return new Client(target, {
      mode,
      ...handlers,
      clientInfo: CLIENT_INFO,
      maxRounds: UNBOUNDED_ROUNDS,
      ...(headers === undefined ? {} : { headers }),
      ...(onWarning === undefined ? {} : { onWarning }),
    });
  }
}
