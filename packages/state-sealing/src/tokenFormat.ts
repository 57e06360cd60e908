import { base64UrlLength } from './base64url.ts';

/**
 * The token format, version 1. Text form:
 *
 *     "ps1." base64url( kid[4] ‖ nonce[12] ‖ AES-256-GCM(claims ‖ state) ‖ tag[16] )
 *
 * - `ps1.` names the format ("Parley state, v1"); a new format gets a new prefix.
 * - `kid` is the key id (from HKDF, public), so the right key is found without trial decryption.
 * - `nonce` is 96 random bits, new for every token; with `kid` it is also the token id that a
 *   replay store remembers.
 * - The GCM additional data is `"ps1." ‖ kid ‖ nonce`: the version, key id and token id are
 *   authenticated with everything else.
 * - Encrypted and authenticated, so the client can neither read nor change them:
 *
 *       claims = iat[6] ‖ exp[6] ‖ audience[16] ‖ binding[32]    (60 bytes)
 *
 *   `iat` and `exp` are milliseconds since the epoch (unsigned 48-bit big-endian), `audience` is
 *   the first 16 bytes of SHA-256 over the server's name and `binding` the SHA-256 of the
 *   request binding (method, target, principal, canonical arguments); `state` is the author's
 *   plaintext in UTF-8.
 */
export const TOKEN_PREFIX = 'ps1.';
export const KID_BYTES = 4;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;
/** kid ‖ nonce: in clear at the front of the token, and the token id. */
export const HEADER_BYTES: number = KID_BYTES + NONCE_BYTES;
export const AUDIENCE_TAG_BYTES = 16;
export const BINDING_DIGEST_BYTES = 32;
export const CLAIMS_BYTES: number = 6 + 6 + AUDIENCE_TAG_BYTES + BINDING_DIGEST_BYTES;

const PREFIX_BYTES = new TextEncoder().encode(TOKEN_PREFIX);
export const AAD_BYTES: number = PREFIX_BYTES.length + HEADER_BYTES;

/** The length in characters (= bytes: the text is ASCII) of a token carrying `stateBytes`. */
export function tokenLength(stateBytes: number): number {
  return (
    TOKEN_PREFIX.length + base64UrlLength(HEADER_BYTES + CLAIMS_BYTES + stateBytes + TAG_BYTES)
  );
}

/** The shortest possible token: empty state. Anything shorter is malformed without a look. */
export const MIN_TOKEN_LENGTH: number = tokenLength(0);

/** The most UTF-8 bytes of state a token of at most `maxTokenBytes` can carry. */
export function maxStateBytes(maxTokenBytes: number): number {
  const overhead = HEADER_BYTES + CLAIMS_BYTES + TAG_BYTES;
  let bytes = Math.max(0, Math.floor(((maxTokenBytes - TOKEN_PREFIX.length) * 3) / 4) - overhead);
  while (bytes > 0 && tokenLength(bytes) > maxTokenBytes) bytes--;
  while (tokenLength(bytes + 1) <= maxTokenBytes) bytes++;
  return bytes;
}

/**
 * The associated data of each token is cut from a shared block rather than allocated alone: V8
 * keeps a typed array this small inside its heap, and the first `subarray` of one (the nonce is
 * one) moves its bytes out to a buffer of their own, a `malloc` and a copy per token. A view of
 * a block is already outside. Each slice is used by one token only, never reused.
 */
const AAD_BLOCK_BYTES = 4096;
let aadBlock = new ArrayBuffer(AAD_BLOCK_BYTES);
let aadBlockOffset = 0;

function aadBytes(): Uint8Array {
  if (aadBlockOffset + AAD_BYTES > AAD_BLOCK_BYTES) {
    aadBlock = new ArrayBuffer(AAD_BLOCK_BYTES);
    aadBlockOffset = 0;
  }
  const aad = new Uint8Array(aadBlock, aadBlockOffset, AAD_BYTES);
  aadBlockOffset += AAD_BYTES;
  return aad;
}

/** The additional data: `"ps1." ‖ kid ‖ nonce`. The nonce goes at {@link NONCE_OFFSET}. */
export function newAad(kid: number): Uint8Array {
  const aad = aadBytes();
  aad.set(PREFIX_BYTES, 0);
  writeUint32(aad, PREFIX_BYTES.length, kid);
  return aad;
}

/** Where the nonce sits in the additional data. */
export const NONCE_OFFSET: number = PREFIX_BYTES.length + KID_BYTES;

/** The additional data for a token's clear header (`kid ‖ nonce`), as decoded from its text. */
export function aadOf(header: Uint8Array): Uint8Array {
  const aad = aadBytes();
  aad.set(PREFIX_BYTES, 0);
  aad.set(header.subarray(0, HEADER_BYTES), PREFIX_BYTES.length);
  return aad;
}

export function readUint32(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset]! << 24) |
      (bytes[offset + 1]! << 16) |
      (bytes[offset + 2]! << 8) |
      bytes[offset + 3]!) >>>
    0
  );
}

function writeUint32(bytes: Uint8Array, offset: number, value: number): void {
  bytes[offset] = value >>> 24;
  bytes[offset + 1] = (value >>> 16) & 255;
  bytes[offset + 2] = (value >>> 8) & 255;
  bytes[offset + 3] = value & 255;
}

function writeUint48(bytes: Uint8Array, offset: number, value: number): void {
  const high = Math.floor(value / 2 ** 32);
  bytes[offset] = (high >>> 8) & 255;
  bytes[offset + 1] = high & 255;
  writeUint32(bytes, offset + 2, value >>> 0);
}

function readUint48(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 8) | bytes[offset + 1]!) * 2 ** 32 + readUint32(bytes, offset + 2);
}

/** The claims of a token, as read back from its plaintext (views into it, not copies). */
export interface Claims {
  issuedAt: number;
  expiresAt: number;
  audienceTag: Uint8Array;
  bindingDigest: Uint8Array;
}

/** Writes the claims at the front of a plaintext buffer; the state follows at CLAIMS_BYTES. */
export function writeClaims(target: Uint8Array, claims: Claims): void {
  writeUint48(target, 0, claims.issuedAt);
  writeUint48(target, 6, claims.expiresAt);
  target.set(claims.audienceTag.subarray(0, AUDIENCE_TAG_BYTES), 12);
  target.set(claims.bindingDigest.subarray(0, BINDING_DIGEST_BYTES), 12 + AUDIENCE_TAG_BYTES);
}

export function readClaims(plaintext: Uint8Array): Claims {
  return {
    issuedAt: readUint48(plaintext, 0),
    expiresAt: readUint48(plaintext, 6),
    audienceTag: plaintext.subarray(12, 12 + AUDIENCE_TAG_BYTES),
    bindingDigest: plaintext.subarray(12 + AUDIENCE_TAG_BYTES, CLAIMS_BYTES),
  };
}

/** Byte equality that takes the same time wherever the first difference is. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
