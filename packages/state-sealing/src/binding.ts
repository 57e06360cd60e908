import { canonicalJson } from './canonicalJson.ts';

// #region RequestBinding
/** The request a token belongs to. A token sealed for one binding opens only for an equal one. */
export interface RequestBinding {
  /** The JSON-RPC method, e.g. `'tools/call'`, `'prompts/get'`, `'resources/read'`. */
  method: string;
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /**
   * The request's arguments. Only a digest is kept (SHA-256 of a canonical, key-sorted JSON
   * text), so key order does not matter; `undefined`, `null` and `{}` all mean "no arguments".
   */
  arguments?: unknown;
  /** The authenticated user, when there is one. A token sealed without one opens only without. */
  principal?: string;
}
// #endregion RequestBinding

// Versioned, so a future token format can bind differently without ever colliding with this one.
const BINDING_DOMAIN = 'parley/state-sealing/v1 binding\n';

/**
 * Throws `TypeError` naming `api` for a binding of the wrong shape: that is a programming error
 * in the server, not something a client can cause.
 */
export function checkBinding(binding: RequestBinding, api: string): void {
  if (typeof binding !== 'object' || binding === null) {
    throw new TypeError(
      `${api}: binding must be an object { method, target, arguments?, principal? }`,
    );
  }
  const { method, target, principal } = binding;
  if (typeof method !== 'string' || method === '') {
    throw new TypeError(`${api}: binding.method must be a non-empty string, e.g. 'tools/call'`);
  }
  if (typeof target !== 'string') {
    throw new TypeError(`${api}: binding.target must be a string (tool or prompt name, or URI)`);
  }
  if (principal !== undefined && typeof principal !== 'string') {
    throw new TypeError(`${api}: binding.principal must be a string when given`);
  }
}

/**
 * The text whose SHA-256 a token carries, for a binding {@link checkBinding} accepted. A JSON
 * array is unambiguous: no choice of method, target, principal or arguments reads as another.
 * Lets {@link canonicalJson}'s error through for arguments with no JSON form.
 */
export function bindingText(binding: RequestBinding): string {
  const { method, target, principal } = binding;
  const args = binding.arguments;
  const argsText = args === undefined || args === null ? '{}' : canonicalJson(args);
  return (
    BINDING_DOMAIN +
    `[${JSON.stringify(method)},${JSON.stringify(target)},` +
    `${principal === undefined ? 'null' : JSON.stringify(principal)},${argsText}]`
  );
}

/**
 * A binding checked and digested once, for the several seals and opens of one request (see
 * `RequestStateSealer.bind`). Opaque: only the sealer that made it reads it.
 */
export class BoundRequest {
  /** The SHA-256 of the binding's text, or why the binding has none (no JSON form). */
  readonly #digest: Uint8Array | Promise<Uint8Array> | { failure: unknown };

  /** @internal Made by `RequestStateSealer.bind`. */
  constructor(digest: Uint8Array | Promise<Uint8Array> | { failure: unknown }) {
    this.#digest = digest;
    Object.freeze(this);
  }

  /** @internal */
  static digestOf(bound: BoundRequest): Uint8Array | Promise<Uint8Array> | { failure: unknown } {
    return bound.#digest;
  }
}
