import { Server } from '@modelcontextprotocol/server';

/**
 * Every protected or private member of the SDK that @parley/server relies on, and the one file
 * that touches any: the rest of the package uses the SDK's public API only. They were read from
 * the version below (package.json pins it exactly); an SDK upgrade that moves, renames or changes
 * one of them fails test/handshake/sdkInternals.test.ts, which names the member and the version.
 *
 * - `Server#_wrapHandler(method, handler)` (protected): the hook the SDK's `setRequestHandler`
 *   wraps every registered handler with. For `tools/call` it is an async function that checks
 *   the request, awaits the handler and checks its result, and it hands the handler the context
 *   it was given (symbol-keyed properties included).
 * - `Server#LOG_LEVEL_SEVERITY` (private, readonly): the ranks of the log levels, a `Map` the
 *   SDK builds per server and only reads.
 * - `Protocol#_requestMessageId` (private): the next id of a request the server sends its
 *   client, a number the SDK counts up from 0 per server.
 */

/** The SDK version the members above were read from. */
export const SDK_VERSION_RELIED_ON = '2.4.0';

/** The members, by name (the test looks each one up on the real SDK). */
export const SDK_MEMBERS_RELIED_ON = {
  wrapHandler: '_wrapHandler',
  logLevelSeverity: 'LOG_LEVEL_SEVERITY',
  requestMessageId: '_requestMessageId',
} as const;

/**
 * Number the requests `server` sends its client from `first`: a session rebuilt on another
 * replica must not reuse the ids the replica that opened it gave its questions (their answers
 * are kept by id).
 */
export function startRequestIdsAt(server: Server, first: number): void {
  (server as unknown as { _requestMessageId: number })._requestMessageId = first;
}

/** A request handler as the SDK keeps it: what `_wrapHandler` takes, and returns. */
export type SdkRequestHandler = Parameters<Server['_wrapHandler']>[1];

/** The SDK's own wrapping of a handler (`Server#_wrapHandler`). */
export type SdkWrap = (method: string, handler: SdkRequestHandler) => SdkRequestHandler;

/** The first server's log-level ranks, which every later one shares. */
let sharedSeverity: ReadonlyMap<string, number> | undefined;

/**
 * The SDK's `Server`, with its internals reached here only:
 *
 * - every server shares the first one's table of log-level ranks: a server per session would
 *   otherwise make a map per session, for as long as it is open;
 * - a subclass wraps registered handlers by overriding {@link parleyWrapHandler}, which gets
 *   the SDK's own wrapping to call (or not) as it sees fit.
 */
export class HookedServer extends Server {
  constructor(...args: ConstructorParameters<typeof Server>) {
    super(...args);
    const own = this as unknown as { LOG_LEVEL_SEVERITY: ReadonlyMap<string, number> };
    sharedSeverity ??= own.LOG_LEVEL_SEVERITY;
    own.LOG_LEVEL_SEVERITY = sharedSeverity;
  }

  protected override _wrapHandler(method: string, handler: SdkRequestHandler): SdkRequestHandler {
    return this.parleyWrapHandler(method, handler, (name, inner) =>
      super._wrapHandler(name, inner),
    );
  }

  /**
   * How a handler registered for `method` is wrapped. By default the SDK's own way; the prefix
   * keeps the name clear of any the SDK may add. Called from the SDK's constructor as well, so
   * an override must not rely on its own subclass's fields.
   */
  protected parleyWrapHandler(
    method: string,
    handler: SdkRequestHandler,
    sdkWrap: SdkWrap,
  ): SdkRequestHandler {
    return sdkWrap(method, handler);
  }
}
