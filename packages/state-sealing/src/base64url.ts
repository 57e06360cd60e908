/**
 * Unpadded base64url (RFC 4648 §5), strict in what it accepts: only the 64 alphabet characters,
 * no padding, and zero unused bits in the last character. Strictness is what makes a token's
 * text form canonical: every change to a token's text changes the bytes it decodes to, so no
 * edit of a token opens.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
// Sticky, so it can start at an offset without slicing; several times faster than a loop.
const ALPHABET_ONLY = /[A-Za-z0-9_-]*$/y;

/** The length of the base64url text (unpadded) of `byteLength` bytes. */
export function base64UrlLength(byteLength: number): number {
  return Math.ceil((byteLength * 4) / 3);
}

/**
 * Whether `text[start..]` is canonical unpadded base64url. Checked before decoding, because
 * decoders (Node's `Buffer` among them) skip characters they do not know and ignore unused bits.
 */
export function isCanonicalBase64Url(text: string, start = 0): boolean {
  const length = text.length - start;
  if (length % 4 === 1) return false;
  ALPHABET_ONLY.lastIndex = start;
  if (!ALPHABET_ONLY.test(text)) return false;
  const rest = length % 4;
  if (rest === 0) return true;
  const last = DECODE[text.charCodeAt(text.length - 1)]!;
  // Two characters carry one byte (4 unused bits), three carry two bytes (2 unused bits).
  return (last & (rest === 2 ? 0x0f : 0x03)) === 0;
}

/** Encodes bytes as unpadded base64url. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      ALPHABET[n >>> 18]! +
      ALPHABET[(n >>> 12) & 63]! +
      ALPHABET[(n >>> 6) & 63]! +
      ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

/** Decodes `text[start..]`, which the caller has checked with {@link isCanonicalBase64Url}. */
export function decodeBase64Url(text: string, start = 0): Uint8Array {
  const length = text.length - start;
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  let o = 0;
  let i = start;
  for (; i + 3 < text.length; i += 4) {
    const n =
      (DECODE[text.charCodeAt(i)]! << 18) |
      (DECODE[text.charCodeAt(i + 1)]! << 12) |
      (DECODE[text.charCodeAt(i + 2)]! << 6) |
      DECODE[text.charCodeAt(i + 3)]!;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = text.length - i;
  if (rest >= 2) {
    const n =
      (DECODE[text.charCodeAt(i)]! << 18) |
      (DECODE[text.charCodeAt(i + 1)]! << 12) |
      (rest === 3 ? DECODE[text.charCodeAt(i + 2)]! << 6 : 0);
    out[o++] = n >>> 16;
    if (rest === 3) out[o++] = (n >>> 8) & 255;
  }
  return out;
}
