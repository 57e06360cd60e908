/**
 * The crypto a sealer needs, behind one small interface with two implementations: Node's
 * `node:crypto` (fast, synchronous) and WebCrypto (`globalThis.crypto.subtle`, everywhere).
 * Both implement the same algorithms byte for byte, so a token sealed by one opens with the
 * other. Per-token operations may answer synchronously; the sealer awaits them either way.
 */

export type MaybePromise<T> = T | Promise<T>;

/** Which engine a sealer uses. `'auto'` prefers `node:crypto` when the runtime has it. */
export type SealingEngineName = 'auto' | 'node' | 'webcrypto';

export interface SealingEngine<Key = unknown> {
  readonly name: 'node' | 'webcrypto';
  /** HKDF-SHA256 (RFC 5869). Called once per secret per sealer, never per token. */
  hkdf(secret: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array>;
  /** Prepares 32 key bytes for AES-256-GCM, once per key. */
  importAesKey(raw: Uint8Array): Promise<Key>;
  sha256(data: Uint8Array | string): MaybePromise<Uint8Array>;
  /** Fills `target[offset..offset+length)` with cryptographically secure random bytes. */
  randomFill(target: Uint8Array, offset: number, length: number): void;
  /**
   * AES-256-GCM with a 96-bit nonce and a 128-bit tag: returns `header ‖ ciphertext ‖ tag`, the
   * header (the token's clear part) put in front here to save the caller a copy.
   */
  encrypt(
    key: Key,
    nonce: Uint8Array,
    aad: Uint8Array,
    plaintext: Uint8Array,
    header: Uint8Array,
  ): MaybePromise<Uint8Array>;
  /** The plaintext, or `undefined` when the tag does not verify. Never throws for bad input. */
  decrypt(
    key: Key,
    nonce: Uint8Array,
    aad: Uint8Array,
    sealed: Uint8Array,
  ): MaybePromise<Uint8Array | undefined>;
  encodeBase64Url(bytes: Uint8Array): string;
  /**
   * Decodes `text[start..]` when it is canonical unpadded base64url (only the alphabet, no
   * padding, zero unused bits), else `undefined`: decoders skip what they do not know, and a
   * token's text must have one form only.
   */
  decodeBase64Url(text: string, start: number): Uint8Array | undefined;
  encodeUtf8(text: string): Uint8Array;
  decodeUtf8(bytes: Uint8Array): string;
}
