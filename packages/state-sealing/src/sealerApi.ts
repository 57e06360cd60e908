import type { BoundRequest, RequestBinding } from './binding.ts';

/** Seals `requestState` for the client to carry, and opens what the client brings back. */
export interface RequestStateSealer {
  /**
   * Seals `plaintext` into an opaque token bound to `binding`. Rejects with a
   * `RequestStateError` (`too-large`) when the token would exceed `maxTokenBytes`, so an author
   * finds out while developing, and with a `TypeError` for a malformed binding or a string with
   * lone surrogates (which would not survive the round trip).
   */
  seal(plaintext: string, binding: RequestBinding | BoundRequest): Promise<string>;
  /**
   * Opens a token sealed for the same audience and binding, within its lifetime, under a key in
   * the ring. For any `token` whatsoever, rejects with nothing but a `RequestStateError` whose
   * `reason` says why (for logs; never tell the client).
   */
  open(token: string, binding: RequestBinding | BoundRequest): Promise<string>;
  /**
   * `open`, also returning what a server needs to enforce single use itself: the token's id
   * (unique per token, never reused) and the last moment it can open (expiry plus clock skew).
   */
  openToken(token: string, binding: RequestBinding | BoundRequest): Promise<OpenedToken>;
  /**
   * The binding checked and digested once, to pass to `seal`, `open` and `openToken` in its
   * place: a server that opens a request's token and seals the next one binds both to the same
   * request, and need not hash it twice. Throws a `TypeError` for a malformed binding, as they
   * would; the binding is read now, so later changes to the object do not reach the result.
   */
  bind(binding: RequestBinding): BoundRequest;
}

/** What {@link RequestStateSealer.openToken} returns. */
export interface OpenedToken {
  plaintext: string;
  /** The token's id: its key id and nonce, base64url. */
  tokenId: string;
  /** After this (milliseconds since the epoch) the token no longer opens. */
  expiresAt: number;
}
