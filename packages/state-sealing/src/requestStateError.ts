/** Why a token was refused. For server logs only: on the wire every reason looks the same. */
export type RequestStateErrorReason =
  | 'malformed'
  | 'unknown-key'
  | 'tampered'
  | 'expired'
  | 'wrong-audience'
  | 'wrong-binding'
  | 'replayed'
  | 'too-large';

const REASONS: ReadonlySet<string> = new Set<RequestStateErrorReason>([
  'malformed',
  'unknown-key',
  'tampered',
  'expired',
  'wrong-audience',
  'wrong-binding',
  'replayed',
  'too-large',
]);

// A global symbol, so an error made by another copy of this package (the ESM build beside the
// CJS one, or two bundles in one process) still passes `instanceof` in the copy that catches it.
const BRAND: unique symbol = Symbol.for('@parley/state-sealing.RequestStateError') as never;

/**
 * A `requestState` token that does not open (or, for `too-large`, state that cannot be sealed).
 *
 * `reason` is for server logs. A server must answer every reason with the same JSON-RPC error
 * (`-32602` "Invalid or expired requestState") so that a client learns nothing about which check
 * failed. The message never contains the state, the key or the binding.
 */
export class RequestStateError extends Error {
  readonly reason: RequestStateErrorReason;

  constructor(reason: RequestStateErrorReason, message?: string, options?: { cause?: unknown }) {
    if (!REASONS.has(reason)) {
      throw new TypeError(`RequestStateError: unknown reason ${JSON.stringify(reason)}`);
    }
    super(
      message ?? `requestState rejected: ${reason}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = reason;
    this.name = 'RequestStateError';
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * `instanceof` by brand, so copies of the package recognise each other's errors. An author's
   * subclass keeps ordinary prototype semantics.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== RequestStateError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true
    );
  }
}
