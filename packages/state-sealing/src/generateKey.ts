/** The size of a generated secret: AES-256 wants 256 bits. */
const KEY_BYTES = 32;

/**
 * A new secret for a sealer's key ring: 32 random bytes from the platform's CSPRNG, as 64
 * lowercase hex digits (the equivalent of Python's `secrets.token_hex(32)`). Pass it as a string
 * (`keys: [process.env.REQUEST_STATE_KEY]`); the sealer uses its UTF-8 bytes.
 */
export function generateKey(): string {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  if (typeof crypto?.getRandomValues !== 'function') {
    throw new TypeError('generateKey: this runtime has no globalThis.crypto.getRandomValues');
  }
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
